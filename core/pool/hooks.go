package pool

import "time"

// WorkerID names a worker within one pool: 1, 2, 3… in the order workers
// start. An ID is never reused, not even after Reboot, so hooks and
// snapshots tell exactly which worker took which task.
type WorkerID uint64

// DispatchKind says where the worker that took a task came from.
type DispatchKind uint8

const (
	// DispatchNew: a worker was started for the task (Running < Cap, or the
	// pool is unlimited, and no worker was idle).
	DispatchNew DispatchKind = iota + 1
	// DispatchIdle: the task went to a worker taken from the idle stack.
	DispatchIdle
	// DispatchHandoff: a worker that had just finished its task took the
	// first waiting submitter's task instead of going idle.
	DispatchHandoff
	// DispatchQueued: a worker that had just finished its task took the
	// oldest task in the queue (Options.Queue).
	DispatchQueued
)

func (k DispatchKind) String() string {
	switch k {
	case DispatchNew:
		return "new"
	case DispatchIdle:
		return "idle"
	case DispatchQueued:
		return "queued"
	case DispatchHandoff:
		return "handoff"
	}
	return "DispatchKind(?)"
}

// ExitReason says why a worker stopped.
type ExitReason uint8

const (
	// ExitPurged: the worker had been idle for the expiry duration.
	ExitPurged ExitReason = iota + 1
	// ExitShrunk: the worker finished a task while Running > Cap, after
	// Tune lowered the capacity.
	ExitShrunk
	// ExitReleased: the pool was released while the worker was idle, or
	// before it finished its task.
	ExitReleased
	// ExitGoexit: the task called runtime.Goexit, which no worker can
	// survive.
	ExitGoexit
)

func (r ExitReason) String() string {
	switch r {
	case ExitPurged:
		return "purged"
	case ExitShrunk:
		return "shrunk"
	case ExitReleased:
		return "released"
	case ExitGoexit:
		return "goexit"
	}
	return "ExitReason(?)"
}

// SubmitEvent reports an accepted task.
type SubmitEvent struct {
	// Task numbers accepted tasks 1, 2, 3… in acceptance order; it equals
	// Stats.Submitted once the task is counted.
	Task uint64
	// Waiter is the sequence number of the wait the submitter went
	// through, or 0 if it did not wait.
	Waiter uint64
	At     time.Time
}

// DispatchEvent reports which worker took an accepted task.
type DispatchEvent struct {
	Task   uint64
	Worker WorkerID
	Kind   DispatchKind
	Waiter uint64 // as in SubmitEvent
	At     time.Time
}

// WorkerEvent reports a worker starting or going idle.
type WorkerEvent struct {
	Worker WorkerID
	// At is the time of the event; for OnWorkerIdle it is the worker's
	// last-used time, from which its expiry is counted.
	At time.Time
}

// WorkerExitEvent reports a worker told to stop. Its goroutine ends soon
// after; it no longer counts in Running.
type WorkerExitEvent struct {
	Worker WorkerID
	Reason ExitReason
	At     time.Time
}

// PurgeEvent reports one firing of the purge timer.
type PurgeEvent struct {
	// Workers are the idle workers stopped, oldest first; it may be empty
	// (see the package doc on why a purge can find nothing to do).
	Workers []WorkerID
	At      time.Time
	// Next is when the purge timer will fire again, or the zero time if
	// it is not armed (no idle worker is left).
	Next time.Time
}

// QueueEvent reports an accepted task put in the queue (Options.Queue),
// where the next worker to finish a task takes it.
type QueueEvent struct {
	Task   uint64 // as in SubmitEvent
	Waiter uint64 // as in SubmitEvent
	// Len is the queue's length with the task in it.
	Len int
	At  time.Time
}

// PanicEvent reports a task's panic, recovered by its worker.
type PanicEvent struct {
	Worker WorkerID
	Value  any
	At     time.Time
}

// WaiterEvent reports a submitter that has to wait for a worker.
type WaiterEvent struct {
	// Waiter numbers waits 1, 2, 3… in the order they begin, which is
	// the order they are served in.
	Waiter uint64
	At     time.Time
}

