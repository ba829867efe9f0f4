package exercise

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Topics about goroutines that leave their P: system calls, preemption,
// timers and the network poller.

// retakeCauses says why sysmon took a P, by the proc-steal event's cause.
var retakeCauses = map[gmp.RetakeCause]string{
	gmp.RetakeQueued:     "goroutines are queued on the P",
	gmp.RetakeNoHelper:   "no P is idle and no M spins",
	gmp.RetakeGraceOver:  "the syscall outlived its 10ms grace",
	gmp.RetakeStaleSlice: "the time slice it runs in is 10ms old (sysretake)",
}

// syscallExits says how a goroutine went on after its syscall, by rule.
var syscallExits = []struct {
	rule gmp.Rule
	text string
}{
	{gmp.RuleExitsyscallFast, "its P was still attached: it goes on at once"},
	{gmp.RuleExitsyscallOldP, "it takes its old P back from the thread holding it"},
	{gmp.RuleExitsyscallIdleP, "it takes an idle P"},
	{gmp.RuleExitsyscallNoP, "no P is free: it goes to the global queue and its M parks"},
}

var topicSyscall = &Topic{
	Name:  "syscall",
	Title: "a system call keeps its P until sysmon takes it",
	scenario: func(r *sim.Rand) string {
		k, d, procs := between(r, 1, 4), between(r, 3, 30), between(r, 1, 2)
		return fmt.Sprintf(`title: syscall
summary: "Main starts %d goroutines of 2ms, then makes a %dms system call on %d P(s)."
procs: %d
seed: %d
main:
  - go: {count: %d, do: [{cpu: 2ms}]}
  - syscall: %dms
  - cpu: 1ms
  - wait: children
`, k, d, procs, procs, between(r, 1, 99), k, d)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		enter := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindSyscallEnter && e.G == 1 })
		exit := x.find(enter, func(e *gmp.Event) bool { return e.Kind == gmp.KindSyscallExit && e.G == 1 })
		if enter < 0 || exit < 0 {
			return nil
		}
		var qs []Question
		steal := x.find(enter, func(e *gmp.Event) bool { return e.Kind == gmp.KindProcSteal && e.G == 1 })
		if steal >= 0 && steal < exit {
			e := x.events[steal]
			// In a fixed order: map order would make the choices vary.
			var others []string
			for _, c := range []gmp.RetakeCause{gmp.RetakeQueued, gmp.RetakeNoHelper, gmp.RetakeGraceOver, gmp.RetakeStaleSlice} {
				others = append(others, retakeCauses[c])
			}
			qs = append(qs, x.question(r, fmt.Sprintf("While G1 is in its syscall, sysmon takes %v from %v. Why then?", e.P, e.Thread()),
				retakeCauses[e.RetakeCause()], others, steal))
			start := x.find(steal, func(f *gmp.Event) bool { return f.Kind == gmp.KindProcStart && f.P == e.P })
			if start >= 0 && start < exit {
				var ms []string
				for m := 0; m < 5; m++ {
					ms = append(ms, "M"+strconv.Itoa(m))
				}
				qs = append(qs, x.question(r, fmt.Sprintf("Which thread runs %v next?", e.P), x.events[start].M.String(), ms, start))
			}
		}
		ee := x.events[exit]
		var texts []string
		correct := ""
		for _, s := range syscallExits {
			texts = append(texts, s.text)
			if s.rule == ee.Rule {
				correct = s.text
			}
		}
		if correct != "" {
			qs = append(qs, x.question(r, "When G1's syscall returns, how does it go on?", correct, texts, exit))
		}
		return qs
	},
}

