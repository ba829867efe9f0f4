package gmp

import "github.com/schedlab/schedlab/core/sim"

// Wait queues: the one shape of every line a goroutine parks in. The
// runtime has one too. A parked goroutine is a sudog (runtime2.go): the
// G, the element it carries, and since when it waits (acquiretime). A
// channel keeps its parked senders and receivers in a waitq of sudogs
// (runtime2.go, chan.go), and a semaphore of the sync package in its
// semaRoot (sema.go), where semacquire1 queues at the tail or, asked for
// lifo, at the head: sync.Mutex puts a woken waiter that lost the lock
// back at the front that way. semrelease1 dequeues the first sudog and
// readies its G after letting go of the root's lock; a select queues a
// sudog on every channel it selects on, and once woken takes itself off
// every other queue it sat in (dequeueSudoG, select.go).
//
// Every object of the model a goroutine parks on keeps its line as a
// WaitQ: channels, semaphores, pools' submitters, errgroups, mutexes,
// wait groups. The queue knows nothing of the object; the object decides
// whom to grant, and Machine.ready takes the granted G off the queue when
// it readies it (detach), so every wake-up goes through one door:
// queuesAt says which queues a place has. What a G parked at a place
// waits on is worded once, by waitsOn at the end of this file, which both
// the describer's park sentences and checkdead's deadlock report read.

// Sudog is one parked goroutine in a WaitQ.
type Sudog struct {
	G GID
	// N is what the waiter asks for or is numbered by: a semaphore's
	// weight, a pool submitter's place in arrival order.
	N int
	// Since is when the G started to wait (sudog.acquiretime). A waiter
	// put back at the front keeps the time it first queued, as
	// semaRoot.queue keeps the head's acquiretime and sync.Mutex its
	// waitStartTime.
	Since sim.Time
	// elem is what the waiter carries: a pool submitter's task, as the
	// body index it runs.
	elem uint16
	// sel is, for a select's sudog (isSelect), its case plus one: a
	// select queues one per case, so one G may wait in several queues
	// (select.go). 0 for every other waiter.
	sel uint16
}

// WaitQ is a line of parked goroutines, first waiter first, plus those a
// grant has taken off it that are still parked until they are readied.
type WaitQ struct {
	q []Sudog
	// granted are waiters a grant took off the line, parked until the
	// granter readies them: the runtime dequeues under the object's lock
	// and readies after, and package pool and x/sync do the same.
	granted []GID
}

// Len is the number of goroutines waiting in line (granted ones not
// counted).
func (q *WaitQ) Len() int { return len(q.q) }

// At returns the i-th waiter from the front.
func (q *WaitQ) At(i int) Sudog { return q.q[i] }

// All returns the waiters, first first. The result must be treated as
// read-only.
func (q *WaitQ) All() []Sudog { return q.q }

// GIDs returns the waiting goroutines, first first, in a new slice.
func (q *WaitQ) GIDs() []GID {
	out := make([]GID, len(q.q))
	for i, w := range q.q {
		out[i] = w.G
	}
	return out
}

// Granted returns the goroutines a grant took off the line that are not
// readied yet. The result must be treated as read-only.
func (q *WaitQ) Granted() []GID { return q.granted }

// first returns the waiter at the front; the line must not be empty.
func (q *WaitQ) first() *Sudog { return &q.q[0] }

// push queues w at the tail (semacquire1, chansend's and chanrecv's
// enqueue).
func (q *WaitQ) push(w Sudog) { q.q = append(q.q, w) }

// pushFront queues w at the head (semaRoot.queue with lifo set).
func (q *WaitQ) pushFront(w Sudog) {
	q.q = append(q.q, Sudog{})
	copy(q.q[1:], q.q)
	q.q[0] = w
}

// grant takes the first waiter off the line and keeps it as granted until
// it is readied (semrelease1's dequeue; a channel's dequeue). The line
// must not be empty.
func (q *WaitQ) grant() Sudog {
	w := q.q[0]
	q.q = q.q[1:]
	q.granted = append(q.granted, w.G)
	return w
}

