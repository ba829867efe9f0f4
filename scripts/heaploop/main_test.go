package main

import (
	"regexp"
	"slices"
	"testing"
)

// The heap hands wake-ups out in time order, whatever order they came in.
func TestQueueOrder(t *testing.T) {
	r := rng(1)
	var q queue
	var want []int64
	for range 1000 {
		at := int64(r.next() % 10_000)
		q.push(wakeup{at: at})
		want = append(want, at)
	}
	slices.Sort(want)
	for i, at := range want {
		if q[0].at != at {
			t.Fatalf("pop %d: %d, want %d", i, q[0].at, at)
		}
		// Replace the earliest with one later than all: a pop.
		q.replaceMin(wakeup{at: 1 << 40})
	}
}

// A run prints its shape and its CPU time per step.
func TestRunLine(t *testing.T) {
	line := run(1000, 10, 100_000, 1000)
	if !regexp.MustCompile(`^heaploop n=1000 k=10 steps=100000 cpu_ns_per_step=([0-9.]+|n/a)$`).MatchString(line) {
		t.Errorf("line %q", line)
	}
}
