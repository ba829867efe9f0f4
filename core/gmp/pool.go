package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/pool/decide"
	"github.com/schedlab/schedlab/core/sim"
)

// Goroutine pools, as package pool builds them, made of simulated
// goroutines. The decisions are package pool's own code, package decide,
// called with the simulated pool's counts (a differential test still
// holds the two pools side by side, for the bookkeeping around them): a
// submitter takes the most recently idle worker (the
// oldest under PreAlloc), else starts one while Running < Cap, else is
// rejected (Nonblocking, MaxBlocking) or waits in a FIFO line; a worker
// that finishes a task serves the first waiter directly, else goes idle,
// stamped with the time (under the coarse clock, with ants' clock that
// moves every 500ms), arming the purge if it is not armed; the purge,
// a timer started with time.AfterFunc, runs in a goroutine of its own,
// stops every worker idle for the expiry or longer and re-arms for the
// oldest of the rest.
//
// The goroutine interactions are the real pool's too: a task handed to an
// idle worker is a send on its one-slot task channel, which readies the
// worker into the submitter's runnext; a new worker is a go statement; a
// waiter parks in a select on its ready channel and the worker that serves
// it readies it into the worker's runnext; the purge closes the expired
// workers' task channels. What the model leaves out: Tune, Release and
// Reboot (no scenario action calls them), panicking tasks, and
// SubmitContext's cancellation.
//
// A pool with a queue (PoolDecl.Queue, pool.WithQueue) follows the same
// decisions with the queue in them: a submitter with no worker puts its
// task in the queue and goes on, while the queue has room and nobody
// waits; a worker that finishes takes the oldest queued task and runs it
// without parking; once the queue is down to half, the first waiters
// move their tasks into it and are readied, all of them after the moves,
// as the real pool signals them once its decision is made.

// WorkerState is what a pool worker is doing.
type WorkerState uint8

const (
	WorkerBusy    WorkerState = iota // running a task
	WorkerIdle                       // on the idle stack, parked on its task channel
	WorkerStopped                    // told to stop, or gone
)

// PoolWorker is a worker of a simulated pool.
type PoolWorker struct {
	// ID numbers workers 1, 2, 3… in start order, as package pool does.
	ID int
	G  GID
	// State, and since when: LastUsed is when it last went idle (the
	// idle stack is ordered by it), BusySince when it took its task.
	State     WorkerState
	LastUsed  sim.Time
	BusySince sim.Time
	// Task numbers the task it runs (1, 2, 3… in acceptance order, the
	// pool's Stats.Submitted when it was accepted); Owner is the goroutine
	// that submitted it, which wait: children waits on.
	Task  int
	Owner GID
}

// PoolQueued is an accepted task in a pool's queue.
type PoolQueued struct {
	Task   int      // numbered as PoolWorker.Task
	Owner  GID      // the goroutine that submitted it
	Waiter int      // the wait it went through first (the waiter's number, Sudog.N), or 0
	Since  sim.Time // when it entered the queue
	body   uint16
}

// PoolStats are a pool's counters, package pool's Stats.
type PoolStats struct {
	Submitted, Completed, Rejected, Blocked      int
	Queued                                       int // tasks that went into the queue
	WorkersStarted, WorkersReused, WorkersPurged int
	PeakRunning                                  int
	Purges                                       int // purge runs
}

// Pool is a simulated goroutine pool.
type Pool struct {
	Decl PoolDecl
	// Cap is the capacity, -1 for an unlimited pool.
	Cap     int
	Running int
	// idle holds indices into Workers, oldest first from idleHead: a
	// stack that pops from the back, or under PreAlloc a ring that pops
	// from the front. The purge removes from the front either way.
	idle     []int32
	idleHead int
	// Waiters are the submitters waiting for a worker, numbered 1, 2, 3…
	// in arrival order (Sudog.N), each carrying its task. A waiter whose
	// task a worker has taken stays in the queue, granted, until the
	// worker readies it (package pool takes a waiter off the line under
	// its lock and signals it after).
	Waiters WaitQ
	// Queued is the queue, oldest first.
	Queued []PoolQueued
	// Workers lists every worker ever started, in start order, so by
	// ascending G: a worker's goroutine finds its record by binary search.
	Workers []PoolWorker
	// The purge timer: armed, and due at PurgeAt.
	PurgeArmed bool
	PurgeAt    sim.Time
	Stats      PoolStats
	lastWaiter int
}

