// Package decide is the decision chain of package pool as pure functions
// of a pool's counts: what a submit does, what a worker does after a task,
// how many idle workers the purge stops, when the next purge is due.
//
// Package pool calls these functions under its lock, and the model of a
// pool in package gmp calls them on its simulated pool, so the model's
// decisions are the real pool's code rather than a copy kept equal by a
// test. What each caller does once a decision is made (channels and
// goroutines, or simulated ones) stays with it. The package imports
// nothing, so the model stays pure, and schedlab real copies it beside
// package pool into the programs it generates.
package decide

// Counts is what a decision reads of a pool's state.
type Counts struct {
	Idle    int // workers parked, waiting for a task
	Running int // workers started and not told to stop
	// Capacity is the most workers that may run at once; negative for an
	// unlimited pool.
	Capacity int
	Waiting  int // submitters waiting for a worker
	Queued   int // accepted tasks in the queue, waiting for a worker
}

// Limits are the options that turn a wait into a rejection.
type Limits struct {
	Nonblocking bool // never wait: reject when there is no worker
	MaxBlocking int  // reject when this many already wait; 0 for no limit
	// Queue is how many accepted tasks may wait for a worker in the
	// pool's queue, which the workers drain before they park; 0 for no
	// queue, when a submitter with no worker waits itself.
	Queue int
}

// HasRoom reports whether a worker may be started.
func (c Counts) HasRoom() bool { return c.Capacity < 0 || c.Running < c.Capacity }

// Shrinking reports whether a Tune has left more workers than the capacity
// allows: a worker that finishes a task then stops instead of going idle.
func (c Counts) Shrinking() bool { return c.Capacity >= 0 && c.Running > c.Capacity }

// Submit is what a submit does.
type Submit uint8

const (
	// ToIdle hands the task to the idle worker the idle list gives next
	// (the most recently idle one; the oldest under PreAlloc).
	ToIdle Submit = iota
	// NewWorker starts a worker for the task.
	NewWorker
	// Reject refuses the task: the pool is nonblocking, or MaxBlocking
	// submitters already wait.
	Reject
	// Wait queues the submitter, first come first served, until a worker
	// finishing a task (or a stop making room) serves it.
	Wait
	// Enqueue accepts the task into the pool's queue: the submitter
	// returns at once, and the first worker to finish a task runs it.
	Enqueue
)

var submitNames = [...]string{ToIdle: "to an idle worker", NewWorker: "to a new worker", Reject: "rejected", Wait: "wait",
	Enqueue: "to the queue"}

func (s Submit) String() string { return submitNames[s] }

// OnSubmit decides a submit to an open pool: an idle worker first, then a
// new one while there is room, then the queue while it has room and
// nobody waits (a submitter never overtakes one in the line), then a
// rejection or a place in the line. No task is queued while a worker is
// idle, or idles while a task is queued: a worker goes idle only when the
// queue is empty.
func OnSubmit(c Counts, l Limits) Submit {
	switch {
	case c.Idle > 0:
		return ToIdle
	case c.HasRoom():
		return NewWorker
	case c.Queued < l.Queue && c.Waiting == 0:
		return Enqueue
	case l.Nonblocking || (l.MaxBlocking > 0 && c.Waiting >= l.MaxBlocking):
		return Reject
	}
	return Wait
}

// After is what a worker does when its task is done.
type After uint8

const (
	// StopReleased: the pool was released since the worker started.
	StopReleased After = iota
	// StopShrunk: the pool has more workers than its capacity.
	StopShrunk
	// Handoff: the worker takes the first waiter's task and runs it.
	Handoff
	// GoIdle: the worker goes on the idle list, stamped with the time.
	GoIdle
	// TakeQueued: the worker takes the oldest queued task and runs it,
	// without parking.
	TakeQueued
)

var afterNames = [...]string{StopReleased: "stop (released)", StopShrunk: "stop (shrunk)", Handoff: "serve the first waiter", GoIdle: "go idle",
	TakeQueued: "take the oldest queued task"}

func (a After) String() string { return afterNames[a] }

