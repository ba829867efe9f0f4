package exercise

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Topics about the run queues: runnext, the ring and its overflow, the
// fairness check and stealing.

var topicRunnext = &Topic{
	Name:  "runnext",
	Title: "runnext: the newest goroutine runs first",
	scenario: func(r *sim.Rand) string {
		k, work := between(r, 3, 6), between(r, 1, 3)
		block := []string{"sleep: 1ms", "wait: children"}[r.Int63n(2)]
		return fmt.Sprintf(`title: runnext
summary: "On one P, main starts %d goroutines of %dms of work each, then blocks (%s)."
procs: 1
seed: %d
main:
  - go: {count: %d, do: [{cpu: %dms}]}
  - %s
`, k, work, block, between(r, 1, 99), k, work, block)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		block := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoBlock && e.G == 1 })
		if block < 0 {
			return nil
		}
		k := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		last := gmp.GID(k + 1)
		created := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate && e.G == last })
		first := x.find(block, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart })
		if first < 0 || created < 0 {
			return nil
		}
		second := x.find(first+1, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart })
		ring := x.events[created].RingLen()
		qs := []Question{
			x.question(r, fmt.Sprintf("G1 creates G2 to G%d, in that order, then blocks. How many goroutines are in P0's ring (not counting runnext) when it blocks?", last),
				strconv.Itoa(ring), ints(ring-1, ring+1, k, 0), created),
			x.question(r, "Which goroutine runs first once G1 has blocked?",
				gname(x.events[first].G), gnames(2, last), first),
		}
		if second >= 0 {
			qs = append(qs, x.question(r, "And which goroutine runs after it?",
				gname(x.events[second].G), gnames(1, last), second))
		}
		return qs
	},
}

var topicOverflow = &Topic{
	Name:  "overflow",
	Title: "a full ring overflows to the global queue",
	scenario: func(r *sim.Rand) string {
		n := between(r, 258, 420)
		return fmt.Sprintf(`title: overflow
summary: "On one P, main starts %d goroutines in a row, more than the ring's 256 slots hold."
procs: 1
seed: %d
main:
  - go: {count: %d, do: [{cpu: 100us}]}
  - wait: children
`, n, between(r, 1, 99), n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		ov := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindRunqOverflow })
		if ov < 0 {
			return nil
		}
		e := x.events[ov]
		moved := e.Moved()
		n := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		qs := []Question{
			x.question(r, fmt.Sprintf("Main creates G2 to G%d in a row on one P. Creating which goroutine first overflows P0's ring?", n+1),
				gname(e.G), []string{gname(e.G - 1), gname(e.G + 1), "G257", "G258", "G259", gname(gmp.GID(n + 1))}, ov),
			x.question(r, "How many goroutines move to the global queue in that overflow (the new one included)?",
				strconv.Itoa(moved), ints(moved-1, 128, 256, 1, 127), ov),
		}
		gq := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoBlock && e.G == 1 })
		if gq >= 0 {
			// Overflows after the first add to the global queue in the
			// same way: the answer counts what is there when main parks.
			total := 0
			last := ov
			for i := 0; i < gq; i++ {
				if x.events[i].Kind == gmp.KindRunqOverflow {
					total = x.events[i].GlobalLen()
					last = i
				}
			}
			qs = append(qs, x.question(r, "How many goroutines are on the global queue when main waits for its children?",
				strconv.Itoa(total), ints(total-1, total+1, moved, n-256, n-255), last))
		}
		return qs
	},
}

var topicFairness61 = &Topic{
	Name:  "fairness61",
	Title: "every 61st schedtick looks at the global queue first",
	scenario: func(r *sim.Rand) string {
		n := between(r, 300, 400)
		return fmt.Sprintf(`title: fairness61
summary: "On one P, main starts %d goroutines of 50µs, so the ring overflows and the global queue waits behind it."
procs: 1
seed: %d
main:
  - go: {count: %d, do: [{cpu: 50us}]}
  - wait: children
`, n, between(r, 1, 99), n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		fair := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart && e.Rule == gmp.RuleGlobalFairness })
		if fair < 0 {
			return nil
		}
		e := x.events[fair]
		next := x.find(fair+1, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart })
		qs := []Question{
			x.question(r, "P0's ring and the global queue both hold goroutines. At which schedtick does P0 first look at the global queue before its ring?",
				strconv.Itoa(e.Schedtick()-1), ints(e.Schedtick()-2, e.Schedtick(), 60, 62, 122, 256), fair),
			x.question(r, "Where does the goroutine P0 runs then come from?",
				"the head of the global queue (the 1-in-61 fairness check)",
				[]string{"the head of P0's ring", "P0's runnext", "the tail of the global queue", "stolen from another P"}, fair),
		}
		if next >= 0 && x.events[next].Rule == gmp.RuleRunqHead {
			qs = append(qs, x.question(r, "And the goroutine after it?",
				"the head of P0's ring", []string{"the head of the global queue (the 1-in-61 fairness check)",
					"P0's runnext", "the tail of the global queue"}, next))
		}
		return qs
	},
}

var topicSteal = &Topic{
	Name:  "steal",
	Title: "an idle P steals half of a busy P's ring",
	scenario: func(r *sim.Rand) string {
		n := between(r, 6, 40)
		procs := between(r, 2, 3)
		return fmt.Sprintf(`title: steal
summary: "Main starts %d goroutines of 1ms on P0, then computes; %d other Ps are idle."
procs: %d
seed: %d
main:
  - go: {count: %d, do: [{cpu: 1ms}]}
  - cpu: 5ms
  - wait: children
`, n, procs-1, procs, between(r, 1, 99), n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		st := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindSteal && e.Rule == gmp.RuleRunqsteal })
		if st < 0 {
			return nil
		}
		e := x.events[st]
		var ps []string
		for p := 0; p < x.sc.Procs; p++ {
			ps = append(ps, "P"+strconv.Itoa(p))
		}
		n := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		return []Question{
			x.question(r, "Which P steals first?", e.P.String(), ps, st),
			x.question(r, "How many goroutines does that first steal take?",
				strconv.Itoa(e.Stolen()), ints(e.Stolen()-1, e.Stolen()+1, e.Stolen()*2, e.Stolen()+e.Left(), 1), st),
			x.question(r, "Which goroutine does the thief run first?",
				gname(e.G), gnames(2, gmp.GID(n+1)), st),
		}
	},
}
