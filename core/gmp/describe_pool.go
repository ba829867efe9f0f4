package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/pool/decide"
)

// poolWords tells the decisions of a pool (package core/pool/decide) and the
// wake-ups they cause.
var poolWords = words{
	RulePoolDispatchIdle: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		which := "the most recently used (the top of the idle stack)"
		if d.preAlloc(pool) {
			which = "the one idle longest (PreAlloc keeps a ring)"
		}
		return appendf(b, "%v submits task %d to pool %s: idle worker w%d (%v), %s %v%s, takes it, %s", e.G, e.Task(), d.poolName(pool), e.Worker(), e.WorkerG(), d.idleWord(pool), e.IdleFor(), d.agoWord(pool), which)
	},
	RulePoolDispatchNew: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		return appendf(b, "%v submits task %d to pool %s: no worker is idle and there is room, so it starts worker w%d (%v; %s running)", e.G, e.Task(), d.poolName(pool), e.Worker(), e.WorkerG(), d.capOf(pool, e.Running()))
	},
	RulePoolHandoff: func(d *Describer, b []byte, e *Event) []byte {
		name := d.poolName(e.Pool())
		return appendf(b, "worker w%d (%v) of pool %s finishes its task and takes task %d from %v, which waited %v: it runs it at once, and %v is only woken to return", e.Worker(), e.G, name, e.Task(), e.WaiterG(), e.Waited(), e.WaiterG())
	},
	RulePoolServeWaiter: func(d *Describer, b []byte, e *Event) []byte {
		name := d.poolName(e.Pool())
		return appendf(b, "a worker of pool %s is gone and there is room: worker w%d (%v) is started for the task %v waited %v to submit (task %d)", name, e.Worker(), e.WorkerG(), e.WaiterG(), e.Waited(), e.Task())
	},
	RulePoolBlock: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		return appendf(b, "pool %s has no idle worker and no room (%s running): %v waits for one, #%d in a FIFO line of %d", d.poolName(pool), d.capOf(pool, e.Running()), e.G, e.WaiterNo(), e.LineLen())
	},
	RulePoolReject: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		if e.Nonblocking() {
			return appendf(b, "pool %s has no idle worker and no room (%s running), and it is nonblocking: %v's task is rejected with ErrPoolOverload", d.poolName(pool), d.capOf(pool, e.Running()), e.G)
		}
		return appendf(b, "pool %s is full and %d submitters already wait, its max_blocking: %v's task is rejected with ErrPoolOverload", d.poolName(pool), e.Waiting(), e.G)
	},
	RulePoolIdle: func(d *Describer, b []byte, e *Event) []byte {
		name := d.poolName(e.Pool())
		b = appendf(b, "worker w%d (%v) of pool %s finishes its task with nobody waiting: it goes on top of the idle stack (%d idle), stamped with the time", e.Worker(), e.G, name, e.Idle())
		coarse := d.coarse(e.Pool())
		if coarse {
			b = appendf(b, " as ants' coarse clock reads it, %v since the start, when that clock last moved (every 500ms)", time.Duration(decide.Stamp(int64(e.T), true)))
		}
		if e.PurgeArmed() {
			if coarse {
				return appendf(b, "; no purge is pending, so the purge timer is set for the purge ticker's first tick with that stamp %v old, %v from now", d.expiryOf(e.Pool()), e.PurgeIn())
			}
			b = appendf(b, "; no purge is pending, so the purge timer is set for %v from now", e.PurgeIn())
		}
		return b
	},
	RulePoolPurge: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		switch n := e.Purged(); {
		case d.coarse(pool) && n == 0:
			b = appendf(b, "the purge of pool %s, on its ticker's tick, finds no worker stamped %v ago or earlier", d.poolName(pool), d.expiryOf(pool))
		case d.coarse(pool):
			b = appendf(b, "the purge of pool %s, on its ticker's tick, stops %s stamped %v ago or earlier (the oldest %v ago) by ants' coarse clock, however recently each was used, found by binary search of the idle stack", d.poolName(pool), plural(n, "worker", "workers"), d.expiryOf(pool), e.Oldest())
		case n == 0:
			b = appendf(b, "the purge of pool %s finds no worker idle for %v", d.poolName(pool), d.expiryOf(pool))
		default:
			b = appendf(b, "the purge of pool %s stops %s idle for %v or more (the oldest for %v), found by binary search of the idle stack", d.poolName(pool), plural(n, "worker", "workers"), d.expiryOf(pool), e.Oldest())
		}
		if e.Rearmed() {
			return appendf(b, "; %s idle, and it re-arms for the oldest, in %v", plural(e.Idle(), "worker stays", "workers stay"), e.RearmIn())
		}
		return append(b, "; no worker is left idle, so no purge is pending"...)
	},
	RulePoolReadyIdle: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v sends the task on worker w%d's channel: %v, parked receiving, goes %s%s", e.Waker(), e.Worker(), e.G, d.into(e), kicked(e))
	},
	RulePoolReadyWaiter: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v signals the ready channel of %v, waiting in Submit: %v goes %s%s", e.Waker(), e.G, e.G, d.into(e), kicked(e))
	},
	RulePoolReadyStop: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "the purge closes the task channel of worker w%d, %s %v%s: %v wakes %s to return%s", e.Worker(), d.idleWord(e.Pool()), e.IdleFor(), d.agoWord(e.Pool()), e.G, d.into(e), kicked(e))
	},
	RulePurgeTimer: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "the purge timer of pool %s fires %v late on %v", d.poolName(e.Pool()), e.Late(), e.P)
		if owner := e.TimerOwner(); owner != e.P {
			b = appendf(b, " (stolen from %v's heap)", owner)
		}
		return appendf(b, ": time.AfterFunc starts %v to run the purge, %s%s", e.G, d.into(e), kickedNew(e))
	},
	RuleReadyTasks: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v finishes the last task %v was waiting for: %v wakes %s%s", e.Waker(), e.G, e.G, d.into(e), kicked(e))
	},
	RulePoolWorkerLost: func(d *Describer, b []byte, e *Event) []byte {
		pool := e.Pool()
		return appendf(b, "the task on worker w%d (%v) of pool %s called runtime.Goexit, which ends the worker too: the pool stops counting it (%s running)", e.Worker(), e.G, d.poolName(pool), d.capOf(pool, e.Running()))
	},
}

