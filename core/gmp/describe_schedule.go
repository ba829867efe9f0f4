package gmp

import (
	"time"

	"github.com/schedlab/schedlab/internal/decimal"
)

// scheduleWords tells how a P picks what to run next (runqget, globrunqget,
// stealWork, findRunnable) and how a running goroutine gives its P up
// (preemption, Gosched).
var scheduleWords = words{
	// The sentences a big run writes most (go-start, steal, go-create,
	// go-exit, a sleep and its timer) are appended piece by piece rather
	// than through appendf, whose reading of the format and of its
	// arguments was two thirds of their cost (describe_fmt.go). Each
	// keeps its appendf form in a comment.
	RuleRunnext: func(d *Describer, b []byte, e *Event) []byte {
		// "%v runs %v from its runnext and inherits the current time slice (schedtick stays %d)%s"
		b = append(AppendG(append(AppendP(b, e.P), " runs "...), e.G), " from its runnext and inherits the current time slice (schedtick stays "...)
		return runnableFor(e).appendTo(append(decimal.AppendInt(b, int64(e.Schedtick())), ')'))
	},
	RuleRunqHead: func(d *Describer, b []byte, e *Event) []byte {
		// "%v runs %v from the head of its ring: a new time slice, schedtick %d%s"
		b = append(AppendG(append(AppendP(b, e.P), " runs "...), e.G), " from the head of its ring: a new time slice, schedtick "...)
		return runnableFor(e).appendTo(decimal.AppendInt(b, int64(e.Schedtick())))
	},
	RuleGlobalFairness: func(d *Describer, b []byte, e *Event) []byte {
		tick := e.Schedtick()
		if period := e.Period(); period > 0 {
			return appendf(b, "%v's schedtick %d is a multiple of %d (what-if fairness=%d; the runtime's is 61): the fairness check runs %v from the global queue first (schedtick %d)%s", e.P, tick-1, period, period, e.G, tick, runnableFor(e))
		}
		return appendf(b, "%v's schedtick %d is a multiple of 61: the fairness check runs %v from the global queue first (schedtick %d)%s", e.P, tick-1, e.G, tick, runnableFor(e))
	},
	RuleGlobalBatch: globalBatchWords,
	RuleNetpollRun: func(d *Describer, b []byte, e *Event) []byte {
		if e.Kind == KindGoUnblock {
			return appendf(b, "%v's network read is ready and the poll returned it: %v runs it next", e.G, e.P)
		}
		return appendf(b, "%v runs %v, returned by the network poller; schedtick %d%s", e.P, e.G, e.Schedtick(), runnableFor(e))
	},
	RuleTraceReader: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "a trace buffer is full: %v runs %v, runtime/trace's writer, before anything else; a new time slice, schedtick %d", e.P, e.G, e.Schedtick())
	},
	RuleStolenRun: func(d *Describer, b []byte, e *Event) []byte {
		// "%v runs %v, stolen from %v; schedtick %d%s"
		b = append(AppendG(append(AppendP(b, e.P), " runs "...), e.G), ", stolen from "...)
		b = append(d.appendPlace(b, e.From), "; schedtick "...)
		return runnableFor(e).appendTo(decimal.AppendInt(b, int64(e.Schedtick())))
	},
	RulePreemptAsync: func(d *Describer, b []byte, e *Event) []byte {
		if e.Op != nil && e.Op.Kind == OpLoop {
			return appendf(b, "%v is preempted on %v after running %v%s: the signal caught it in a loop that calls no function, which no preemption check could (asynchronous preemption, Go 1.14); it goes to the tail of the global queue (%d there)", e.G, e.P, e.Ran(), sliceAge(e), e.GlobalLen())
		}
		return appendf(b, "%v is preempted on %v after running %v%s: the signal caught it in user code; it goes to the tail of the global queue (%d there)", e.G, e.P, e.Ran(), sliceAge(e), e.GlobalLen())
	},
	RulePreemptSync: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v stops at a safe point on %v after running %v%s, honouring a pending preemption request; to the tail of the global queue (%d there)", e.G, e.P, e.Ran(), sliceAge(e), e.GlobalLen())
	},
	RuleGosched: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v calls runtime.Gosched on %v: it goes to the tail of the global queue (%d there), not to %v's ring", e.G, e.P, e.GlobalLen(), e.P)
	},
	RuleRunqsteal: func(d *Describer, b []byte, e *Event) []byte {
		n, victim := e.Stolen(), e.Victim()
		switch {
		case n == 1 && e.Left() == 0:
			// "%v steals the one G in %v's ring: %v runs now"
			b = append(AppendP(append(AppendP(b, e.P), " steals the one G in "...), victim), "'s ring: "...)
			return append(AppendG(b, e.G), " runs now"...)
		case n == 1:
			// Half of a ring of two or three, rounded down: one is left.
			// "%v steals 1 G, half of %v's ring (%d left there): %v runs now",
			// appended directly: a tenth of a steal-heavy run's sentences.
			b = append(AppendP(append(AppendP(b, e.P), " steals 1 G, half of "...), victim), "'s ring ("...)
			b = append(decimal.AppendInt(b, int64(e.Left())), " left there): "...)
			return append(AppendG(b, e.G), " runs now"...)
		}
		if e.StealAll() {
			return appendf(b, "%v steals all %d Gs of %v's ring (what-if steal-all; the runtime takes half): %v runs now, %s to %v's ring", e.P, n, victim, e.G, plural(n-1, "G goes", "Gs go"), e.P)
		}
		// "%v steals %d Gs, half of %v's ring (%d left there): %v runs now, %s to %v's ring"
		b = append(decimal.AppendInt(append(AppendP(b, e.P), " steals "...), int64(n)), " Gs, half of "...)
		b = append(decimal.AppendInt(append(AppendP(b, victim), "'s ring ("...), int64(e.Left())), " left there): "...)
		b = plural(n-1, "G goes", "Gs go").appendTo(append(AppendG(b, e.G), " runs now, "...))
		return append(AppendP(append(b, " to "...), e.P), "'s ring"...)
	},
	RuleRunqstealNext: func(d *Describer, b []byte, e *Event) []byte {
		victim := e.Victim()
		if e.BackedOff() {
			return appendf(b, "%v steals %v from %v's runnext on the last pass, after a usleep(3) back-off (%v with timer slack)", e.P, e.G, victim, e.Backoff())
		}
		return appendf(b, "%v steals %v from %v's runnext on the last pass, without backing off: %v's G is in a syscall or it has no M", e.P, e.G, victim, victim)
	},
}

