package pool

import (
	"context"
	"time"
)

// Release closes the pool: later submits fail with ErrPoolClosed, and so do
// the submitters waiting now, which are woken in FIFO order. Idle workers are
// told to stop; busy ones stop when their task returns. Release does not
// wait for them: ReleaseTimeout and ReleaseContext do. Calling it on a closed
// pool does nothing.
func (c *core[T]) Release() {
	now := c.lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return
	}
	c.closed.Store(true)
	c.gen++
	for c.waiters.len > 0 {
		wt, _ := c.takeFirstWaiterLocked()
		wt.err = ErrPoolClosed
		if h := c.hooks.OnUnblock; h != nil {
			h(UnblockEvent{Waiter: wt.seq, Err: ErrPoolClosed, At: c.timeAt(now)})
		}
		c.rejectLocked(ErrPoolClosed, wt.seq, now)
		wt.ready <- struct{}{}
	}
	for w := c.idle.pop(); w != nil; w = c.idle.pop() {
		c.stopWorkerLocked(w, ExitReleased, now)
		close(w.tasks)
	}
	if c.purgeArmed {
		c.purgeTimer.Stop()
		c.purgeArmed = false
	}
}

// ReleaseTimeout releases the pool if it is open, then waits until every
// worker goroutine has returned, or until timeout has passed on the pool's
// clock, when it returns ErrTimeout. With a manualclock.Clock the timeout
// only passes when the caller advances the clock. Unlike ants, it may be
// called on a pool that is already released, to wait for it.
func (c *core[T]) ReleaseTimeout(timeout time.Duration) error {
	c.Release()
	drained := c.drainedChan()
	if drained == nil {
		return nil
	}
	expired := make(chan struct{})
	t := c.clock.AfterFunc(timeout, func() { close(expired) })
	defer t.Stop()
	if !waitDrained(drained, expired) {
		return ErrTimeout
	}
	return nil
}

// ReleaseContext releases the pool if it is open, then waits until every
// worker goroutine has returned, or until ctx is done, when it returns
// ctx.Err() as it is. A nil ctx does not wait, as in ants: the call is
// Release; pass context.Background() to wait without end.
func (c *core[T]) ReleaseContext(ctx context.Context) error {
	c.Release()
	drained := c.drainedChan()
	if drained == nil || ctx == nil {
		return nil
	}
	if !waitDrained(drained, ctx.Done()) {
		return ctx.Err()
	}
	return nil
}

// drainedChan returns a channel closed once no worker goroutine is left, or
// nil if none is left now. If the pool is rebooted and starts workers before
// that, the wait includes them.
func (c *core[T]) drainedChan() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.alive == 0 {
		return nil
	}
	if c.drained == nil {
		c.drained = make(chan struct{})
	}
	return c.drained
}

// waitDrained waits for drained (nil meaning already drained) or stop, and
// reports whether drained won. When both are ready it is drained, so the
// outcome does not depend on select's random choice.
func waitDrained(drained, stop <-chan struct{}) bool {
	if drained == nil {
		return true
	}
	select {
	case <-drained:
		return true
	default:
	}
	select {
	case <-drained:
		return true
	case <-stop:
		return false
	}
}

// Reboot opens a released pool again; it does nothing to an open one. It
// does not wait for the old workers: those still running a task stop when it
// returns and count in Running until then, and worker IDs, waiter numbers and
// Stats go on from where they were.
func (c *core[T]) Reboot() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed.Store(false)
}