// grantAt takes the i-th waiter off the line, as grant does the first:
// a cond's notifyListNotifyOne finds its ticket's sudog anywhere in the
// list.
func (q *WaitQ) grantAt(i int) Sudog {
	w := q.q[i]
	q.q = append(q.q[:i], q.q[i+1:]...)
	q.granted = append(q.granted, w.G)
	return w
}

// detach takes g out of the queue, waiting or granted, keeping the order
// of the rest; it reports whether g was there.
func (q *WaitQ) detach(g GID) bool {
	for i, w := range q.q {
		if w.G == g {
			q.q = append(q.q[:i], q.q[i+1:]...)
			return true
		}
	}
	for i, x := range q.granted {
		if x == g {
			q.granted = append(q.granted[:i], q.granted[i+1:]...)
			return true
		}
	}
	return false
}

func (q *WaitQ) clone() WaitQ {
	return WaitQ{q: append([]Sudog(nil), q.q...), granted: append([]GID(nil), q.granted...)}
}

// check counts every goroutine of the queue as being at l. A library
// that queues a goroutine under its own lock and parks it after
// unlocking (package pool, x/sync, sync's semaphores) has it in line and
// still running for a moment: lib accepts that.
func (q *WaitQ) check(c *checker, l Loc, where string, lib bool) {
	for _, w := range q.q {
		if w.sel != 0 {
			c.selectSudog(w, l, where)
			continue
		}
		if lib {
			c.queued(w.G, l, where)
		} else {
			c.place(w.G, l, where)
		}
	}
	for _, g := range q.granted {
		c.place(g, l, where+" (granted, not yet readied)")
	}
}

// queuesAt returns the queues of the object at place l, where g, parked
// there, is listed (nil for a place with no queue: a timer, the poller).
// An errgroup's Wait is found by its owner, the one goroutine that waits
// in it.
func (s *Machine) queuesAt(l Loc, g GID) (a, b *WaitQ) {
	if wp := placeOf(l.Kind); wp != nil {
		return wp.queue(s, l.ID), nil
	}
	switch l.Kind {
	case LocChanRecv:
		return &s.chans[l.ID].RecvQ, nil
	case LocChanSend:
		return &s.chans[l.ID].SendQ, nil
	case LocSem:
		sm := &s.sems[l.ID]
		return &sm.Waiters, &sm.Stuck
	case LocPoolWait:
		return &s.pools[l.ID].Waiters, nil
	case LocGroupWait:
		if gr := s.groupOf(g); gr != nil {
			return &gr.wait, nil
		}
	}
	return nil, nil
}

// unqueue takes g out of the queue it waits in at place l, if l has one.
func (s *Machine) unqueue(g GID, l Loc) {
	a, b := s.queuesAt(l, g)
	if a != nil && !a.detach(g) && b != nil {
		b.detach(g)
	}
}

// waitsOn appends what a goroutine parked at l waits on, after a verb:
// "receiving from channel jobs". The describer's park sentences ("G3
// blocks …") and checkdead's deadlock report ("G3 is blocked …") both
// read it, so the two cannot word one wait two ways. A select's wait is
// worded by waitsOnSelect, which needs the select's cases.
func (d *Describer) waitsOn(b []byte, l Loc) []byte {
	if wp := placeOf(l.Kind); wp != nil {
		if r := wp.reason(d, l.ID); r != NoReason {
			return appendf(b, "in %v on %s", r, d.place(l))
		}
		return appendf(b, "in %s", d.place(l))
	}
	switch l.Kind {
	case LocChanRecv:
		return appendf(b, "receiving from %s", d.place(l))
	case LocChanSend:
		return appendf(b, "sending to %s", d.place(l))
	case LocGroupWait:
		return append(b, "in errgroup.Wait"...)
	}
	return appendf(b, "in %s", d.place(l))
}
