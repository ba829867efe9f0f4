package exercise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/teach/quiz"
)

// What does this print? The question most published scheduler puzzles
// ask: main starts goroutines that each print their number, prints its
// own, and waits, yields or sleeps. On one P the answer follows from
// runnext and the ring; on two it depends on how soon the second P's
// thread wakes, so the scenario starts warm, with noise, and the question
// is about the run of its seed.

// printEndings is what main does after its own print.
var printEndings = []struct{ yaml, words string }{
	{"  - wait: children\n", "waits for them"},
	{"  - gosched\n  - wait: children\n", "calls runtime.Gosched, then waits for them"},
	{"  - sleep: 1ms\n", "sleeps 1ms and returns"},
}

var topicPrintOrder = &Topic{
	Name:  "print-order",
	Title: "what does this print? runnext, the ring, and a second P",
	scenario: func(r *sim.Rand) string {
		k, procs := between(r, 2, 4), between(r, 1, 2)
		end := printEndings[r.Int63n(int64(len(printEndings)))]
		noise := ""
		if procs > 1 {
			noise = "noise: true\n"
		}
		var b strings.Builder
		fmt.Fprintf(&b, `title: print-order
summary: "On %d P(s), main starts %d goroutines that each print their number, prints %d, then %s."
procs: %d
start: warm
%sseed: %d
main:
`, procs, k, k+1, end.words, procs, noise, between(r, 1, 99))
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  - go: {do: [{print: \"%d\"}]}\n", i)
		}
		fmt.Fprintf(&b, "  - print: \"%d\"\n%s", k+1, end.yaml)
		return b.String()
	},
	ask: func(x *run, r *sim.Rand) []Question {
		idx := x.all(func(e *gmp.Event) bool { return e.Kind == gmp.KindPrint })
		if len(idx) < 2 {
			return nil
		}
		var lines []string
		for _, i := range idx {
			lines = append(lines, x.events[i].Text())
		}
		text := "What does the program print?"
		if x.sc.Procs > 1 {
			text = "What does this run print (the order varies from run to run on 2 Ps)?"
		}
		last := x.events[idx[len(idx)-1]]
		k := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		return []Question{
			x.question(r, text, quiz.OrderText(lines), reorderings(lines), idx...),
			x.question(r, "Which goroutine prints the last line?", gname(last.G), gnames(1, gmp.GID(k+1)), idx[len(idx)-1]),
		}
	},
}

// reorderings are the same lines in other orders: each moved to the
// front, neighbours swapped, and the order reversed.
func reorderings(lines []string) []string {
	var out []string
	add := func(ls []string) {
		if s := quiz.OrderText(ls); s != quiz.OrderText(lines) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for i := range lines {
		add(append([]string{lines[i]}, slices.Delete(slices.Clone(lines), i, i+1)...))
		if i+1 < len(lines) {
			swapped := slices.Clone(lines)
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
			add(swapped)
		}
	}
	reversed := slices.Clone(lines)
	slices.Reverse(reversed)
	add(reversed)
	return out
}

// Gosched: main starts k goroutines and yields. runtime.Gosched puts the
// caller on the global queue's tail, not its P's ring, so on one P the
// goroutines in runnext and the ring run first, and a yielding goroutine
// comes back only when the P's own queue is empty (or at the 1-in-61
// check). Each goroutine prints before and after its own yield.
var topicGosched = &Topic{
	Name:  "gosched",
	Title: "runtime.Gosched goes to the global queue's tail",
	scenario: func(r *sim.Rand) string {
		k := between(r, 2, 4)
		var b strings.Builder
		fmt.Fprintf(&b, `title: gosched
summary: "On one P, main starts %d goroutines that each print a, yield (runtime.Gosched) and print b, then waits for them."
procs: 1
seed: %d
main:
`, k, between(r, 1, 99))
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "  - go: {do: [{print: \"%da\"}, gosched, {print: \"%db\"}]}\n", i, i)
		}
		b.WriteString("  - wait: children\n")
		return b.String()
	},
	ask: func(x *run, r *sim.Rand) []Question {
		yield := x.find(0, func(e *gmp.Event) bool { return e.Rule == gmp.RuleGosched })
		idx := x.all(func(e *gmp.Event) bool { return e.Kind == gmp.KindPrint })
		if yield < 0 || len(idx) < 4 {
			return nil
		}
		e := x.events[yield]
		var lines []string
		for _, i := range idx {
			lines = append(lines, x.events[i].Text())
		}
		return []Question{
			x.question(r, fmt.Sprintf("%v calls runtime.Gosched. Where does it go?", e.G),
				"the tail of the global queue", []string{"the tail of P0's ring", "P0's runnext", "the head of P0's ring"}, yield),
			x.question(r, "What does the program print?", quiz.OrderText(lines), reorderings(lines), idx...),
		}
	},
}
