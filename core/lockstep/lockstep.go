// Package lockstep drives real pools from package pool in lockstep with a
// simulated run: every pool decision the simulation takes (a task
// submitted, a worker finishing, a purge) is made again by a real
// pool.Pool on a fake clock set to the simulated time, and the two must
// agree — which worker takes which task, when a worker is started, who
// waits, what a purge removes, and the whole state after each step.
//
// The model decides with the pool's own functions (package core/pool/decide);
// this is the check of everything around them — the bookkeeping, the
// order of hooks, the purge's timing. The differential test feeds every
// built-in pool scenario through it.
//
// Each simulated task is a real task that waits on a gate; the driver
// opens the gate when the simulated task ends, then waits, through the
// pool's hooks, for the real worker's decision. Each real pool has a
// clock of its own, so that one pool's purge cannot fire while the
// driver catches up with another.
package lockstep

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
	"github.com/schedlab/schedlab/core/sim"
)

// Epoch is the real time that simulated time 0 maps to. Any fixed time
// does; this one reads well in snapshots.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// hookTimeout bounds a wait for a real pool's decision. The decisions
// take microseconds; a pool that has not decided in this time disagrees
// with the simulation (it is waiting for something the model did not).
// The tests run the driver in a synctest bubble, where this time passes
// only once every goroutine in the bubble is blocked, so a slow machine
// cannot make it fire.
const hookTimeout = 5 * time.Second

// Driver mirrors the pools of one simulated run. Feed it every event of
// the run, in order, with Event; it is not safe for concurrent use.
type Driver struct {
	pools []*mirror
	err   error
	// pending is set after a pool event: the real snapshot to hold
	// against the simulation's state when the next event arrives, which
	// is the state after this one.
	pending  bool
	lastSeen int // index of the last event fed
}

// New builds real pools for the pools prog declares.
func New(prog *gmp.Program) (*Driver, error) {
	d := &Driver{lastSeen: -1}
	for i, decl := range prog.Pools {
		mp, err := newMirror(i, decl)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("pool %s: %w", decl.Name, err)
		}
		d.pools = append(d.pools, mp)
	}
	return d, nil
}

// Pools is the number of pools mirrored.
func (d *Driver) Pools() int { return len(d.pools) }

// Err returns the first disagreement between the simulation and the real
// pools, or nil. After one, the driver stops acting.
func (d *Driver) Err() error { return d.err }

// Snapshot returns real pool i's state after the last event fed.
func (d *Driver) Snapshot(i int) pool.Snapshot { return d.pools[i].snap }

// Event takes the simulation's next event; m is the simulation, in the
// state it is in when it emits e (the state after the previous event).
// It returns the first disagreement found so far.
func (d *Driver) Event(m *gmp.Machine, e gmp.Event) error {
	if d.err != nil || len(d.pools) == 0 {
		return d.err
	}
	d.lastSeen++
	// A worker's exit and the waiters it lets the pool serve are one
	// decision of the real pool and several events of the model: hold
	// the states against each other after the last of them.
	// So are a worker's taking a queued task and the waiters it then lets
	// into the queue.
	serving := e.Rule == gmp.RulePoolServeWaiter || e.Rule == gmp.RulePoolServeQueued || e.Rule == gmp.RulePoolRefill
	if d.pending && !serving {
		d.pending = false
		for i, mp := range d.pools {
			if err := compareState(&m.Pools()[i], &mp.snap); err != nil {
				d.err = fmt.Errorf("after event %d, pool %s: %w", d.lastSeen-1, mp.decl.Name, err)
				return d.err
			}
		}
	}
	if !IsPoolEvent(e) {
		return nil
	}
	mp := d.pools[e.Pool()]
	mp.setTime(e.T)
	if err := mp.apply(e); err != nil {
		d.err = fmt.Errorf("event %d at %v (%v): %w", d.lastSeen, e.T, e.Kind, err)
		return d.err
	}
	mp.p.SnapshotInto(&mp.snap)
	d.pending = true
	return nil
}

