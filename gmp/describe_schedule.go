package gmp

// scheduleWords tells how a P picks what to run next (runqget, globrunqget,
// stealWork, findRunnable) and how a running goroutine gives its P up
// (preemption, Gosched).
var scheduleWords = words{
	RuleRunnext: func(d *Describer, e Event) string {
		return d.started(e, sprintf("%v runs %v from its runnext and inherits the current time slice (schedtick stays %d)", e.P, e.G, e.N))
	},
	RuleRunqHead: func(d *Describer, e Event) string {
		return d.started(e, sprintf("%v runs %v from the head of its ring: a new time slice, schedtick %d", e.P, e.G, e.N))
	},
	RuleGlobalFairness: func(d *Describer, e Event) string {
		if e.N2 > 0 {
			return d.started(e, sprintf("%v's schedtick %d is a multiple of %d (what-if fairness=%d; the runtime's is 61): the fairness check runs %v from the global queue first (schedtick %d)", e.P, e.N-1, e.N2, e.N2, e.G, e.N))
		}
		return d.started(e, sprintf("%v's schedtick %d is a multiple of 61: the fairness check runs %v from the global queue first (schedtick %d)", e.P, e.N-1, e.G, e.N))
	},
	RuleGlobalBatch:     globalBatchWords,
	RuleGlobalBatchIdle: globalBatchWords,
	RuleNetpollRun: func(d *Describer, e Event) string {
		if e.Kind == KindGoUnblock {
			return sprintf("%v's network read is ready and the poll returned it: %v runs it next", e.G, e.P)
		}
		return d.started(e, sprintf("%v runs %v, returned by the network poller; schedtick %d", e.P, e.G, e.N))
	},
	RuleStolenRun: func(d *Describer, e Event) string {
		return d.started(e, sprintf("%v runs %v, stolen from %v; schedtick %d", e.P, e.G, d.place(e.From), e.N))
	},
	RulePreemptAsync: func(d *Describer, e Event) string {
		return sprintf("%v is preempted on %v after running %v%s: the signal caught it in user code; it goes to the tail of the global queue (%d there)", e.G, e.P, e.D, sliceAge(e), e.N)
	},
	RulePreemptSync: func(d *Describer, e Event) string {
		return sprintf("%v stops at a safe point on %v after running %v%s, honouring a pending preemption request; to the tail of the global queue (%d there)", e.G, e.P, e.D, sliceAge(e), e.N)
	},
	RuleGosched: func(d *Describer, e Event) string {
		return sprintf("%v calls runtime.Gosched on %v: it goes to the tail of the global queue (%d there), not to %v's ring", e.G, e.P, e.N, e.P)
	},
	RuleRunqsteal: func(d *Describer, e Event) string {
		if e.N == 1 {
			return sprintf("%v steals the one G in %v's ring: %v runs now", e.P, e.P2, e.G)
		}
		if e.Flag {
			return sprintf("%v steals all %d Gs of %v's ring (what-if steal-all; the runtime takes half): %v runs now, %s to %v's ring", e.P, e.N, e.P2, e.G, plural(e.N-1, "G goes", "Gs go"), e.P)
		}
		return sprintf("%v steals %d Gs, half of %v's ring (%d left there): %v runs now, %s to %v's ring", e.P, e.N, e.P2, e.N2, e.G, plural(e.N-1, "G goes", "Gs go"), e.P)
	},
	RuleRunqstealNext: func(d *Describer, e Event) string {
		if e.Flag {
			return sprintf("%v steals %v from %v's runnext on the last pass, after a usleep(3) back-off (%v with timer slack)", e.P, e.G, e.P2, e.D)
		}
		return sprintf("%v steals %v from %v's runnext on the last pass, without backing off: %v's G is in a syscall or it has no M", e.P, e.G, e.P2, e.P2)
	},
}

func globalBatchWords(d *Describer, e Event) string {
	s := sprintf("%v's queue is empty: it runs %v from the global queue", e.P, e.G)
	if e.N2 > 1 {
		s += sprintf(" and moves %d more to its ring (batch of min(128, len, len/GOMAXPROCS+1) = %d)", e.N2-1, e.N2)
	}
	if e.Rule == RuleGlobalBatchIdle {
		s += ", found after dropping spinning"
	}
	return d.started(e, s+sprintf("; schedtick %d", e.N))
}

func (d *Describer) started(e Event, s string) string {
	if e.D > 0 {
		s += " (runnable for " + e.D.String() + ")"
	}
	return s
}

// sliceAge mentions the slice's age when the G inherited an older slice.
func sliceAge(e Event) string {
	if e.D2 > e.D {
		return sprintf(" in a time slice %v old, shared through runnext", e.D2)
	}
	return ""
}