// AfterTask decides what a worker does after a task. released says the
// pool was released (and perhaps rebooted) since the worker started.
// Stopping comes before serving a waiter, so a shrinking pool shrinks even
// under load; a worker stopping makes room, and the caller then serves
// the queue and the waiters with new workers (ServeQueued, ServeWaiter).
// A queued task was accepted, so even a released pool's worker runs it
// before stopping; only a shrinking pool's stops, leaving the queue to
// the others (there are Capacity of them).
func AfterTask(c Counts, released bool) After {
	switch {
	case c.Queued > 0 && !c.Shrinking():
		return TakeQueued
	case released:
		return StopReleased
	case c.Shrinking():
		return StopShrunk
	case c.Waiting > 0:
		return Handoff
	}
	return GoIdle
}

// ServeWaiter reports whether the first waiter gets a new worker now:
// room appeared without a worker finishing a task (a worker stopped, or
// Tune grew the capacity). The caller asks again after each one it serves.
// The queue comes first (ServeQueued): its tasks were accepted before
// anyone in the line.
func ServeWaiter(c Counts) bool { return c.Queued == 0 && c.Waiting > 0 && c.HasRoom() }

// ServeQueued reports whether the oldest queued task gets a new worker
// now, when room appears as for ServeWaiter. The caller asks again after
// each one it serves, and refills the queue (Refill) after each.
func ServeQueued(c Counts) bool { return c.Queued > 0 && c.HasRoom() }

// Refill says how many waiters, first come first served, move their tasks
// into the queue now that a task has left it: none until the queue is down
// to half its length, then as many as fit. Each is woken to return nil.
// Waking the line in batches rather than one waiter per task is the point
// of the queue: a lone submitter that fills it is woken once per half a
// queue, not once per task.
func Refill(c Counts, l Limits) int {
	if c.Waiting == 0 || 2*c.Queued > l.Queue {
		return 0
	}
	return min(c.Waiting, l.Queue-c.Queued)
}

// ArmPurge reports whether a worker going idle arms the purge: the purge
// is enabled and its one timer is not already pending.
func ArmPurge(enabled, armed bool) bool { return enabled && !armed }

// Expired counts the idle workers the purge stops at cutoff (now minus the
// expiry): those that went idle at or before it. The idle list is ordered
// by the time each went idle, oldest first, and lastUsed(i) reads the i-th,
// so they are a prefix, found by binary search.
func Expired(n int, lastUsed func(i int) int64, cutoff int64) int {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if lastUsed(mid) <= cutoff {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// CoarsePeriod is how often, in nanoseconds, a coarse clock moves: ants
// stamps a worker going idle with a time that a goroutine of its own
// refreshes every 500ms, not with the time.
const CoarsePeriod int64 = 500e6

// Stamp is the time stamp a worker going idle at now is given: now, or
// under a coarse clock the last time that clock moved, counting
// CoarsePeriods from the pool's start at 0. So a worker used a moment
// ago may carry a stamp up to CoarsePeriod old. The clock moves exactly
// on the period: ants' refreshing goroutine is late by however long it
// waits for a processor, which only makes a stamp that much newer.
func Stamp(now int64, coarse bool) int64 {
	if !coarse || now < 0 {
		return now
	}
	return now - now%CoarsePeriod
}

// PurgeDue is when the purge must run for the idle worker stamped
// lastUsed, armed at now: once the worker has been idle for the expiry.
// Under a coarse clock the purge runs on ants' schedule instead, a
// ticker every expiry from the pool's start at 0: the first tick after
// now at which the stamp is expiry old. Its stamp being older than the
// worker's last use, that tick may come a moment after the worker went
// idle, and stop it.
func PurgeDue(lastUsed, now, expiry int64, coarse bool) int64 {
	due := lastUsed + expiry
	if !coarse || expiry <= 0 {
		return due
	}
	// The first tick at or after due, and the first strictly after now:
	// a tick at now itself has passed (it is the one running, if any).
	tick := (due + expiry - 1) / expiry * expiry
	if next := (now/expiry + 1) * expiry; next > tick {
		tick = next
	}
	return tick
}