func globalBatchWords(d *Describer, b []byte, e *Event) []byte {
	b = appendf(b, "%v's queue is empty: it runs %v from the global queue", e.P, e.G)
	if n := e.Batch(); n > 1 {
		b = appendf(b, " and moves %d more to its ring (batch of min(128, len, len/GOMAXPROCS+1) = %d)", n-1, n)
	}
	return appendf(b, "; schedtick %d%s", e.Schedtick(), runnableFor(e))
}

// runnableFor ends the sentence of a G that starts running with how long
// it was runnable, when it waited at all.
func runnableFor(e *Event) waitedPhrase { return waitedPhrase{e.Waited()} }

type waitedPhrase struct{ waited time.Duration }

func (w waitedPhrase) appendTo(b []byte) []byte {
	if w.waited > 0 {
		return append(appendDuration(append(b, " (runnable for "...), w.waited), ')')
	}
	return b
}

// sliceAge mentions the slice's age when the G inherited an older slice.
func sliceAge(e *Event) sliceAgePhrase { return sliceAgePhrase{e.Ran(), e.SliceAge()} }

type sliceAgePhrase struct{ ran, age time.Duration }

func (s sliceAgePhrase) appendTo(b []byte) []byte {
	if s.age > s.ran {
		return appendf(b, " in a time slice %v old, shared through runnext", s.age)
	}
	return b
}
