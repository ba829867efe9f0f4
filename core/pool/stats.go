package pool

// Stats counts what a pool has done since New. The counts go on across
// Release and Reboot. Every Submit or Invoke call ends in exactly one of
// Submitted or Rejected, so their sum is the number of calls that have
// returned or are about to; every accepted task is run by a worker that was
// either started for it or reused, or waits in the queue for one, so
// Submitted == WorkersStarted + WorkersReused + the tasks in the queue.
type Stats struct {
	// Submitted counts accepted tasks: each was handed to a worker, or
	// put in the queue for one, and runs (or has run) exactly once.
	Submitted uint64
	// Completed counts tasks that have finished, normally or by panicking.
	Completed uint64
	// Panicked counts tasks that panicked; the panics were recovered and
	// the workers carried on.
	Panicked uint64
	// Rejected counts calls that returned an error: ErrNilTask,
	// ErrPoolClosed, ErrPoolOverload or their context's error.
	Rejected uint64
	// Queued counts accepted tasks that went into the queue to wait for a
	// worker (Options.Queue), from a submit or from the line.
	Queued uint64
	// Blocked counts calls that had to wait for a worker, whatever the
	// outcome of the wait.
	Blocked uint64
	// WorkersStarted counts worker goroutines started.
	WorkersStarted uint64
	// WorkersReused counts dispatches to a worker that was already
	// running: taken from the idle stack, or handed the first waiter's
	// task or the oldest queued one as it finished its own (see
	// DispatchKind).
	WorkersReused uint64
	// WorkersPurged counts idle workers stopped by the purge because they
	// had been idle for the expiry duration.
	WorkersPurged uint64
	// PeakRunning is the largest Running has been.
	PeakRunning int
}
