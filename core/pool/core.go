package pool

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/core/pool/decide"
)

// core is the machinery shared by Pool and FuncPool[T]: T is what a
// submitter hands over (a func() for Pool, the argument for FuncPool) and
// exec is how a worker runs it. Both pool types embed a core, so its
// exported methods are theirs.
//
// Every decision is made with mu held, by whichever goroutine reaches it
// (see the package doc); nothing runs in the background. The counters that
// Running, Waiting, Cap and IsClosed report are written only with mu held
// but are atomics, so that those methods, and hooks, can read them without
// the lock.
//
// The fields are laid out by how they are used: under load every task takes
// the lock twice, from two processors, so the lines it writes move between
// caches on every critical section. The fields written there sit together
// after the lock, so that taking it brings most of them along; the fields
// that are only read stay on lines of their own, which never move.
type core[T any] struct {
	// Set by init and only read after. capacity is written by Tune only.
	exec         func(T)
	clock        Clock
	epoch        time.Time // the clock's time at New: time stamps count from it
	systemClock  bool      // clock is SystemClock(): see elapsed
	hooks        Hooks
	logger       Logger
	panicHandler func(any)
	expiry       int64 // nanoseconds
	limits       decide.Limits
	purge        bool
	coarse       bool // Options.CoarseClock
	preAlloc     bool
	capacity     atomic.Int64 // -1 for an unlimited pool
	spare        sync.Pool    // recycled *waiter[T]

	_ cacheLinePad

	// Written by nearly every critical section.
	mu         yieldingMutex
	closed     atomic.Bool
	purgeArmed bool
	idle       idleList[T]
	lastNow    int64        // the latest time stamp a decision used
	running    atomic.Int64 // workers started and not told to stop
	waiters    chain[*waiter[T]]
	waiting    atomic.Int64 // == waiters.len
	queue      taskQueue[T] // Options.Queue
	// gen counts Releases (modulo 2^32: a busy worker would have to see
	// four billion of them to be mistaken). A worker started in an earlier
	// generation stops after its task.
	gen       uint32
	submitted uint64 // Stats.Submitted
	completed uint64 // Stats.Completed
	reused    uint64 // Stats.WorkersReused

	_ cacheLinePad

	// Written rarely.
	stats      Stats        // but for the three counters above
	workers    []*worker[T] // every worker counted in running, at its slot
	lastWorker WorkerID
	lastWaiter uint64
	idleIDs    []WorkerID // scratch for Snapshot
	purgeTimer Timer      // at most one pending call, due at purgeAt
	purgeAt    int64
	expired    []*worker[T] // scratch for the purge
	// alive counts worker goroutines that have not yet returned, which
	// can exceed running for a moment: a worker told to stop while idle
	// counts here until it has woken up and left. drained is closed when
	// alive drops to zero, if someone is waiting for that.
	alive   int
	drained chan struct{}
}

// cacheLinePad keeps what comes after it off the cache line of what comes
// before it.
type cacheLinePad struct{ _ [64]byte }

func (c *core[T]) init(size int, exec func(T), opts []Option) error {
	o, err := resolveOptions(size, opts)
	if err != nil {
		return err
	}
	c.exec = exec
	c.clock = o.Clock
	c.epoch = o.Clock.Now()
	_, c.systemClock = o.Clock.(systemClock)
	c.hooks = o.Hooks
	c.logger = o.Logger
	c.panicHandler = o.PanicHandler
	c.expiry = int64(o.Expiry)
	c.purge = !o.DisablePurge
	c.coarse = o.CoarseClock
	c.preAlloc = o.PreAlloc
	c.limits = decide.Limits{Nonblocking: o.Nonblocking, MaxBlocking: o.MaxBlocking, Queue: o.Queue}
	if size <= 0 {
		size = -1
	}
	c.capacity.Store(int64(size))
	if o.PreAlloc {
		c.idle.ring = newWorkerLoopQueue[T](size)
	}
	c.spare.New = func() any { return &waiter[T]{ready: make(chan struct{}, 1)} }
	return nil
}

