package pool

import (
	"time"

	"github.com/schedlab/schedlab/core/pool/decide"
)

// The purge stops workers that have been idle for the expiry duration. It is
// one timer on the pool's clock, armed while idle workers may expire (see
// rule P in the package doc), not a goroutine: a pool with no workers has
// nothing running at all.

// armPurgeLocked schedules the purge at at. The one timer is created on first
// use and reset after that, so arming allocates nothing.
func (c *core[T]) armPurgeLocked(at, now int64) {
	c.purgeArmed, c.purgeAt = true, at
	if c.purgeTimer == nil {
		c.purgeTimer = c.clock.AfterFunc(time.Duration(at-now), c.purgeExpired)
	} else {
		c.purgeTimer.Reset(time.Duration(at - now))
	}
}

// purgeExpired is the purge timer's callback: it stops every worker idle for
// the expiry duration or longer and re-arms the timer for the oldest of the
// rest.
func (c *core[T]) purgeExpired() {
	now := c.lock()
	defer c.mu.Unlock()
	if !c.purgeArmed {
		// Release stopped the timer after this call had begun.
		return
	}
	c.purgeArmed = false
	expired := c.idle.removeExpired(now-c.expiry, c.expired[:0])
	var next time.Time
	if w := c.idle.oldest(); w != nil {
		c.armPurgeLocked(decide.PurgeDue(w.lastUsed, now, c.expiry, c.coarse), now)
		next = c.timeAt(c.purgeAt)
	}
	if h := c.hooks.OnPurge; h != nil {
		ids := make([]WorkerID, len(expired))
		for i, w := range expired {
			ids[i] = w.id
		}
		h(PurgeEvent{Workers: ids, At: c.timeAt(now), Next: next})
	}
	for i, w := range expired {
		c.stopWorkerLocked(w, ExitPurged, now)
		close(w.tasks)
		expired[i] = nil
	}
	c.stats.WorkersPurged += uint64(len(expired))
	c.expired = expired[:0]
}