// IsPoolEvent reports whether e is a pool's decision, which the driver
// has the real pools take too (and after which their snapshots change).
func IsPoolEvent(e gmp.Event) bool {
	switch e.Kind {
	case gmp.KindPoolDispatch, gmp.KindPoolBlock, gmp.KindPoolReject, gmp.KindPoolIdle,
		gmp.KindPoolPurge, gmp.KindPoolExit, gmp.KindPoolQueue:
		return true
	}
	return false
}

// Close releases the real pools, lets every task still waiting on its
// gate finish, and waits for every goroutine the driver started.
func (d *Driver) Close() error {
	var errs []error
	for _, mp := range d.pools {
		if err := mp.close(); err != nil {
			errs = append(errs, fmt.Errorf("pool %s: %w", mp.decl.Name, err))
		}
	}
	return errors.Join(errs...)
}

// mirror is one real pool and what the driver knows of it.
type mirror struct {
	decl  gmp.PoolDecl
	p     *pool.Pool
	clock *manualclock.Clock
	hooks hookQueue
	snap  pool.Snapshot

	// The driver numbers its submissions (sid); a task's gate is opened
	// when its simulated task ends, with goexit if it called Goexit.
	gates    map[int]chan bool
	waitSID  map[uint64]int        // real waiter number -> sid
	onWorker map[pool.WorkerID]int // worker -> sid of the task it runs
	waiterOf map[gmp.GID]uint64    // simulated waiting goroutine -> its waiter number
	queued   map[uint64]queuedSub  // task number -> the queued task's submission
	nextSID  int
	submits  sync.WaitGroup // blocked Submit calls in flight
}

func newMirror(i int, decl gmp.PoolDecl) (*mirror, error) {
	mp := &mirror{
		decl: decl, clock: manualclock.New(Epoch),
		gates: map[int]chan bool{}, waitSID: map[uint64]int{},
		onWorker: map[pool.WorkerID]int{}, waiterOf: map[gmp.GID]uint64{}, queued: map[uint64]queuedSub{},
	}
	mp.hooks.init()
	opts := []pool.Option{
		pool.WithClock(mp.clock),
		pool.WithHooks(mp.hooks.hooks()),
		pool.WithNonblocking(decl.Nonblocking),
		pool.WithMaxBlocking(decl.MaxBlocking),
		pool.WithPreAlloc(decl.PreAlloc),
		pool.WithQueue(decl.Queue),
		pool.WithCoarseClock(decl.CoarseClock),
	}
	if decl.Expiry > 0 {
		opts = append(opts, pool.WithExpiry(decl.Expiry))
	}
	p, err := pool.New(decl.Size, opts...)
	if err != nil {
		return nil, err
	}
	mp.p = p
	p.SnapshotInto(&mp.snap)
	return mp, nil
}

// setTime moves the pool's clock to simulated time t without running
// timers: a purge due meanwhile runs when the simulation's purge
// goroutine runs, late, as runtime timers do.
func (mp *mirror) setTime(t sim.Time) {
	mp.clock.Set(Epoch.Add(t.D()))
}

// task returns a new task for the real pool, numbered sid.
func (mp *mirror) task() (int, func()) {
	sid := mp.nextSID
	mp.nextSID++
	gate := make(chan bool, 1)
	mp.gates[sid] = gate
	return sid, func() {
		if <-gate {
			runtime.Goexit()
		}
	}
}