// elapsed reads the clock: nanoseconds since the epoch. On the system clock
// that is time.Since(epoch), which reads only the monotonic clock, the one
// time.Now().Sub(epoch) would use anyway: the same reading at half the cost of
// time.Now, which also reads the wall clock. Two reads per task make the
// difference worth having.
func (c *core[T]) elapsed() int64 {
	if c.systemClock {
		return int64(time.Since(c.epoch))
	}
	return int64(c.clock.Now().Sub(c.epoch))
}

// lock reads the clock, takes the lock, and returns the time of the decision
// about to be made, in nanoseconds since the epoch. The clock is read before
// the lock to keep the critical section short; the time is then raised to
// the latest one a decision has used, so that decisions are stamped in the
// order they are made (the idle stack's order depends on it). With a
// manual clock advanced only while the pool is quiet, it never changes anything.
func (c *core[T]) lock() int64 {
	now := c.elapsed()
	c.mu.Lock()
	if now < c.lastNow {
		return c.lastNow
	}
	c.lastNow = now
	return now
}

// timeAt converts a time stamp back to the clock's time.
func (c *core[T]) timeAt(ns int64) time.Time { return c.epoch.Add(time.Duration(ns)) }

// Running returns the number of workers: busy ones and idle ones. A worker
// counts from the moment it is started (before its goroutine runs) until it
// is told to stop.
func (c *core[T]) Running() int { return int(c.running.Load()) }

// Free returns how many more workers may start, Cap() - Running() but never
// below zero, or -1 for an unlimited pool.
func (c *core[T]) Free() int {
	capacity := c.capacity.Load()
	if capacity < 0 {
		return -1
	}
	return int(max(capacity-c.running.Load(), 0))
}

// Waiting returns the number of submitters waiting for a worker.
func (c *core[T]) Waiting() int { return int(c.waiting.Load()) }

// Cap returns the capacity: the most workers that may run at once, or -1 for
// an unlimited pool.
func (c *core[T]) Cap() int { return int(c.capacity.Load()) }

// IsClosed reports whether the pool has been released (and not rebooted).
func (c *core[T]) IsClosed() bool { return c.closed.Load() }

// Stats returns the pool's counters.
func (c *core[T]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statsLocked()
}

func (c *core[T]) statsLocked() Stats {
	s := c.stats
	s.Submitted, s.Completed, s.WorkersReused = c.submitted, c.completed, c.reused
	return s
}

// Tune changes the capacity to size. Growing it lets waiting submitters start
// workers at once, first come first served, as far as the new room allows.
// Shrinking it stops nobody: a worker that finishes a task while Running() >
// Cap() stops instead of going idle, and idle workers stop when the purge
// finds them expired.
//
// Tune does nothing if size <= 0, on an unlimited pool, or on a PreAlloc pool
// (whose ring is as large as the capacity given to New), as in ants.
func (c *core[T]) Tune(size int) {
	now := c.lock()
	defer c.mu.Unlock()
	old := c.capacity.Load()
	if size <= 0 || old < 0 || c.preAlloc || int64(size) == old {
		return
	}
	c.capacity.Store(int64(size))
	if int64(size) > old {
		c.serveWaitersLocked(now)
	}
}

// countsLocked is what the decisions of package decide read.
func (c *core[T]) countsLocked() decide.Counts {
	return decide.Counts{Idle: c.idle.len(), Running: int(c.running.Load()), Capacity: int(c.capacity.Load()),
		Waiting: c.waiters.len, Queued: c.queue.len}
}

// submitContext is SubmitContext and InvokeContext: a done context rejects
// the task before anything else is decided.
func (c *core[T]) submitContext(ctx context.Context, task T) error {
	if ctx == nil {
		// A nil context is read as context.Background, as net/http reads
		// one: the caller asked for no deadline.
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return c.reject(err)
	}
	return c.submit(ctx, task)
}

// reject rejects a call before it reaches the decision rules.
func (c *core[T]) reject(err error) error {
	now := c.lock()
	defer c.mu.Unlock()
	c.rejectLocked(err, 0, now)
	return err
}

