package gmp

// syncWords tells of semaphores (x/sync/semaphore) and errgroups
// (x/sync/errgroup).
var syncWords = words{
	RuleGroupGo: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v starts %v with errgroup.Go %s%s", e.Creator(), e.G, d.into(e), kickedNew(e))
	},
	RuleGroupSlot: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v ends and takes its token back from the errgroup's limit channel: %v, blocked in errgroup.Go, wakes %s%s", e.Waker(), e.G, d.into(e), kicked(e))
	},
	RuleGroupWaitDone: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v, the group's last goroutine, ends: %v returns from errgroup.Wait %s%s", e.Waker(), e.G, d.into(e), kicked(e))
	},
	RuleSemAcquire: func(d *Describer, b []byte, e *Event) []byte {
		name := d.semName(e.Sem())
		return appendf(b, "%v acquires %d of semaphore %s (%d taken now)", e.G, e.Weight(), name, e.Taken())
	},
	RuleSemWait: func(d *Describer, b []byte, e *Event) []byte {
		name := d.semName(e.Sem())
		return appendf(b, "%v asks semaphore %s for %d with %d taken: it queues, #%d in line", e.G, name, e.Weight(), e.Taken(), e.Position())
	},
	RuleSemNever: func(d *Describer, b []byte, e *Event) []byte {
		name := d.semName(e.Sem())
		return appendf(b, "%v asks semaphore %s for %d, more than it can ever hold: Acquire waits for its context, which never ends", e.G, name, e.Weight())
	},
	RuleSemRelease: func(d *Describer, b []byte, e *Event) []byte {
		name := d.semName(e.Sem())
		b = appendf(b, "%v releases %d of semaphore %s", e.G, e.Weight(), name)
		if n := e.LetThrough(); n > 0 {
			b = appendf(b, " and lets %s through in order", plural(n, "waiter", "waiters"))
		}
		b = appendf(b, " (%d taken now)", e.Taken())
		if e.Stuck() {
			b = appendf(b, "; the next waiter, %v, does not fit yet, so everyone behind it waits too", e.NextWaiter())
		}
		return b
	},
	RuleReadySem: func(d *Describer, b []byte, e *Event) []byte {
		name := d.semName(e.Sem())
		return appendf(b, "%v's release lets %v take %d of semaphore %s: %v wakes %s%s", e.Waker(), e.G, e.Weight(), name, e.G, d.into(e), kicked(e))
	},
}

func (d *Describer) semName(i int) namePhrase {
	if i >= 0 && i < len(d.sems) {
		return namePhrase{name: d.sems[i], quote: d.quote}
	}
	return namePhrase{prefix: "#", i: i}
}