var topicPreempt = &Topic{
	Name:  "preempt",
	Title: "sysmon preempts a goroutine that runs too long",
	scenario: func(r *sim.Rand) string {
		h := between(r, 25, 60)
		return fmt.Sprintf(`title: preempt
summary: "On one P, main starts two goroutines that each compute %dms, and waits."
procs: 1
seed: %d
main:
  - go: {count: 2, do: [{cpu: %dms}]}
  - wait: children
`, h, between(r, 1, 99), h)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		block := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoBlock && e.G == 1 })
		first := x.find(block, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart })
		if block < 0 || first < 0 {
			return nil
		}
		g := x.events[first].G
		stop := x.find(first, func(e *gmp.Event) bool {
			return e.Kind == gmp.KindGoStop && e.G == g && e.Reason == gmp.ReasonPreempted
		})
		if stop < 0 {
			return nil
		}
		ran := x.events[stop].Ran()
		next := x.find(stop, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart })
		stops := x.all(func(e *gmp.Event) bool {
			return e.Kind == gmp.KindGoStop && e.G == g && e.Reason == gmp.ReasonPreempted
		})
		times := len(stops)
		qs := []Question{
			x.question(r, "Which goroutine runs first once main waits?", gname(g), []string{"G1", "G2", "G3"}, first),
			x.question(r, fmt.Sprintf("How long does %v run before it is first preempted?", gname(g)),
				aboutMs(ran), msChoices(ran, -10e6, -5e6, 5e6, 10e6), stop),
		}
		if next >= 0 {
			qs = append(qs, x.question(r, "Which goroutine runs after that preemption?",
				gname(x.events[next].G), []string{"G1", "G2", "G3"}, next))
		}
		qs = append(qs, x.question(r, fmt.Sprintf("How many times in all is %v preempted?", gname(g)),
			strconv.Itoa(times), ints(times-1, times+1, times+2, 0), stops...))
		return qs
	},
}

var topicTimers = &Topic{
	Name:  "timers",
	Title: "a timer fires only when some P looks at it",
	scenario: func(r *sim.Rand) string {
		h, s, procs := between(r, 30, 60), between(r, 1, 5), between(r, 1, 2)
		return fmt.Sprintf(`title: timers
summary: "On %d P(s), a goroutine computes %dms while another sleeps %dms."
procs: %d
seed: %d
main:
  - go: {do: [{cpu: %dms}]}
  - go: {do: [{sleep: %dms}, {cpu: 1ms}]}
  - wait: children
`, procs, h, s, procs, between(r, 1, 99), h, s)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		sleep := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoBlock && e.G == 3 })
		wake := x.find(sleep, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoUnblock && e.G == 3 })
		if sleep < 0 || wake < 0 {
			return nil
		}
		slept := x.events[wake].T.Sub(x.events[sleep].T)
		e := x.events[wake]
		places := []string{x.d.Loc(e.To), "P0.runq", "global", "P1.runnext", "P0.runnext"}
		return []Question{
			x.question(r, fmt.Sprintf("G3 sleeps %v. How long after it parks is its timer run?", x.events[sleep].Duration()),
				aboutMs(slept), msChoices(slept, -10e6, -5e6, 5e6, 10e6, 20e6), sleep, wake),
			x.question(r, "Where does G3 go when its timer fires?", x.d.Loc(e.To), places, wake),
		}
	},
}

var topicNetpoll = &Topic{
	Name:  "netpoll",
	Title: "the network poller returns goroutines whose reads are ready",
	scenario: func(r *sim.Rand) string {
		h, d, procs := between(r, 25, 50), between(r, 1, 8), between(r, 1, 2)
		return fmt.Sprintf(`title: netpoll
summary: "On %d P(s), a goroutine computes %dms while another reads from the network, ready after %dms."
procs: %d
seed: %d
main:
  - go: {do: [{cpu: %dms}]}
  - go: {do: [{net: %dms}, {cpu: 1ms}]}
  - wait: children
`, procs, h, d, procs, between(r, 1, 99), h, d)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		ready := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindNetpoll && e.Rule == gmp.RuleNetReady && e.G == 3 })
		start := x.find(ready, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart && e.G == 3 })
		if ready < 0 || start < 0 {
			return nil
		}
		waited := x.events[start].T.Sub(x.events[ready].T)
		unblock := x.find(ready, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoUnblock && e.G == 3 })
		qs := []Question{
			x.question(r, "G3's data arrives. How long after that does G3 run?",
				aboutMs(waited), msChoices(waited, -10e6, -5e6, 5e6, 10e6, 20e6), ready, start),
		}
		if unblock >= 0 {
			ways := map[gmp.Rule]string{
				gmp.RuleNetpollRun:   "the M whose poll returned it runs it next",
				gmp.RuleInjectGlobal: "injectglist puts it on the global queue",
				gmp.RuleInjectLocal:  "injectglist puts it on a P's ring",
			}
			if how, ok := ways[x.events[unblock].Rule]; ok {
				qs = append(qs, x.question(r, "How does G3 get back to a P once a poll finds it ready?", how, []string{
					ways[gmp.RuleNetpollRun], ways[gmp.RuleInjectGlobal], ways[gmp.RuleInjectLocal],
					"its timer fires and puts it in runnext"}, unblock))
			}
		}
		return qs
	},
}