func (d *Describer) poolName(i int) namePhrase {
	if i >= 0 && i < len(d.pools) {
		return namePhrase{name: d.pools[i].Name, quote: d.quote}
	}
	return namePhrase{prefix: "#", i: i}
}

// capOf writes a pool's running count against its capacity: "3/8".
func (d *Describer) capOf(pool int, running int) capPhrase {
	if pool >= 0 && pool < len(d.pools) && d.pools[pool].Size > 0 {
		return capPhrase{running, d.pools[pool].Size}
	}
	return capPhrase{running: running}
}

// capPhrase is a running count and a capacity, 0 for none.
type capPhrase struct {
	running int
	size    int
}

func (c capPhrase) appendTo(b []byte) []byte {
	if c.size > 0 {
		return appendf(b, "%d/%d", c.running, c.size)
	}
	return appendf(b, "%d, no limit", c.running)
}

func (d *Describer) preAlloc(pool int) bool {
	return pool >= 0 && pool < len(d.pools) && d.pools[pool].PreAlloc
}

// coarse says whether the pool stamps idle workers with ants' coarse clock.
func (d *Describer) coarse(pool int) bool {
	return pool >= 0 && pool < len(d.pools) && d.pools[pool].CoarseClock
}

// idleWord introduces how long ago a worker went idle: its stamp says so
// exactly, or under the coarse clock only how old the stamp is.
func (d *Describer) idleWord(pool int) string {
	if d.coarse(pool) {
		return "stamped"
	}
	return "idle for"
}

// agoWord ends what idleWord begins.
func (d *Describer) agoWord(pool int) string {
	if d.coarse(pool) {
		return " ago by ants' coarse clock"
	}
	return ""
}

func (d *Describer) expiryOf(pool int) time.Duration {
	if pool >= 0 && pool < len(d.pools) && d.pools[pool].Expiry > 0 {
		return d.pools[pool].Expiry
	}
	return DefaultPoolExpiry
}
