package gmp

import (
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// sync.Mutex as Go 1.26 builds it (internal/sync/mutex.go) on the
// runtime's semaphores (runtime/sema.go).
//
// Lock's fast path is one CAS that takes a mutex nobody holds, waits for
// or is woken for. Otherwise lockSlow loops. While the mutex is held in
// normal mode and runtime_canSpin allows it (proc.go: more than one CPU,
// GOMAXPROCS above idle Ps plus spinning Ms plus one, the P's run queue
// empty, fewer than active_spin = 4 rounds since the goroutine arrived or
// woke), the goroutine spins a round (runtime_doSpin: procyield(30),
// Costs.Spin), first setting mutexWoken if it can, so that Unlock wakes
// nobody while it is about to take the lock. Then one CAS decides: a free
// mutex in normal mode is taken; otherwise the goroutine counts itself a
// waiter and parks on the semaphore (runtime_SemacquireMutex), at the
// tail the first time and at the head (lifo) after it has been woken and
// lost.
//
// Unlock clears mutexLocked. In normal mode, if someone waits and nobody
// is woken already, unlockSlow wakes the first waiter (Semrelease without
// handoff): readied into the unlocker's runnext, it must win the mutex
// against goroutines that arrive running, and a running goroutine usually
// gets there first, the unlocker itself above all. A waiter that has
// waited over 1ms (starvationThresholdNs) and loses again switches the
// mutex to starvation mode: Unlock then hands the mutex to the first
// waiter (Semrelease with handoff) and yields its P (semrelease1's
// goyield) so the waiter runs at once; arrivals neither spin nor take it,
// they queue at the tail. The waiter handed the mutex ends starvation
// mode if it waited under 1ms or nobody waits behind it.
//
// The model keeps the state word's four parts as fields, and the locals
// of lockSlow (iter, awoke, starving, waitStartTime) for each goroutine
// inside it, so a goroutine that spins or parks carries on where it left:
// its Lock action runs again after a spin or a wake-up (unreadOp), and
// lock finds its record. The CAS's retries under contention cost nothing
// here: each decision happens at one instant.

// starvationThreshold is internal/sync's starvationThresholdNs.
const starvationThreshold = time.Millisecond

// activeSpin is proc.go's active_spin: the most rounds runtime_canSpin
// allows.
const activeSpin = 4

// Mutex is a simulated sync.Mutex; for a declared RWMutex, rw.w (its
// writer lock) and the reader counts beside it (rwmutex.go).
type Mutex struct {
	Decl MutexDecl
	// The state word of internal/sync's Mutex, spelled out.
	Locked   bool // mutexLocked
	Woken    bool // mutexWoken: a woken or spinning goroutine is on its way, so Unlock wakes nobody
	Starving bool // mutexStarving
	Waiters  int  // the count above mutexWaiterShift: goroutines queued, or handed the mutex and not yet back
	// Holder is the goroutine that locked it. sync.Mutex does not record
	// it (any goroutine may unlock); the model does, to show it.
	Holder GID
	// Sema is the mutex's semaphore queue (the semaRoot of m.sema).
	Sema WaitQ
	// slow are the goroutines inside lockSlow: spinning, parked, or woken
	// and not yet back in it.
	slow []lockSlow
	// last is the goroutine that took the mutex last.
	last GID

	// An RWMutex's reader side (sync/rwmutex.go); zero for a Mutex.
	ReaderCount int   // readerCount: readers in or queued, less rwmutexMaxReaders while a writer holds or waits
	ReaderWait  int   // readerWait: the readers a waiting writer still waits for
	ReaderSem   WaitQ // readers parked in RLock behind a writer (readerSem)
	WriterSem   WaitQ // the writer parked in Lock until the readers inside leave (writerSem)

	Stats MutexStats
}

// MutexStats count what a mutex did.
type MutexStats struct {
	// Acquired counts Locks that took the mutex; Retaken those by the
	// goroutine that had taken it last.
	Acquired, Retaken int
	Spins             int // rounds spun
	Queued            int // times a goroutine parked on it
	Handoffs          int // Unlocks that handed it to a waiter
	Starved           int // times it entered starvation mode
}

// slowState is where a goroutine inside lockSlow is.
type slowState uint8

const (
	slowSpinning slowState = iota + 1 // between two rounds of spinning
	slowQueued                        // parked on the semaphore
	slowWoken                         // readied by an Unlock, not yet running again
)

// lockSlow is one goroutine's locals of internal/sync's lockSlow.
type lockSlow struct {
	g        GID
	state    slowState
	iter     int  // rounds spun since it arrived or woke
	spun     int  // rounds spun in all
	awoke    bool // it owns mutexWoken
	starving bool
	queued   bool     // it has queued once: since holds waitStartTime
	handoff  bool     // woken by a handoff: the mutex is its
	since    sim.Time // waitStartTime
}

// Spinning lists the goroutines spinning on the mutex now.
func (mu *Mutex) Spinning() []GID {
	var out []GID
	for _, r := range mu.slow {
		if r.state == slowSpinning {
			out = append(out, r.g)
		}
	}
	return out
}

// Readers is how many readers are inside an RWMutex.
func (mu *Mutex) Readers() int {
	if mu.ReaderCount >= 0 {
		return mu.ReaderCount
	}
	return mu.ReaderWait
}

// WriterWaiting says a writer holds rw.w and waits for readers to leave.
func (mu *Mutex) WriterWaiting() bool { return mu.WriterSem.Len() > 0 }

func (mu *Mutex) clone() Mutex {
	c := *mu
	c.Sema = mu.Sema.clone()
	c.ReaderSem = mu.ReaderSem.clone()
	c.WriterSem = mu.WriterSem.clone()
	c.slow = append([]lockSlow(nil), mu.slow...)
	return c
}

// slowOf returns the index of g's lockSlow record, or -1.
func (mu *Mutex) slowOf(g GID) int {
	for i := range mu.slow {
		if mu.slow[i].g == g {
			return i
		}
	}
	return -1
}

// take gives the mutex to g.
func (mu *Mutex) take(g GID) {
	mu.Locked = true
	mu.Holder = g
	mu.Stats.Acquired++
	if g == mu.last {
		mu.Stats.Retaken++
	}
	mu.last = g
}

// lock is Lock: sync.Mutex.Lock, or the rw.w.Lock that RWMutex.Lock
// begins with. A goroutine inside lockSlow comes back here after each
// round of spinning and after each wake-up.
func (s *Machine) lock(m *M, g *G, op *Op) {
	mu := &s.mutexes[op.Mutex]
	i := mu.slowOf(g.ID)
	if i < 0 {
		if !mu.Locked && !mu.Woken && !mu.Starving && mu.Waiters == 0 {
			s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexLock, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.Mutex), Op: op})
			mu.take(g.ID)
			s.locked(m, g, op)
			return
		}
		mu.slow = append(mu.slow, lockSlow{g: g.ID})
		i = len(mu.slow) - 1
	}
	r := &mu.slow[i]
	if r.state == slowWoken {
		// runtime_SemacquireMutex returns.
		if !s.cfg.Policy.NoStarvation && s.now.Sub(r.since) > starvationThreshold {
			r.starving = true
		}
		if r.handoff {
			// The unlocker handed the mutex over in starvation mode: it
			// is this goroutine's, and it leaves the mode if it did not
			// wait long or is the last waiter.
			ends := !r.starving || mu.Waiters == 1
			s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexHandedOff, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.Mutex),
				N2: mu.Waiters - 1, D: s.now.Sub(r.since), Flag: ends, Op: op})
			mu.Waiters--
			if ends {
				mu.Starving = false
			}
			mu.slow = append(mu.slow[:i], mu.slow[i+1:]...)
			mu.take(g.ID)
			s.locked(m, g, op)
			return
		}
		r.iter = 0
	}
	s.lockSlow(m, g, op, mu, i)
}