// submit gives task to a worker: an idle one, or a new one if there is room,
// or, failing both, the first worker to finish after every earlier waiter has
// been served. A context that is never done (Background) waits without end.
func (c *core[T]) submit(ctx context.Context, task T) error {
	now := c.lock()
	if c.closed.Load() {
		c.rejectLocked(ErrPoolClosed, 0, now)
		c.mu.Unlock()
		return ErrPoolClosed
	}
	switch decide.OnSubmit(c.countsLocked(), c.limits) {
	case decide.ToIdle:
		w := c.idle.pop()
		c.acceptLocked(w, DispatchIdle, nil, now)
		c.mu.Unlock()
		w.busySince.Store(now)
		w.tasks <- task
		return nil
	case decide.NewWorker:
		w := c.startWorkerLocked()
		c.acceptLocked(w, DispatchNew, nil, now)
		c.mu.Unlock()
		w.tasks <- task
		go w.run()
		return nil
	case decide.Enqueue:
		c.enqueueLocked(task, 0, now)
		c.mu.Unlock()
		return nil
	case decide.Reject:
		c.rejectLocked(ErrPoolOverload, 0, now)
		c.mu.Unlock()
		return ErrPoolOverload
	}
	wt := c.spare.Get().(*waiter[T])
	c.lastWaiter++
	wt.seq, wt.since, wt.task, wt.err, wt.queued = c.lastWaiter, now, task, nil, true
	c.waiters.pushBack(wt)
	c.waiting.Store(int64(c.waiters.len))
	c.stats.Blocked++
	if h := c.hooks.OnBlock; h != nil {
		h(WaiterEvent{Waiter: wt.seq, At: c.timeAt(now)})
	}
	c.mu.Unlock()
	return c.await(ctx, wt)
}

// await waits for the outcome of wt and recycles it.
func (c *core[T]) await(ctx context.Context, wt *waiter[T]) error {
	// Background's Done is nil, so a wait without deadline selects on
	// the ready channel alone.
	done := ctx.Done()
	select {
	case <-wt.ready:
	case <-done:
		now := c.lock()
		if wt.queued {
			err := ctx.Err()
			c.dequeueLocked(wt)
			var none T
			wt.task = none
			if h := c.hooks.OnUnblock; h != nil {
				h(UnblockEvent{Waiter: wt.seq, Err: err, At: c.timeAt(now)})
			}
			c.rejectLocked(err, wt.seq, now)
			c.mu.Unlock()
			c.spare.Put(wt)
			return err
		}
		c.mu.Unlock()
		// Already served or closed: the signal is on its way, and the
		// task (if taken) runs, so this submit succeeded after all.
		<-wt.ready
	}
	err := wt.err
	wt.err = nil
	c.spare.Put(wt)
	return err
}

func (c *core[T]) dequeueLocked(wt *waiter[T]) {
	c.waiters.remove(wt)
	wt.queued = false
	c.waiting.Store(int64(c.waiters.len))
}

// takeFirstWaiterLocked removes the first waiter and returns it with its task;
// the caller accepts the task and then signals wt.ready, preferably after
// unlocking.
func (c *core[T]) takeFirstWaiterLocked() (*waiter[T], T) {
	wt := c.waiters.head
	c.dequeueLocked(wt)
	task := wt.task
	var none T
	wt.task = none
	return wt, task
}

// serveWaitersLocked starts a worker for each queued task, then for each
// waiter, first come first served, while there is room. It runs when room
// may have appeared without a worker finishing a task: Tune growing the
// capacity, or a worker stopping.
func (c *core[T]) serveWaitersLocked(now int64) {
	for {
		counts := c.countsLocked()
		switch {
		case decide.ServeQueued(counts):
			// Even on a released pool: the task was accepted. A worker
			// started then belongs to the released incarnation, so it
			// stops once the queue is empty.
			qt := c.queue.pop()
			w := c.startWorkerLocked()
			if c.closed.Load() {
				w.gen = c.gen - 1
			}
			c.dispatchQueuedLocked(w, qt, DispatchNew, now)
			w.tasks <- qt.task
			go w.run()
			c.refillLocked(now)
		case !c.closed.Load() && decide.ServeWaiter(counts):
			wt, task := c.takeFirstWaiterLocked()
			w := c.startWorkerLocked()
			c.acceptLocked(w, DispatchNew, wt, now)
			w.tasks <- task
			go w.run()
			wt.ready <- struct{}{}
		default:
			return
		}
	}
}