// Idle returns the idle workers in the order package pool's Snapshot
// lists them: the one the next task goes to first.
func (pl *Pool) Idle() []*PoolWorker {
	ids := pl.idle[pl.idleHead:]
	out := make([]*PoolWorker, len(ids))
	for i, w := range ids {
		if pl.Decl.PreAlloc {
			out[i] = &pl.Workers[w]
		} else {
			out[len(ids)-1-i] = &pl.Workers[w]
		}
	}
	return out
}

// IdleLen is the number of idle workers.
func (pl *Pool) IdleLen() int { return len(pl.idle) - pl.idleHead }

func (pl *Pool) expiry() time.Duration {
	if pl.Decl.Expiry > 0 {
		return pl.Decl.Expiry
	}
	return DefaultPoolExpiry
}

// stamp is the last-use stamp of a worker going idle at now: now, or
// under the coarse clock the time that clock last moved. The model keeps
// no such clock: like package pool it computes the value from the time
// (package decide's Stamp), so a pool in the model runs nothing for it.
func (pl *Pool) stamp(now sim.Time) sim.Time {
	return sim.Time(decide.Stamp(int64(now), pl.Decl.CoarseClock))
}

// purgeDue is when the purge is due for the oldest idle worker, stamped
// lastUsed, armed at now: its stamp plus the expiry, or under the coarse
// clock the tick of ants' purge ticker after that.
func (pl *Pool) purgeDue(lastUsed, now sim.Time) sim.Time {
	return sim.Time(decide.PurgeDue(int64(lastUsed), int64(now), int64(pl.expiry()), pl.Decl.CoarseClock))
}

// counts is what package decide's decisions read.
func (pl *Pool) counts() decide.Counts {
	return decide.Counts{Idle: pl.IdleLen(), Running: pl.Running, Capacity: pl.Cap, Waiting: pl.Waiters.Len(), Queued: len(pl.Queued)}
}

func (pl *Pool) limits() decide.Limits {
	return decide.Limits{Nonblocking: pl.Decl.Nonblocking, MaxBlocking: pl.Decl.MaxBlocking, Queue: pl.Decl.Queue}
}

// nextIdle is the worker the next task goes to: the top of the stack, or
// under PreAlloc the oldest.
func (pl *Pool) nextIdle() (int32, bool) {
	if pl.IdleLen() == 0 {
		return 0, false
	}
	if pl.Decl.PreAlloc {
		return pl.idle[pl.idleHead], true
	}
	return pl.idle[len(pl.idle)-1], true
}

// popIdle takes the worker nextIdle names off the idle list, which must
// not be empty.
func (pl *Pool) popIdle() {
	if pl.Decl.PreAlloc {
		pl.idleHead++
		pl.compactIdle()
		return
	}
	pl.idle = pl.idle[:len(pl.idle)-1]
}

// countExpired counts the idle workers that went idle at or before
// cutoff: package decide's Expired over the list, oldest first.
func (pl *Pool) countExpired(cutoff sim.Time) int {
	ids := pl.idle[pl.idleHead:]
	return decide.Expired(len(ids), func(i int) int64 { return int64(pl.Workers[ids[i]].LastUsed) }, int64(cutoff))
}

// removeExpired takes the n oldest idle workers off the list.
func (pl *Pool) removeExpired(n int) []int32 {
	out := append([]int32(nil), pl.idle[pl.idleHead:pl.idleHead+n]...)
	pl.idleHead += n
	pl.compactIdle()
	return out
}