// apply makes the real pool take the decision e reports, and checks that
// it takes the same one.
func (mp *mirror) apply(e gmp.Event) error {
	switch e.Kind {
	case gmp.KindPoolDispatch:
		switch e.Rule {
		case gmp.RulePoolDispatchIdle, gmp.RulePoolDispatchNew:
			return mp.submitNow(e)
		case gmp.RulePoolHandoff, gmp.RulePoolTakeQueued:
			return mp.finish(e, false)
		case gmp.RulePoolServeQueued:
			// As for a waiter: served in the same breath as the exit.
			return mp.expectQueuedDispatch(e, pool.DispatchNew)
		case gmp.RulePoolServeWaiter:
			// The real pool served the waiter in the same breath as the
			// worker's exit (pool-exit, just before): its hooks are queued.
			waiter := mp.waiterOf[e.WaiterG()]
			delete(mp.waiterOf, e.WaiterG())
			return mp.expectDispatch(e, pool.DispatchNew, waiter, mp.waitSID[waiter])
		}
	case gmp.KindPoolQueue:
		if e.Rule == gmp.RulePoolRefill {
			// The real pool let the waiter in as the worker finished (or
			// exited): its hooks are queued.
			waiter := mp.waiterOf[e.WaiterG()]
			delete(mp.waiterOf, e.WaiterG())
			return mp.expectQueued(e, waiter, mp.waitSID[waiter])
		}
		sid, task := mp.task()
		if err := mp.p.Submit(task); err != nil {
			return fmt.Errorf("the model queues task %d; the real Submit returned %v", e.Task(), err)
		}
		return mp.expectQueued(e, 0, sid)
	case gmp.KindPoolBlock:
		return mp.submitBlocking(e)
	case gmp.KindPoolReject:
		sid, task := mp.task()
		err := mp.p.Submit(task)
		delete(mp.gates, sid)
		if !errors.Is(err, pool.ErrPoolOverload) {
			return fmt.Errorf("the model rejects the task; the real pool's Submit returned %v", err)
		}
		_, err = mp.hooks.next(hookReject)
		return err
	case gmp.KindPoolIdle:
		return mp.finish(e, false)
	case gmp.KindPoolExit:
		return mp.finish(e, true)
	case gmp.KindPoolPurge:
		before := mp.clock.Now()
		mp.clock.AdvanceTo(before) // runs the purge timer, due by now
		h, err := mp.hooks.next(hookPurge)
		if err != nil {
			return fmt.Errorf("the model purges at %v; the real pool does not (%w)", before.Sub(Epoch), err)
		}
		if len(h.workers) != e.Purged() {
			return fmt.Errorf("the model purges %d workers, the real pool %d (%v)", e.Purged(), len(h.workers), h.workers)
		}
		for range h.workers {
			if _, err := mp.hooks.next(hookExit); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

// submitNow is a Submit that the model says gets a worker at once.
func (mp *mirror) submitNow(e gmp.Event) error {
	sid, task := mp.task()
	if err := mp.p.Submit(task); err != nil {
		return fmt.Errorf("the model gives task %d to a worker; the real Submit returned %v", e.Task(), err)
	}
	want := pool.DispatchIdle
	if e.Rule == gmp.RulePoolDispatchNew {
		want = pool.DispatchNew
	}
	return mp.expectDispatch(e, want, 0, sid)
}

// expectDispatch reads the real pool's next acceptance of a task, and its
// dispatch, and holds them against the model's: the same task to the
// same worker, the same way, from the same waiter (0 for none). sid is
// the submission the task came from.
func (mp *mirror) expectDispatch(e gmp.Event, kind pool.DispatchKind, waiter uint64, sid int) error {
	if _, err := mp.hooks.next(hookSubmit); err != nil {
		return err
	}
	h, err := mp.hooks.next(hookDispatch)
	if err != nil {
		return err
	}
	if h.task != uint64(e.Task()) || h.worker != pool.WorkerID(e.Worker()) || h.dispatch != kind || h.waiter != waiter {
		return fmt.Errorf("the model gives task %d to worker w%d (%v, waiter %d); the real pool gives task %d to w%d (%v, waiter %d)",
			e.Task(), e.Worker(), kind, waiter, h.task, h.worker, h.dispatch, h.waiter)
	}
	mp.onWorker[h.worker] = sid
	return nil
}

// queuedSub is a task in the real pool's queue: the submission it came
// from and the wait it went through (0 for none).
type queuedSub struct {
	sid    int
	waiter uint64
}

// expectQueued reads the real pool's acceptance of a task into its queue
// and holds it against the model's: the same task number, from the same
// waiter. sid is the submission the task came from.
func (mp *mirror) expectQueued(e gmp.Event, waiter uint64, sid int) error {
	if _, err := mp.hooks.next(hookSubmit); err != nil {
		return err
	}
	h, err := mp.hooks.next(hookQueued)
	if err != nil {
		return err
	}
	if h.task != uint64(e.Task()) || h.waiter != waiter {
		return fmt.Errorf("the model queues task %d (waiter %d); the real pool queues task %d (waiter %d)", e.Task(), waiter, h.task, h.waiter)
	}
	mp.queued[h.task] = queuedSub{sid: sid, waiter: waiter}
	return nil
}

// expectQueuedDispatch reads the real pool's dispatch of a queued task
// and holds it against the model's.
func (mp *mirror) expectQueuedDispatch(e gmp.Event, kind pool.DispatchKind) error {
	h, err := mp.hooks.next(hookDispatch)
	if err != nil {
		return err
	}
	task := uint64(e.Task())
	q, ok := mp.queued[task]
	if !ok {
		return fmt.Errorf("the model gives queued task %d to w%d; the real pool never queued it", task, e.Worker())
	}
	if h.task != task || h.worker != pool.WorkerID(e.Worker()) || h.dispatch != kind || h.waiter != q.waiter {
		return fmt.Errorf("the model gives queued task %d to worker w%d (%v, waiter %d); the real pool gives task %d to w%d (%v, waiter %d)",
			task, e.Worker(), kind, q.waiter, h.task, h.worker, h.dispatch, h.waiter)
	}
	delete(mp.queued, task)
	mp.onWorker[h.worker] = q.sid
	return nil
}

// submitBlocking is a Submit that the model says waits: the real one runs
// in a goroutine of its own, and the driver waits until it is in line.
func (mp *mirror) submitBlocking(e gmp.Event) error {
	sid, task := mp.task()
	mp.submits.Add(1)
	go func() {
		defer mp.submits.Done()
		// nil once a worker takes the task, ErrPoolClosed at Close.
		_ = mp.p.Submit(task)
	}()
	h, err := mp.hooks.next(hookBlock)
	if err != nil {
		return fmt.Errorf("the model's submitter waits (#%d); the real one does not: %w", e.WaiterNo(), err)
	}
	if h.waiter != uint64(e.WaiterNo()) {
		return fmt.Errorf("the model's submitter waits as #%d, the real one as #%d", e.WaiterNo(), h.waiter)
	}
	mp.waitSID[h.waiter] = sid
	mp.waiterOf[e.G] = h.waiter
	return nil
}

// finish ends the task on worker e.Worker() and checks the worker's next move:
// idle (pool-idle), a hand-off (pool-dispatch) or its exit (pool-exit,
// the task called Goexit).
func (mp *mirror) finish(e gmp.Event, goexit bool) error {
	w := pool.WorkerID(e.Worker())
	sid, ok := mp.onWorker[w]
	if !ok {
		return fmt.Errorf("the model's worker w%d finishes a task, but the real w%d runs none", e.Worker(), e.Worker())
	}
	delete(mp.onWorker, w)
	gate := mp.gates[sid]
	delete(mp.gates, sid)
	gate <- goexit
	switch {
	case goexit:
		h, err := mp.hooks.next(hookExit)
		if err != nil {
			return err
		}
		if h.worker != w || h.reason != pool.ExitGoexit {
			return fmt.Errorf("the model's w%d exits with its task; the real pool reports w%d exiting (%v)", e.Worker(), h.worker, h.reason)
		}
		return nil
	case e.Kind == gmp.KindPoolIdle:
		h, err := mp.hooks.next(hookIdle)
		if err != nil {
			return err
		}
		if h.worker != w {
			return fmt.Errorf("the model's w%d goes idle; the real w%d does", e.Worker(), h.worker)
		}
		return nil
	}
	if e.Rule == gmp.RulePoolTakeQueued {
		return mp.expectQueuedDispatch(e, pool.DispatchQueued)
	}
	waiter := mp.waiterOf[e.WaiterG()]
	delete(mp.waiterOf, e.WaiterG())
	return mp.expectDispatch(e, pool.DispatchHandoff, waiter, mp.waitSID[waiter])
}

// close releases the pool and waits for its goroutines.
func (mp *mirror) close() error {
	mp.p.Release()
	for sid, gate := range mp.gates {
		delete(mp.gates, sid)
		gate <- false
	}
	err := mp.p.ReleaseContext(context.Background())
	mp.submits.Wait()
	return err
}

// compareState holds the simulated pool against the real pool's snapshot.
func compareState(sp *gmp.Pool, rs *pool.Snapshot) error {
	var idle []pool.IdleWorker
	for _, w := range sp.Idle() {
		idle = append(idle, pool.IdleWorker{ID: pool.WorkerID(w.ID), LastUsed: Epoch.Add(w.LastUsed.D())})
	}
	if !slices.Equal(idle, rs.Idle) {
		return fmt.Errorf("idle workers: the model has %v, the real pool %v", idle, rs.Idle)
	}
	var busy []pool.WorkerID
	for _, w := range sp.Workers {
		if w.State == gmp.WorkerBusy {
			busy = append(busy, pool.WorkerID(w.ID))
		}
	}
	var realBusy []pool.WorkerID
	for _, w := range rs.Busy {
		realBusy = append(realBusy, w.ID)
	}
	if !slices.Equal(busy, realBusy) {
		return fmt.Errorf("busy workers: the model has %v, the real pool %v", busy, realBusy)
	}
	if sp.Running != rs.Running || sp.Waiters.Len() != len(rs.Waiters) {
		return fmt.Errorf("the model runs %d workers with %d waiting; the real pool %d with %d",
			sp.Running, sp.Waiters.Len(), rs.Running, len(rs.Waiters))
	}
	for i, w := range sp.Waiters.All() {
		if uint64(w.N) != rs.Waiters[i].Seq {
			return fmt.Errorf("waiter %d: the model has #%d, the real pool #%d", i, w.N, rs.Waiters[i].Seq)
		}
	}
	var queued []pool.QueuedTask
	for _, qt := range sp.Queued {
		queued = append(queued, pool.QueuedTask{Task: uint64(qt.Task), Waiter: uint64(qt.Waiter)})
	}
	if !slices.Equal(queued, rs.Queued) {
		return fmt.Errorf("queued tasks: the model has %v, the real pool %v", queued, rs.Queued)
	}
	var next time.Time
	if sp.PurgeArmed {
		next = Epoch.Add(sp.PurgeAt.D())
	}
	if !next.Equal(rs.NextPurge) {
		return fmt.Errorf("next purge: the model at %v, the real pool at %v", next, rs.NextPurge)
	}
	st, rst := sp.Stats, rs.Stats
	model := [...]int{st.Submitted, st.Completed, st.Rejected, st.Blocked, st.WorkersStarted, st.WorkersReused, st.WorkersPurged, st.PeakRunning, st.Queued}
	real := [...]int{int(rst.Submitted), int(rst.Completed), int(rst.Rejected), int(rst.Blocked), int(rst.WorkersStarted),
		int(rst.WorkersReused), int(rst.WorkersPurged), rst.PeakRunning, int(rst.Queued)}
	if model != real {
		return fmt.Errorf("stats (submitted, completed, rejected, blocked, started, reused, purged, peak, queued): the model %v, the real pool %v", model, real)
	}
	return nil
}