// enqueueLocked accepts task into the queue. waiter is the wait it came
// from, or 0.
func (c *core[T]) enqueueLocked(task T, waiter uint64, now int64) {
	c.submitted++
	c.stats.Queued++
	c.queue.push(queuedTask[T]{task: task, seq: c.submitted, waiter: waiter})
	if h := c.hooks.OnSubmit; h != nil {
		h(SubmitEvent{Task: c.submitted, Waiter: waiter, At: c.timeAt(now)})
	}
	if h := c.hooks.OnQueue; h != nil {
		h(QueueEvent{Task: c.submitted, Waiter: waiter, Len: c.queue.len, At: c.timeAt(now)})
	}
}

// dispatchQueuedLocked records that w takes the queued task qt: a worker
// that finished its task (DispatchQueued), or one started for it
// (DispatchNew).
func (c *core[T]) dispatchQueuedLocked(w *worker[T], qt queuedTask[T], kind DispatchKind, now int64) {
	if kind == DispatchQueued {
		c.reused++
	}
	w.busySince.Store(now)
	if h := c.hooks.OnWorkerStart; h != nil && kind == DispatchNew {
		h(WorkerEvent{Worker: w.id, At: c.timeAt(now)})
	}
	if h := c.hooks.OnDispatch; h != nil {
		h(DispatchEvent{Task: qt.seq, Worker: w.id, Kind: kind, Waiter: qt.waiter, At: c.timeAt(now)})
	}
}

// refillLocked lets waiters into the queue after a task has left it, as
// many as decide.Refill says, first come first served, and wakes each.
func (c *core[T]) refillLocked(now int64) {
	for n := decide.Refill(c.countsLocked(), c.limits); n > 0; n-- {
		wt, task := c.takeFirstWaiterLocked()
		if h := c.hooks.OnUnblock; h != nil {
			h(UnblockEvent{Waiter: wt.seq, At: c.timeAt(now)})
		}
		c.enqueueLocked(task, wt.seq, now)
		wt.ready <- struct{}{}
	}
}

// startWorkerLocked accounts for a new worker before its goroutine exists, so
// that Running never exceeds Cap, not even for a moment (ants #374).
func (c *core[T]) startWorkerLocked() *worker[T] {
	c.lastWorker++
	w := &worker[T]{core: c, id: c.lastWorker, gen: c.gen, tasks: make(chan T, 1)}
	w.slot = uint32(len(c.workers))
	c.workers = append(c.workers, w)
	running := c.running.Add(1)
	c.stats.WorkersStarted++
	c.stats.PeakRunning = max(c.stats.PeakRunning, int(running))
	c.alive++
	return w
}

// acceptLocked records that w takes a task, firing the hooks of that decision
// in their documented order. wt is the waiter the task came from, or nil. A
// worker taken from the idle list is stamped busy by the caller, after
// unlocking (see worker.busySince).
func (c *core[T]) acceptLocked(w *worker[T], kind DispatchKind, wt *waiter[T], now int64) {
	c.submitted++
	if kind == DispatchIdle {
		c.reused++
	} else {
		if kind == DispatchHandoff {
			c.reused++
		}
		w.busySince.Store(now)
	}
	var seq uint64
	if wt != nil {
		seq = wt.seq
		if h := c.hooks.OnUnblock; h != nil {
			h(UnblockEvent{Waiter: seq, Worker: w.id, At: c.timeAt(now)})
		}
	}
	if h := c.hooks.OnSubmit; h != nil {
		h(SubmitEvent{Task: c.submitted, Waiter: seq, At: c.timeAt(now)})
	}
	if h := c.hooks.OnWorkerStart; h != nil && kind == DispatchNew {
		h(WorkerEvent{Worker: w.id, At: c.timeAt(now)})
	}
	if h := c.hooks.OnDispatch; h != nil {
		h(DispatchEvent{Task: c.submitted, Worker: w.id, Kind: kind, Waiter: seq, At: c.timeAt(now)})
	}
}

func (c *core[T]) rejectLocked(err error, waiterSeq uint64, now int64) {
	c.stats.Rejected++
	if h := c.hooks.OnReject; h != nil {
		h(RejectEvent{Err: err, Waiter: waiterSeq, At: c.timeAt(now)})
	}
}
