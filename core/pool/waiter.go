package pool

// waiter is a submitter waiting for a worker. It carries its task, so the
// worker that serves it takes the task straight from the record and runs it
// without waiting for the submitter to wake up: the submitter only learns
// that its task was accepted.
//
// Records are recycled through core.spare, so waiting allocates nothing in
// steady state. That is safe because ready receives exactly one signal per
// wait that is served or closed, and the submitter always drains it before
// recycling the record; a wait that ends by cancellation while still queued
// gets no signal.
type waiter[T any] struct {
	ready  chan struct{} // capacity 1; signalled once the outcome is in err
	task   T
	err    error
	seq    uint64
	since  int64 // nanoseconds since core.epoch
	queued bool  // in core.waiters; guarded by core.mu
	link   links[*waiter[T]]
}

func (w *waiter[T]) chainLinks() *links[*waiter[T]] { return &w.link }