func (pl *Pool) compactIdle() {
	if pl.idleHead > 0 && pl.idleHead*2 >= len(pl.idle) {
		pl.idle = append(pl.idle[:0], pl.idle[pl.idleHead:]...)
		pl.idleHead = 0
	}
}

// serveFirst takes the first waiter off the line; it stays parked,
// granted, until it is readied.
func (pl *Pool) serveFirst() Sudog { return pl.Waiters.grant() }

// workerOf finds the worker record of goroutine g.
func (pl *Pool) workerOf(g GID) *PoolWorker {
	lo, hi := 0, len(pl.Workers)
	for lo < hi {
		mid := (lo + hi) / 2
		if pl.Workers[mid].G < g {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(pl.Workers) && pl.Workers[lo].G == g {
		return &pl.Workers[lo]
	}
	return nil
}

func (pl *Pool) clone() Pool {
	c := *pl
	c.idle = append([]int32(nil), pl.idle...)
	c.Waiters = pl.Waiters.clone()
	c.Queued = append([]PoolQueued(nil), pl.Queued...)
	c.Workers = append([]PoolWorker(nil), pl.Workers...)
	return c
}

func newPool(d PoolDecl) Pool {
	c := d.Size
	if c <= 0 {
		c = -1
	}
	return Pool{Decl: d, Cap: c}
}

// The functions below take package pool's decisions. Each emits its
// event before it changes anything, as every event in the model does, so
// the state when the next event is emitted is the state after this one.

// poolSubmit is one pool.Submit by g (package pool's submit). The task is
// op's body.
func (s *Machine) poolSubmit(m *M, g *G, op *Op) {
	pi := op.Pool
	pl := &s.pools[pi]
	pp := s.p(m.P)
	body := s.childBody[g.op-1]
	switch decide.OnSubmit(pl.counts(), pl.limits()) {
	case decide.ToIdle:
		wi, _ := pl.nextIdle()
		w := &pl.Workers[wi]
		s.emit(&Event{Kind: KindPoolDispatch, Rule: RulePoolDispatchIdle, G: g.ID, G2: w.G, P: pp.ID, M: m.ID,
			N: w.ID, N2: pl.Stats.Submitted + 1, N3: int32(pl.Running), Obj: int32(pi), D: s.now.Sub(w.LastUsed), Op: op})
		pl.popIdle()
		s.poolAccept(pl, w, g.ID, true)
		s.g(w.G).pushFrame(frame{body: body}) // the worker frame is the only one: cannot fail
		// w.tasks <- task: the worker is parked receiving, so the send
		// hands the task over and readies it into this P's runnext.
		s.ready(m, pp, s.g(w.G), Event{Rule: RulePoolReadyIdle, G2: g.ID, N: w.ID, Obj: int32(pi)})
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	case decide.NewWorker:
		s.poolStartWorker(m, pp, pi, g, g.ID, body, Event{Rule: RulePoolDispatchNew, Op: op}, false)
		s.continueAfter(m, s.cfg.Costs.Newproc)
		return
	case decide.Enqueue:
		s.emit(&Event{Kind: KindPoolQueue, Rule: RulePoolEnqueue, G: g.ID, P: pp.ID, M: m.ID,
			N: len(pl.Queued) + 1, N2: pl.Stats.Submitted + 1, N3: int32(pl.Running), Obj: int32(pi), Op: op})
		s.poolEnqueue(pl, g.ID, body, 0)
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	case decide.Reject:
		s.emit(&Event{Kind: KindPoolReject, Rule: RulePoolReject, G: g.ID, P: pp.ID, M: m.ID,
			N: pl.Waiters.Len(), N3: int32(pl.Running), Obj: int32(pi), Flag: pl.Decl.Nonblocking, Op: op})
		pl.Stats.Rejected++
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	seq := pl.lastWaiter + 1
	s.emit(&Event{Kind: KindPoolBlock, Rule: RulePoolBlock, G: g.ID, P: pp.ID, M: m.ID,
		N: seq, N2: pl.Waiters.Len() + 1, N3: int32(pl.Running), Obj: int32(pi), Op: op})
	pl.lastWaiter = seq
	pl.Stats.Blocked++
	pl.Waiters.push(Sudog{G: g.ID, N: seq, Since: s.now, elem: body})
	s.gopark(m, g, ReasonSelect, Loc{Kind: LocPoolWait, ID: int32(pi)}, 0, seq)
	s.enterScheduler(m)
}

// poolAccept records that w takes a task submitted by owner. reused says
// w ran a task before (an idle worker, or a hand-off) rather than being
// started for this one.
func (s *Machine) poolAccept(pl *Pool, w *PoolWorker, owner GID, reused bool) {
	pl.Stats.Submitted++
	if reused {
		pl.Stats.WorkersReused++
	}
	w.State = WorkerBusy
	w.BusySince = s.now
	w.Task = pl.Stats.Submitted
	w.Owner = owner
	if o := s.gs.current(owner); o != nil && o.Status != Gdead {
		o.Children++ // wait: children waits for the task
	}
}

// poolEnqueue accepts a task of owner's into the queue; waiter is the
// wait it went through, or 0.
func (s *Machine) poolEnqueue(pl *Pool, owner GID, body uint16, waiter int) {
	pl.Stats.Submitted++
	pl.Stats.Queued++
	pl.Queued = append(pl.Queued, PoolQueued{Task: pl.Stats.Submitted, Owner: owner, Waiter: waiter, Since: s.now, body: body})
	if o := s.gs.current(owner); o != nil && o.Status != Gdead {
		o.Children++ // wait: children waits for the task
	}
}

// poolTakeQueued takes the oldest queued task off the queue for w.
// reused says w ran a task before (it finished one) rather than being
// started for this one.
func (s *Machine) poolTakeQueued(pl *Pool, w *PoolWorker, reused bool) PoolQueued {
	qt := pl.Queued[0]
	pl.Queued = pl.Queued[1:]
	if reused {
		pl.Stats.WorkersReused++
	}
	w.State = WorkerBusy
	w.BusySince = s.now
	w.Task = qt.Task
	w.Owner = qt.Owner
	return qt
}

// poolRefill lets waiters into the queue after a task left it, as
// decide.Refill says; g, on pp, does it. It returns the waiters moved,
// for poolWakeMoved to ready once the rest of the decision is done.
func (s *Machine) poolRefill(m *M, pp *P, pi int, g *G) []Sudog {
	pl := &s.pools[pi]
	n := decide.Refill(pl.counts(), pl.limits())
	if n == 0 {
		return nil
	}
	moved := make([]Sudog, 0, n)
	for range n {
		wt := *pl.Waiters.first()
		s.emit(&Event{Kind: KindPoolQueue, Rule: RulePoolRefill, G: g.ID, G2: wt.G, P: pp.ID, M: m.ID,
			N: wt.N, N2: pl.Stats.Submitted + 1, N3: int32(len(pl.Queued) + 1), Obj: int32(pi), D: s.now.Sub(wt.Since)})
		pl.serveFirst()
		s.poolEnqueue(pl, wt.G, wt.elem, wt.N)
		moved = append(moved, wt)
	}
	return moved
}

// poolWakeMoved readies the waiters poolRefill moved into the queue:
// worker g (worker number worker) signals each one's ready channel.
func (s *Machine) poolWakeMoved(m *M, pp *P, pi int, g *G, worker int, moved []Sudog) {
	for _, wt := range moved {
		s.ready(m, pp, s.g(wt.G), Event{Rule: RulePoolReadyWaiter, G2: g.ID, N: worker, Obj: int32(pi)})
	}
}

// poolStartWorker starts a worker for a task of owner's (go runWorker):
// a new goroutine, created by g, into pp's runnext, with body as its first
// task. ev carries the dispatch's rule and details.
// served says the task is the first waiter's, which leaves the line.
func (s *Machine) poolStartWorker(m *M, pp *P, pi int, g *G, owner GID, body uint16, ev Event, served bool) {
	pl := &s.pools[pi]
	id := len(pl.Workers) + 1
	// The goroutine is created below; its id is the next one.
	ev.Kind, ev.G, ev.G2, ev.P, ev.M = KindPoolDispatch, g.ID, GID(s.gs.len()), pp.ID, m.ID
	ev.N, ev.N2, ev.N3, ev.Obj = id, pl.Stats.Submitted+1, int32(pl.Running+1), int32(pi)
	s.emit(&ev)
	if served {
		pl.serveFirst()
	}
	s.poolAccept(pl, s.poolAddWorker(pl, ev.G2), owner, false)
	s.poolSpawn(m, pp, pi, g, body, ev.Op)
}

// poolStartQueued starts a worker, created by g, for the oldest queued
// task: room appeared while tasks were queued. The waiters the queue then
// lets in are moved before the go statement and readied after it, as
// package pool moves them in its decision and signals them after.
func (s *Machine) poolStartQueued(m *M, pp *P, pi int, g *G, worker int) {
	pl := &s.pools[pi]
	qt := pl.Queued[0]
	// The goroutine is created below; its id is the next one.
	workerG := GID(s.gs.len())
	s.emit(&Event{Kind: KindPoolDispatch, Rule: RulePoolServeQueued, G: g.ID, G2: workerG, P: pp.ID, M: m.ID,
		N: len(pl.Workers) + 1, N2: qt.Task, N3: int32(pl.Running + 1), Obj: int32(pi), D: s.now.Sub(qt.Since)})
	s.poolTakeQueued(pl, s.poolAddWorker(pl, workerG), false)
	moved := s.poolRefill(m, pp, pi, g)
	s.poolSpawn(m, pp, pi, g, qt.body, nil)
	s.poolWakeMoved(m, pp, pi, g, worker, moved)
}

// poolAddWorker counts a new worker, whose goroutine will be g.
func (s *Machine) poolAddWorker(pl *Pool, g GID) *PoolWorker {
	pl.Running++
	pl.Stats.WorkersStarted++
	pl.Stats.PeakRunning = max(pl.Stats.PeakRunning, pl.Running)
	pl.Workers = append(pl.Workers, PoolWorker{ID: len(pl.Workers) + 1, G: g})
	return &pl.Workers[len(pl.Workers)-1]
}

// poolSpawn is the go statement that starts a worker of pool pi, created
// by g on pp, with body as its first task.
func (s *Machine) poolSpawn(m *M, pp *P, pi int, g *G, body uint16, op *Op) {
	newg, reusedFrom := s.newproc1(pp, g, s.poolBody[pi])
	newg.pushFrame(frame{body: body}) // the first task, at depth 2: cannot fail
	s.emitCreate(m, pp, newg, reusedFrom, Event{Rule: RuleNewproc, G2: g.ID, Op: op})
}

// poolWorkerStep runs when a worker's goroutine reaches the top of its
// loop: its task has returned (finishTask), or it woke from the idle
// stack without a task because the purge stopped it.
func (s *Machine) poolWorkerStep(m *M, g *G, op *Op) {
	pi := op.Pool
	pl := &s.pools[pi]
	w := pl.workerOf(g.ID)
	pp := s.p(m.P)
	if w.State == WorkerStopped {
		// <-w.tasks reported the channel closed: the worker returns.
		// Package pool serves waiters when a worker stops (rule W), but
		// the purge stops only idle workers, and no worker is idle while
		// someone waits, so there is nobody to serve.
		s.goexit(m, g, true)
		return
	}
	// The task's last act (a WaitGroup's Done) comes before the pool's
	// bookkeeping, and so does the futex call of a parked M it woke.
	s.taskDone(m, pp, w.Owner, g.ID)
	if s.leaveAfterWakeCalls(m, stepPoolAfterTask) {
		return
	}
	s.poolAfterTask(m, g, op)
}

// poolAfterTask is a worker's bookkeeping once its task has returned
// (goWorker.run's loop): it takes a queued task, serves the first waiter
// or goes idle.
func (s *Machine) poolAfterTask(m *M, g *G, op *Op) {
	pi := op.Pool
	pl := &s.pools[pi]
	w := pl.workerOf(g.ID)
	pp := s.p(m.P)
	// The model has no Release or Tune, so a worker is never stopped
	// after its task: it takes a queued task, serves the first waiter or
	// goes idle.
	switch decide.AfterTask(pl.counts(), false) {
	case decide.TakeQueued:
		qt := pl.Queued[0]
		s.emit(&Event{Kind: KindPoolDispatch, Rule: RulePoolTakeQueued, G: g.ID, G2: qt.Owner, P: pp.ID, M: m.ID,
			N: w.ID, N2: qt.Task, N3: int32(len(pl.Queued) - 1), Obj: int32(pi), D: s.now.Sub(qt.Since), Op: op})
		pl.Stats.Completed++
		s.poolTakeQueued(pl, w, true)
		g.pushFrame(frame{body: qt.body}) // depth 2: cannot fail
		s.poolWakeMoved(m, pp, pi, g, w.ID, s.poolRefill(m, pp, pi, g))
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	case decide.Handoff:
		// Take the first waiter's task and run it at once.
		wt := *pl.Waiters.first()
		s.emit(&Event{Kind: KindPoolDispatch, Rule: RulePoolHandoff, G: g.ID, G2: wt.G, P: pp.ID, M: m.ID,
			N: w.ID, N2: pl.Stats.Submitted + 1, N3: int32(pl.Running), Obj: int32(pi), D: s.now.Sub(wt.Since), Op: op})
		pl.serveFirst()
		pl.Stats.Completed++
		s.poolAccept(pl, w, wt.G, true)
		g.pushFrame(frame{body: wt.elem}) // depth 2: cannot fail
		s.ready(m, pp, s.g(wt.G), Event{Rule: RulePoolReadyWaiter, G2: g.ID, N: w.ID, Obj: int32(pi)})
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	arm := decide.ArmPurge(true, pl.PurgeArmed)
	s.emit(&Event{Kind: KindPoolIdle, Rule: RulePoolIdle, G: g.ID, P: pp.ID, M: m.ID,
		N: w.ID, N2: pl.IdleLen() + 1, N3: int32(pl.Running), Obj: int32(pi), D: pl.purgeDue(pl.stamp(s.now), s.now).Sub(s.now), Flag: arm, Op: op})
	pl.Stats.Completed++
	w.State = WorkerIdle
	w.LastUsed = pl.stamp(s.now)
	w.Owner = NoG
	pl.idle = append(pl.idle, int32(w.ID-1))
	if arm {
		s.armPurge(pp, pi, pl.purgeDue(w.LastUsed, s.now))
	}
	// for task := range w.tasks: park until a submitter sends a task or
	// the purge closes the channel.
	s.gopark(m, g, ReasonChanRecv, Loc{Kind: LocPoolIdle, ID: int32(pi)}, 0, w.ID)
	s.enterScheduler(m)
}

// armPurge puts the pool's purge timer in pp's heap (the timer was not in
// any heap: it had fired, or was never set).
func (s *Machine) armPurge(pp *P, pi int, when sim.Time) {
	pl := &s.pools[pi]
	pl.PurgeArmed = true
	pl.PurgeAt = when
	s.addTimer(pp, Timer{When: when, Purge: int32(pi + 1)})
}

// firePurgeTimer is the purge timer t of owner's heap firing on runner:
// time.AfterFunc's callback starts a goroutine for the purge (goFunc),
// created like any go statement on the P that runs the timer.
func (s *Machine) firePurgeTimer(m *M, runner, owner *P, t Timer) {
	pi := int(t.Purge - 1)
	newg, reusedFrom := s.newproc1(runner, nil, s.purgeBody[pi])
	s.emitCreate(m, runner, newg, reusedFrom, Event{Rule: RulePurgeTimer, P2: owner.ID,
		D: s.now.Sub(t.When), Obj: int32(pi)})
	// The timer leaves the heap after the event, like every change.
	owner.timers.pop()
	s.ntimers--
	s.noteTimers(owner)
}

// poolPurge is the purge goroutine's work (purgeExpired): it stops every
// worker idle for the expiry or longer, re-arms for the oldest of the
// rest, and closes the stopped workers' task channels.
func (s *Machine) poolPurge(m *M, g *G, op *Op) {
	pi := op.Pool
	pl := &s.pools[pi]
	pp := s.p(m.P)
	n := pl.countExpired(s.now.Add(-pl.expiry()))
	ev := Event{Kind: KindPoolPurge, Rule: RulePoolPurge, G: g.ID, P: pp.ID, M: m.ID,
		N: n, N2: pl.IdleLen() - n, N3: int32(pl.Running - n), Obj: int32(pi), Op: op}
	var next sim.Time
	if n < pl.IdleLen() {
		next = pl.purgeDue(pl.Workers[pl.idle[pl.idleHead+n]].LastUsed, s.now)
		ev.D, ev.Flag = next.Sub(s.now), true
	}
	if n > 0 {
		ev.D2 = s.now.Sub(pl.Workers[pl.idle[pl.idleHead]].LastUsed)
	}
	s.emit(&ev)
	pl.PurgeArmed = false
	pl.Stats.Purges++
	expired := pl.removeExpired(n)
	for _, wi := range expired {
		pl.Workers[wi].State = WorkerStopped
	}
	pl.Running -= n
	pl.Stats.WorkersPurged += n
	if next != 0 {
		s.armPurge(pp, pi, next)
	}
	for _, wi := range expired {
		w := &pl.Workers[wi]
		// close(w.tasks): the worker, parked receiving, wakes into this
		// P's runnext and returns.
		s.ready(m, pp, s.g(w.G), Event{Rule: RulePoolReadyStop, G2: g.ID, N: w.ID, Obj: int32(pi),
			D: s.now.Sub(w.LastUsed)})
	}
	s.goexit(m, g, true)
}

// poolWorkerLost is a task calling runtime.Goexit in a worker: the
// worker's deferred bookkeeping stops it and, as after any stop, starts
// workers for waiters while there is room (package pool's workerLost).
func (s *Machine) poolWorkerLost(m *M, g *G, pi int) {
	pl := &s.pools[pi]
	w := pl.workerOf(g.ID)
	pp := s.p(m.P)
	s.taskDone(m, pp, w.Owner, g.ID)
	s.emit(&Event{Kind: KindPoolExit, Rule: RulePoolWorkerLost, G: g.ID, P: pp.ID, M: m.ID,
		N: w.ID, N3: int32(pl.Running - 1), Obj: int32(pi)})
	pl.Stats.Completed++
	w.State = WorkerStopped
	pl.Running--
	for decide.ServeQueued(pl.counts()) {
		s.poolStartQueued(m, pp, pi, g, w.ID)
	}
	for decide.ServeWaiter(pl.counts()) {
		wt := *pl.Waiters.first()
		s.poolStartWorker(m, pp, pi, g, wt.G, wt.elem, Event{Rule: RulePoolServeWaiter, G3: wt.G, D: s.now.Sub(wt.Since)}, true)
		s.ready(m, pp, s.g(wt.G), Event{Rule: RulePoolReadyWaiter, G2: g.ID, N: len(pl.Workers), Obj: int32(pi)})
	}
}

// isPoolWorker says which pool g works for, if it is a pool worker. A
// worker's bottom frame is its loop, which it leaves only by exiting.
func (s *Machine) isPoolWorker(g *G) (int, bool) {
	if g.depth == 0 {
		return 0, false
	}
	return s.poolOfBody(g.frames[0].body)
}

func (s *Machine) poolOfBody(body uint16) (int, bool) {
	for pi, b := range s.poolBody {
		if b == body {
			return pi, true
		}
	}
	return 0, false
}