// lockSlow is one pass of internal/sync's lockSlow loop for the goroutine
// whose record is mu.slow[i]: a round of spinning, or the CAS that takes
// the mutex or queues the goroutine.
func (s *Machine) lockSlow(m *M, g *G, op *Op, mu *Mutex, i int) {
	r := &mu.slow[i]
	obj := int32(op.Mutex)
	if mu.Locked && !mu.Starving && s.canSpin(m, r.iter) {
		// Set mutexWoken if nobody has, so that Unlock wakes no one
		// while this goroutine is about to take the mutex.
		sets := !r.awoke && !mu.Woken && mu.Waiters > 0
		s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexSpin, G: g.ID, P: m.P, M: m.ID, Obj: obj,
			N: r.iter + 1, G2: mu.Holder, Flag: sets, Op: op})
		if sets {
			mu.Woken, r.awoke = true, true
		}
		r.state = slowSpinning
		r.iter++
		r.spun++
		mu.Stats.Spins++
		s.unreadOp(g, op)
		spin := s.cfg.Costs.Spin
		s.continueAfter(m, s.late(spin, spin/cpuStretch))
		return
	}
	if !mu.Locked && !mu.Starving {
		var waited time.Duration
		if r.queued {
			waited = s.now.Sub(r.since)
		}
		s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexAcquire, G: g.ID, P: m.P, M: m.ID, Obj: obj,
			N: r.spun, D: waited, Flag: r.queued, Op: op})
		if r.awoke {
			mu.Woken = false
		}
		mu.slow = append(mu.slow[:i], mu.slow[i+1:]...)
		mu.take(g.ID)
		s.locked(m, g, op)
		return
	}
	// Held, or handed to a waiter in starvation mode: queue. One CAS
	// both counts the waiter and, for one that has starved, sets
	// mutexStarving, so both events come before either change.
	starve := r.starving && mu.Locked && !mu.Starving
	if starve {
		s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexStarve, G: g.ID, P: m.P, M: m.ID, Obj: obj,
			G2: mu.Holder, D: s.now.Sub(r.since), Op: op})
	}
	lifo := r.queued
	pos := mu.Sema.Len() + 1
	var waited time.Duration
	if lifo {
		pos, waited = 1, s.now.Sub(r.since)
	}
	s.emit(&Event{Kind: KindMutexLock, Rule: RuleMutexQueue, G: g.ID, P: m.P, M: m.ID, Obj: obj,
		N: pos, N2: mu.Waiters + 1, G2: mu.Holder, Flag: lifo, D: waited, Op: op})
	if starve {
		mu.Starving = true
		mu.Stats.Starved++
	}
	if r.awoke {
		mu.Woken, r.awoke = false, false
	}
	if !r.queued {
		r.queued, r.since = true, s.now
	}
	mu.Waiters++
	mu.Stats.Queued++
	r.state = slowQueued
	w := Sudog{G: g.ID, Since: r.since}
	if lifo {
		mu.Sema.pushFront(w)
	} else {
		mu.Sema.push(w)
	}
	s.gopark(m, g, ReasonMutexLock, Loc{Kind: LocMutex, ID: obj}, 0, pos)
	s.unreadOp(g, op) // it runs Lock again when woken
	s.enterScheduler(m)
}

