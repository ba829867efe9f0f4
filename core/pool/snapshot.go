package pool

import (
	"cmp"
	"slices"
	"time"
)

// Snapshot is the state of a pool at one instant, taken under its lock, so
// its parts agree with each other: Running == len(Idle) + len(Busy), and
// len(Waiters) is the number of blocked submitters.
type Snapshot struct {
	// At is the pool clock's time when the snapshot was taken.
	At time.Time
	// Capacity is Cap(): -1 for an unlimited pool.
	Capacity int
	// Running is Running(): idle and busy workers.
	Running int
	// Idle lists the idle workers in the order they will be reused:
	// Idle[0] takes the next task. That is the top of the stack first
	// (most recently used), or for a PreAlloc pool the oldest first.
	Idle []IdleWorker
	// Busy lists the workers running a task, in start order.
	Busy []BusyWorker
	// Waiters lists the blocked submitters in the order they will be
	// served.
	Waiters []WaitingSubmitter
	// Queued lists the tasks in the queue, oldest (the next taken) first.
	Queued []QueuedTask
	// NextPurge is when the purge timer fires next, or the zero time if
	// it is not armed.
	NextPurge time.Time
	// Expiry is how long a worker may stay idle.
	Expiry time.Duration
	// PurgeDisabled, PreAlloc, Nonblocking, MaxBlocking and Queue are the pool's
	// options.
	PurgeDisabled bool
	PreAlloc      bool
	Nonblocking   bool
	MaxBlocking   int
	Queue         int
	// Closed is IsClosed().
	Closed bool
	// Stats are the pool's counters.
	Stats Stats
}

// IdleWorker is an idle worker in a Snapshot.
type IdleWorker struct {
	ID WorkerID
	// LastUsed is when it went idle; the purge stops it at LastUsed plus
	// the expiry.
	LastUsed time.Time
}

// BusyWorker is a worker running a task in a Snapshot.
type BusyWorker struct {
	ID WorkerID
	// Since is when it was given its current task. A worker taken from the
	// idle stack by a Submit that has not yet returned may still show the
	// time of its previous task, for the few instructions between the
	// decision and the time stamp.
	Since time.Time
}

// WaitingSubmitter is a blocked Submit or Invoke in a Snapshot.
type WaitingSubmitter struct {
	// Seq is the number of the wait, as in the OnBlock hook.
	Seq uint64
	// Since is when it began to wait.
	Since time.Time
}

// QueuedTask is a task in the queue in a Snapshot.
type QueuedTask struct {
	// Task and Waiter are as in SubmitEvent.
	Task, Waiter uint64
}

// Snapshot returns the pool's current state.
func (c *core[T]) Snapshot() Snapshot {
	var s Snapshot
	c.SnapshotInto(&s)
	return s
}

// SnapshotInto fills s with the pool's current state, reusing the memory of
// its slices: a UI that redraws often can keep one Snapshot and allocate
// nothing once its slices are large enough.
func (c *core[T]) SnapshotInto(s *Snapshot) {
	idle, busy, waiters, queued := s.Idle[:0], s.Busy[:0], s.Waiters[:0], s.Queued[:0]
	now := c.lock()
	defer c.mu.Unlock()
	// A worker is busy if it runs and is not idle. The worker records have
	// no room for a mark, so the idle ones are found by ID.
	idleIDs := c.idleIDs[:0]
	c.idle.each(func(w *worker[T]) {
		idle = append(idle, IdleWorker{ID: w.id, LastUsed: c.timeAt(w.lastUsed)})
		idleIDs = append(idleIDs, w.id)
	})
	slices.Sort(idleIDs)
	for _, w := range c.workers {
		if _, isIdle := slices.BinarySearch(idleIDs, w.id); !isIdle {
			busy = append(busy, BusyWorker{ID: w.id, Since: c.timeAt(w.busySince.Load())})
		}
	}
	slices.SortFunc(busy, func(a, b BusyWorker) int { return cmp.Compare(a.ID, b.ID) })
	c.idleIDs = idleIDs
	c.waiters.each(func(wt *waiter[T]) {
		waiters = append(waiters, WaitingSubmitter{Seq: wt.seq, Since: c.timeAt(wt.since)})
	})
	c.queue.each(func(qt queuedTask[T]) { queued = append(queued, QueuedTask{Task: qt.seq, Waiter: qt.waiter}) })
	var nextPurge time.Time
	if c.purgeArmed {
		nextPurge = c.timeAt(c.purgeAt)
	}
	*s = Snapshot{
		At:            c.timeAt(now),
		Capacity:      c.Cap(),
		Running:       c.Running(),
		Idle:          idle,
		Busy:          busy,
		Waiters:       waiters,
		Queued:        queued,
		NextPurge:     nextPurge,
		Expiry:        time.Duration(c.expiry),
		PurgeDisabled: !c.purge,
		PreAlloc:      c.preAlloc,
		Nonblocking:   c.limits.Nonblocking,
		MaxBlocking:   c.limits.MaxBlocking,
		Queue:         c.limits.Queue,
		Closed:        c.closed.Load(),
		Stats:         c.statsLocked(),
	}
}
