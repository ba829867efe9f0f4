package pool

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/schedlab/schedlab/core/pool/decide"
)

// worker is one goroutine of the pool and the record the pool keeps of it.
// Its fields are guarded by core.mu, but for tasks and busySince.
//
// The record is 48 bytes, and a worker costs that, a 16-byte closure for its
// goroutine and a 112-byte channel: as much as an ants worker.
type worker[T any] struct {
	core *core[T]
	// tasks passes a task to the worker: its first one, and each one after
	// it is taken from the idle stack. Capacity 1, so a send never blocks:
	// the worker is new or idle, so the buffer is empty. Closing it tells
	// an idle worker to stop.
	tasks chan T
	id    WorkerID
	// lastUsed is when it last went idle, in nanoseconds since the pool's
	// epoch (see core.epoch), as the coarse clock says under CoarseClock.
	lastUsed int64
	// busySince is when it was given its current task. A submitter that
	// takes an idle worker stores it after unlocking, just before handing
	// over the task: writing the worker's cache line, which the worker's
	// own processor holds, inside the critical section made every
	// submitter wait for that transfer (about 100ns a task).
	busySince atomic.Int64
	// gen is the pool's generation when the worker started (see
	// core.gen); a worker whose gen is behind the pool's belongs to a
	// released incarnation and stops after its task, even if the pool has
	// been rebooted since.
	gen uint32
	// slot is the worker's index in core.workers.
	slot uint32
}

// afterTask is what a worker does once its task has returned.
type afterTask uint8

const (
	runNext  afterTask = iota // it took a waiter's task: run it
	waitIdle                  // it is on the idle stack: wait for a task
	stop                      // it has been accounted as exited: return
)

// run is the body of a worker goroutine. Its first task is already in its
// channel.
func (w *worker[T]) run() {
	c := w.core
	task := <-w.tasks
	ended := false
	defer func() {
		if !ended {
			// Only runtime.Goexit in a task gets here: panics are
			// recovered in execute.
			c.workerLost(w)
		}
	}()
	for {
		panicked, value := c.execute(task)
		var next afterTask
		task, next = c.finishTask(w, panicked, value)
		switch next {
		case runNext:
			continue
		case waitIdle:
			var ok bool
			if task, ok = <-w.tasks; ok {
				continue
			}
			// Closed by the purge or Release, which have already
			// accounted for the exit.
			c.mu.Lock()
			c.goroutineEndedLocked()
			c.mu.Unlock()
		}
		ended = true
		return
	}
}

// execute runs one task, recovering a panic so that the worker survives it.
// The panic handler (or the logger) is called here, in the deferred function,
// so that debug.Stack still shows the frames that panicked.
func (c *core[T]) execute(task T) (panicked bool, value any) {
	defer func() {
		if r := recover(); r != nil {
			panicked, value = true, r
			if c.panicHandler != nil {
				c.panicHandler(r)
			} else {
				c.logger.Printf("task panicked: %v\n%s", r, debug.Stack())
			}
		}
	}()
	c.exec(task)
	return false, nil
}

// finishTask decides what w does after a task, and returns the next task if
// that is to run one straight away.
func (c *core[T]) finishTask(w *worker[T], panicked bool, value any) (T, afterTask) {
	var none T
	now := c.lock()
	c.completed++
	if panicked {
		c.stats.Panicked++
		if h := c.hooks.OnPanic; h != nil {
			h(PanicEvent{Worker: w.id, Value: value, At: c.timeAt(now)})
		}
	}
	var reason ExitReason
	switch decide.AfterTask(c.countsLocked(), w.gen != c.gen) {
	case decide.StopReleased:
		reason = ExitReleased
	case decide.StopShrunk:
		reason = ExitShrunk
	case decide.Handoff:
		wt, task := c.takeFirstWaiterLocked()
		c.acceptLocked(w, DispatchHandoff, wt, now)
		c.mu.Unlock()
		wt.ready <- struct{}{}
		return task, runNext
	case decide.TakeQueued:
		qt := c.queue.pop()
		c.dispatchQueuedLocked(w, qt, DispatchQueued, now)
		c.refillLocked(now)
		c.mu.Unlock()
		return qt.task, runNext
	case decide.GoIdle:
		w.lastUsed = decide.Stamp(now, c.coarse)
		if c.idle.push(w) {
			// The purge is scheduled before the hook runs, so that a hook
			// that sees the worker idle sees the purge that may stop it
			// on the pool's clock too.
			if decide.ArmPurge(c.purge, c.purgeArmed) {
				c.armPurgeLocked(decide.PurgeDue(w.lastUsed, now, c.expiry, c.coarse), now)
			}
			if h := c.hooks.OnWorkerIdle; h != nil {
				h(WorkerEvent{Worker: w.id, At: c.timeAt(now)})
			}
			c.mu.Unlock()
			return none, waitIdle
		}
		// A full PreAlloc ring; the accounting rules it out, but a
		// worker with nowhere to go is best stopped.
		reason = ExitShrunk
	}
	c.stopWorkerLocked(w, reason, now)
	c.goroutineEndedLocked()
	c.serveWaitersLocked(now)
	c.mu.Unlock()
	return none, stop
}

// workerLost accounts for a worker whose task called runtime.Goexit.
func (c *core[T]) workerLost(w *worker[T]) {
	now := c.lock()
	defer c.mu.Unlock()
	c.completed++
	c.stopWorkerLocked(w, ExitGoexit, now)
	c.goroutineEndedLocked()
	c.serveWaitersLocked(now)
}

// stopWorkerLocked stops counting w as running. The caller either is w's
// goroutine and returns, or closes w.tasks to wake it.
func (c *core[T]) stopWorkerLocked(w *worker[T], reason ExitReason, now int64) {
	last := c.workers[len(c.workers)-1]
	c.workers[w.slot], last.slot = last, w.slot
	c.workers[len(c.workers)-1] = nil
	c.workers = c.workers[:len(c.workers)-1]
	c.running.Add(-1)
	if h := c.hooks.OnWorkerExit; h != nil {
		h(WorkerExitEvent{Worker: w.id, Reason: reason, At: c.timeAt(now)})
	}
}

// goroutineEndedLocked is called by each worker goroutine as it returns.
func (c *core[T]) goroutineEndedLocked() {
	c.alive--
	if c.alive == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
}
