// Package pool is a goroutine pool in the manner of
// github.com/panjf2000/ants (v2.12.1): a bounded set of worker goroutines
// that are reused from task to task, so that a program with a flood of short
// tasks neither creates a goroutine per task nor runs more at once than it
// can afford. It is meant for real work, and it is also what schedlab's
// terminal UI and simulation step through on a fake clock, so every decision
// it makes is observable (Hooks, Snapshot) and reproducible (Clock).
//
//	p, _ := pool.New(100)
//	defer p.Release()
//	err := p.Submit(func() { handle(req) })
//
// FuncPool[T] runs one fixed function on typed arguments (Invoke allocates
// nothing); MultiPool spreads tasks over several pools to cut lock
// contention; manualclock.Clock steps a pool through time.
//
// # Decision rules
//
// Every decision is made under the pool's one lock by the goroutine that
// reaches it, and its hooks fire there and then, so the hooks' order is the
// decisions' order. The choices below (Submit's 3–7, F2–F6, Q, W, and P's
// count) are package decide's functions, which schedlab's model of a pool
// calls too, so the model decides with this code. There is no background
// goroutine: a pool with no workers runs no goroutine at all, and a pool
// with idle workers has one timer armed on its clock. Given the order in
// which the lock is taken (by Submit calls, by workers finishing tasks, by
// the purge timer, by Tune, Release and Reboot), what follows is a
// deterministic function of it. With a manual clock and one submitting
// goroutine that waits for each finished task's hooks, the whole run is.
//
// Submit (and Invoke), in this order:
//
//  1. A nil task is rejected with ErrNilTask; SubmitContext with a context
//     already done is rejected with its error.
//  2. A released pool rejects with ErrPoolClosed.
//  3. If a worker is idle, the task goes to it: the top of the stack, which
//     is the most recently used worker (LIFO). Under PreAlloc the idle
//     workers are a ring and the task goes to the one idle longest (FIFO),
//     as in ants. [DispatchIdle]
//  4. Otherwise, if Running < Cap (or the pool is unlimited), a worker is
//     started for the task. It counts in Running before its goroutine
//     exists, so Running never exceeds Cap. Worker IDs go 1, 2, 3… in
//     start order and are never reused. [DispatchNew]
//  5. Otherwise, if the pool has a queue (WithQueue) with room and nobody
//     waits, the task is accepted into the queue and Submit returns nil at
//     once; the next worker to finish takes it (F2). [Queue]
//  6. Otherwise, if the pool is Nonblocking, or MaxBlocking > 0 submitters
//     already wait, the task is rejected with ErrPoolOverload.
//  7. Otherwise the submitter waits at the back of a FIFO line with the next
//     waiter number. No later submitter can overtake it: a waiter exists only
//     while no worker is idle, no task is queued while someone waits, and
//     rules F5, Q and W serve the line in order.
//
// The decision is made, and its hooks have fired, before Submit returns or
// blocks. Submit returns nil once a worker has the task, or the queue.
//
// When a worker finishes a task (in its own goroutine):
//
//  1. The task counts as completed (and as panicked, if it panicked: the
//     panic is recovered and handed to the panic handler or the logger, and
//     the worker carries on).
//  2. If a task is queued and Running <= Cap, the worker takes the oldest
//     and runs it at once, without parking; then rule Q lets waiters into
//     the queue. A queued task was accepted, so even a released pool's
//     workers run the queue out before they stop. [DispatchQueued]
//  3. If the pool was released since the worker started, even if it has been
//     rebooted since, the worker stops. [ExitReleased]
//  4. If Running > Cap (Tune lowered it), the worker stops. [ExitShrunk]
//  5. If submitters are waiting, the worker takes the first one's task and
//     runs it at once; the submitter is woken only to return nil. This hand-
//     off costs one goroutine switch less than ants', where the worker parks
//     and the woken submitter hands it the task. [DispatchHandoff]
//  6. Otherwise the worker goes onto the idle stack, stamped with the time as
//     its last use. If no purge is scheduled, one is scheduled for last use +
//     expiry, and then OnWorkerIdle fires, before any submit can take it.
//
// Q, letting the line into the queue: after a task leaves the queue, if the
// queue is down to half its length or less, the first waiters move their
// tasks into it, in order, as many as fit, and each is woken to return nil.
// Waking the line in batches is what the queue is for: a submitter that
// keeps the pool full parks once per half a queue, not once per task, and
// a worker under load takes its next task without parking at all.
//
// W, serving waiters: after a worker stops (F3, F4, or a task calling
// runtime.Goexit) and after Tune raises the capacity, while Running < Cap, a
// worker is started for the oldest queued task (then Q applies), or, with
// the queue empty, for the first waiter's task. This is what keeps waiters
// and queued tasks from being stranded when workers go away (ants #146). A
// worker started for a queued task of a released pool stops once the queue
// is empty.
//
// P, the purge: the purge timer is due at the oldest idle worker's last use +
// expiry, or earlier. When it fires at time t it stops every idle worker
// whose last use + expiry <= t (the idle stack is sorted by last use, so a
// binary search finds them), then schedules itself for the oldest remaining
// worker's last use + expiry, or not at all if none is left. A worker is thus
// stopped exactly when it has been idle for the expiry duration, where ants'
// ticker lets it idle up to twice that. The timer is not cancelled when the
// stack empties (that would cost a timer operation per task under load); so
// a purge may fire with nothing expired, which is harmless and reported by
// OnPurge like any other. Since a worker pushed later is never older than
// the one the timer was set for, the timer is never late.
//
// Under CoarseClock, F6 stamps the worker with a clock that moves every
// 500ms from the pool's start, as ants' does, and P runs on ants' ticker:
// the purge is due at the first multiple of expiry since the start that
// comes after now and at which the oldest stamp is expiry old (package
// decide's Stamp and PurgeDue). Until the clock first moves, every stamp
// is the start, so each tick stops every idle worker, however recently
// used; a pool busy in bursts shorter than its expiry starts new workers
// after nearly every tick (the built-in purge-coarse).
//
// Tune(n): sets the capacity (no-op on unlimited and PreAlloc pools, and for
// n <= 0). Growing it applies W. Shrinking it stops nobody at once: see F4.
//
// Release: closes the pool; every waiter, in FIFO order, is woken with
// ErrPoolClosed (ants #141); every idle worker, in reuse order, is told to
// stop; the purge timer is stopped. Busy workers stop after their task, once
// the queue is empty (F2, F3).
// ReleaseTimeout and ReleaseContext also wait until every worker goroutine
// has returned. Reboot reopens a released pool without waiting.
//
// A SubmitContext whose context ends while it waits leaves the line; the
// waiters behind it move up. If a worker took its task first, it returns nil.
//
// # Time
//
// All time comes from the pool's Clock: last-use stamps, waiters' arrival,
// the purge timer and ReleaseTimeout's deadline. ants mixes a clock cached
// by a goroutine with direct calls to time.Now, which neither a test nor a
// simulation can control. Internally a time stamp is the nanoseconds since
// the clock's time at New; hooks and snapshots turn it back into a
// time.Time. Under CoarseClock the last-use stamps are that time rounded
// down to 500ms, still read from the one Clock: ants keeps its coarse time
// with a goroutine and a ticker, this pool computes it, so that nothing runs
// for it and a manual clock steps it too. Each decision reads the clock just before taking the lock and
// is stamped with that reading, raised if need be to the latest stamp
// already used, so that stamps never decrease in decision order. On the
// system clock the reading is time.Since, the monotonic half of time.Now.
//
// # Cost
//
// A task costs two clock readings, two short critical sections (under a
// mutex that yields the processor a few times before it parks), and the
// channel send that wakes an idle worker; a task handed off to a waiter
// saves the worker's park and wake-up. With a queue (WithQueue), a task
// that finds every worker busy costs its submitter a push and the worker
// that takes it a pop, with no goroutine parked or woken: under a load that
// keeps the workers busy, that is most tasks. With no hooks set each hook costs a
// nil check. The pool allocates nothing per task: waiter records are
// recycled through a sync.Pool, and a worker is a 48-byte record, a one-slot
// channel and a goroutine, as in ants.
//
// # Differences from ants
//
// Beyond what is said above: Submit(nil) is an error rather than a crash; a
// task's panic does not kill its worker; waiters are served in FIFO order
// (ants wakes them through a sync.Cond, in no particular order); nothing
// starts when the package is imported (ants creates a default pool with two
// goroutines); MultiPool has Release as well as ReleaseTimeout and
// ReleaseContext; and every decision can be observed through Hooks,
// Snapshot and Stats.
package pool