// UnblockEvent reports the end of a wait.
type UnblockEvent struct {
	Waiter uint64
	// Err is nil if the submitter got a worker (then Worker is set) or a
	// place in the queue (then Worker is 0), or ErrPoolClosed, or the
	// error of the submitter's context.
	Err    error
	Worker WorkerID
	At     time.Time
}

// RejectEvent reports a Submit or Invoke that returns an error.
type RejectEvent struct {
	// Err is ErrNilTask, ErrPoolClosed, ErrPoolOverload or the context's
	// error.
	Err error
	// Waiter is the sequence number of the wait that ended in the error,
	// or 0 if the call was rejected without waiting.
	Waiter uint64
	At     time.Time
}

// Hooks are called at the pool's decisions, for observers: a UI, a trace, a
// simulation checked against the real pool. A nil field costs one nil check.
//
// Every hook is called with the pool's lock held, at the moment the decision
// is made, so the order of hook calls is exactly the order of decisions and
// the state a hook sees cannot have moved on. In return a hook must be quick
// and must not call the pool, except Running, Free, Waiting, Cap and
// IsClosed, which read without the lock; anything else deadlocks. It may
// hand the event to another goroutine.
//
// Which goroutine calls a hook follows from who makes the decision:
//
//   - OnSubmit, OnWorkerStart, OnDispatch: the submitter, when a worker is
//     free or may be started; a worker finishing its task, when it takes the
//     first waiter's task (DispatchHandoff); the caller of Tune, when a larger
//     capacity lets waiters start workers; a worker exiting, when its exit
//     makes room for a waiter.
//   - OnWorkerIdle: the worker, after its task.
//   - OnWorkerExit: the purge timer's goroutine (ExitPurged; with a manual clock,
//     the goroutine calling Advance); the worker after its task (ExitShrunk,
//     ExitReleased for a busy worker, ExitGoexit); the caller of Release
//     (ExitReleased for idle workers).
//   - OnPurge: the purge timer's goroutine.
//   - OnPanic: the worker, after recovering the panic and calling the panic
//     handler.
//   - OnQueue: the submitter; a worker finishing its task, when it lets
//     waiters into the queue (OnUnblock and OnSubmit come first, for each).
//   - OnBlock: the submitter.
//   - OnUnblock: whoever served the waiter (as for OnDispatch), the caller of
//     Release (ErrPoolClosed), or the submitter itself when its context ends.
//   - OnReject: the submitter, or the caller of Release for submitters that
//     were waiting.
//
// Within one decision the hooks fire in this order: OnUnblock (if the task
// waited), OnSubmit, OnWorkerStart (if a worker is started for it),
// OnDispatch; for a task put in the queue, OnSubmit then OnQueue, and its
// OnDispatch comes when a worker takes it. A worker that takes a queued
// task fires OnDispatch, then the hooks of the waiters it lets into the
// queue. A rejected wait fires OnUnblock then OnReject. A task's panic
// fires OnPanic before the hooks of what its worker does next. A purge fires
// OnPurge, then OnWorkerExit for each worker it stops, oldest first.
type Hooks struct {
	// OnSubmit: a task was accepted; it will run exactly once.
	OnSubmit func(SubmitEvent)
	// OnDispatch: an accepted task was given to a worker.
	OnDispatch func(DispatchEvent)
	// OnWorkerStart: a worker was started; it already counts in Running.
	OnWorkerStart func(WorkerEvent)
	// OnWorkerIdle: a worker finished its task and went onto the idle
	// stack, where the next submit may take it.
	OnWorkerIdle func(WorkerEvent)
	// OnWorkerExit: a worker was told to stop, and why.
	OnWorkerExit func(WorkerExitEvent)
	// OnPurge: the purge timer fired.
	OnPurge func(PurgeEvent)
	// OnPanic: a task panicked and its worker recovered.
	OnPanic func(PanicEvent)
	// OnQueue: an accepted task went into the queue.
	OnQueue func(QueueEvent)
	// OnBlock: a submitter found no free worker and waits, last in line.
	OnBlock func(WaiterEvent)
	// OnUnblock: a waiting submitter's wait ended.
	OnUnblock func(UnblockEvent)
	// OnReject: a Submit or Invoke call is returning an error.
	OnReject func(RejectEvent)
}