// canSpin is runtime_canSpin (proc.go sync_runtime_canSpin): spin only a
// few rounds, only with another P running to release the mutex, and only
// while nothing waits in this P's run queue. The runtime also wants more
// than one CPU; the model's Ps stand for CPUs, so more than one P implies
// it.
func (s *Machine) canSpin(m *M, iter int) bool {
	if s.cfg.Policy.NoSpin || iter >= activeSpin || len(s.ps) <= s.sched.Npidle+s.sched.Nmspinning+1 {
		return false
	}
	pp := s.p(m.P)
	return pp.Runnext == NoG && pp.runq.len() == 0
}

// unlock is Unlock: sync.Mutex.Unlock, or RWMutex.Unlock (rwmutex.go).
func (s *Machine) unlock(m *M, g *G, op *Op) {
	mu := &s.mutexes[op.Mutex]
	if mu.Decl.RW {
		s.rwUnlock(m, g, op, mu)
		return
	}
	if !mu.Locked {
		s.fatal(g, "sync: unlock of unlocked mutex")
		return
	}
	s.mutexUnlock(m, g, op, mu)
}

// mutexUnlock is sync.Mutex.Unlock and unlockSlow, of a locked mutex.
func (s *Machine) mutexUnlock(m *M, g *G, op *Op, mu *Mutex) {
	pp := s.p(m.P)
	obj := int32(op.Mutex)
	ev := Event{Kind: KindMutexUnlock, G: g.ID, P: pp.ID, M: m.ID, Obj: obj, Op: op}
	if !mu.Starving && (mu.Waiters == 0 || mu.Woken) {
		ev.Rule, ev.N2, ev.Flag = RuleMutexUnlock, mu.Waiters, mu.Woken
		s.emit(&ev)
		mu.Locked, mu.Holder = false, NoG
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	handoff := mu.Starving
	if handoff {
		ev.Rule, ev.N2 = RuleMutexHandoff, mu.Waiters
	} else {
		ev.Rule, ev.N2 = RuleMutexWake, mu.Waiters-1
	}
	s.emit(&ev)
	mu.Locked, mu.Holder = false, NoG
	if !handoff {
		mu.Waiters--
		mu.Woken = true
	}
	// semrelease1: dequeue the first waiter and ready it. Its lockSlow
	// record says woken from here on: granted, then readied.
	w := mu.Sema.grant()
	r := &mu.slow[mu.slowOf(w.G)]
	r.state, r.handoff, r.awoke = slowWoken, handoff, !handoff
	s.ready(m, pp, s.g(w.G), Event{Rule: RuleReadyMutex, G2: g.ID, Obj: obj, D: s.now.Sub(w.Since), Flag: handoff})
	if !handoff {
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	mu.Stats.Handoffs++
	if s.leaveAfterWakeCalls(m, stepGoyield) {
		return
	}
	s.goyield(m, g)
}

// goyield is semrelease1's yield after a handoff (proc.go goyield): the
// releaser goes to the tail of its P's ring and the P schedules, finding
// the waiter it just readied in runnext. It is Gosched's sibling (the
// reason says so; runtime/trace records it as a preemption), but keeps
// the goroutine on its own P.
func (s *Machine) goyield(m *M, g *G) {
	pp := s.p(m.P)
	to := at(LocRunq, pp.ID)
	if s.cfg.Policy.GlobalFIFO {
		to = Loc{Kind: LocGlobal}
	}
	s.emit(&Event{Kind: KindGoStop, Rule: RuleGoyield, G: g.ID, P: pp.ID, M: m.ID, From: at(LocRunning, pp.ID),
		To: to, Reason: ReasonGosched, D: s.now.Sub(g.RunStart), D2: s.now.Sub(pp.SliceStart),
		N: pp.runq.len() + 1, Op: s.OpOf(g)})
	g.Status = Grunnable
	g.Runnable = s.now
	g.M = NoM
	g.inCPU = false
	s.dropg(m)
	if to.Kind == LocGlobal {
		s.globrunqput(g.ID)
	} else {
		s.runqput(pp, g.ID, false)
	}
	s.enterScheduler(m)
}

// locked goes on once Lock has the mutex: a Mutex's Lock returns, an
// RWMutex's goes on to shut the readers out.
func (s *Machine) locked(m *M, g *G, op *Op) {
	if s.mutexes[op.Mutex].Decl.RW {
		s.rwLockReaders(m, g, op)
		return
	}
	s.continueAfter(m, s.cfg.Costs.ChanOp)
}

// mutexPlace is a goroutine parked in Lock on a mutex's semaphore (an
// RWMutex's writer lock too).
var mutexPlace = waitPlace{
	loc: func(d *Describer, b []byte, id int32) []byte {
		if d.isRW(int(id)) {
			return append(d.mutexName(int(id)).appendTo(append(b, "rwmutex:"...)), ".w"...)
		}
		return d.mutexName(int(id)).appendTo(append(b, "mutex:"...))
	},
	words: func(d *Describer, b []byte, id int32) []byte {
		if d.isRW(int(id)) {
			return appendf(b, "the writer lock of rwmutex %s", d.mutexName(int(id)))
		}
		return appendf(b, "mutex %s", d.mutexName(int(id)))
	},
	reason: func(*Describer, int32) Reason { return ReasonMutexLock },
	queue:  func(s *Machine, id int32) *WaitQ { return &s.mutexes[id].Sema },
	state: func(s *Machine, b []byte, id int32) []byte {
		mu := &s.mutexes[id]
		b = appendf(b, "held by %s, %d waiting", holder(mu.Holder), mu.Sema.Len())
		if mu.Starving {
			b = append(b, ", starvation mode"...)
		}
		return b
	},
	parked: inLine,
}

// inLine is the park sentence's place in a semaphore's line.
func inLine(_ *Describer, b []byte, e *Event) []byte {
	return appendf(b, " (#%d in line)", e.WaitArg())
}

// mutex checks a mutex's books: its queue against the goroutines parked
// on it, the waiter count against the queue, the woken flag against its
// owner, and each goroutine inside lockSlow against where it is.
func (c *checker) mutex(i int) {
	s := c.s
	mu := &s.mutexes[i]
	where := "mutex " + mu.Decl.Name
	mu.Sema.check(c, Loc{Kind: LocMutex, ID: int32(i)}, where, true)
	if mu.Locked != (mu.Holder != NoG) {
		c.bad("%s: locked %v but held by %v", where, mu.Locked, mu.Holder)
	}
	handedOff, awoke := 0, 0
	for _, r := range mu.slow {
		g := s.gs.current(r.g)
		if g == nil || g.Status == Gdead {
			c.bad("%s: %v is in lockSlow but gone", where, r.g)
			continue
		}
		// Between the decision and the park (or the ready) the
		// goroutine is in line but still running (or granted but still
		// parked), as with sync's own semaphores (checker.queued).
		switch r.state {
		case slowQueued:
			if g.Where != (Loc{Kind: LocMutex, ID: int32(i)}) && g.Status != Grunning {
				c.bad("%s: %v is queued on it but %+v", where, r.g, g.Where)
			}
		case slowWoken:
			if g.Status != Grunnable && g.Status != Grunning && !slices.Contains(mu.Sema.Granted(), r.g) {
				c.bad("%s: %v was woken but is %v", where, r.g, g.Status)
			}
		case slowSpinning:
			if g.Status != Grunnable && g.Status != Grunning {
				c.bad("%s: %v spins but is %v", where, r.g, g.Status)
			}
		}
		if r.state == slowWoken && r.handoff {
			handedOff++
		}
		if r.awoke {
			awoke++
		}
	}
	for _, w := range mu.Sema.All() {
		if j := mu.slowOf(w.G); j < 0 || mu.slow[j].state != slowQueued {
			c.bad("%s: %v is on its semaphore but not queued in lockSlow", where, w.G)
		}
	}
	if mu.Waiters != mu.Sema.Len()+handedOff {
		c.bad("%s: the state counts %d waiters, but %d are queued and %d handed the mutex", where, mu.Waiters, mu.Sema.Len(), handedOff)
	}
	if awoke != boolInt(mu.Woken) {
		c.bad("%s: mutexWoken is %v but %d goroutines own it", where, mu.Woken, awoke)
	}
	if mu.Starving && mu.Waiters == 0 {
		c.bad("%s: starving with nobody waiting", where)
	}
	if mu.Decl.RW {
		c.rwmutex(i)
	}
}
