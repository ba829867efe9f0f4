package gmp

import (
	"fmt"
	"math"
	"time"
)

// A fresh goroutine's cost comes in lumps. newproc1 takes a dead
// goroutine's descriptor when the free lists hold one; otherwise malg
// makes a g (mallocgc, from the span of g-sized objects the P's mcache
// holds) and a stack (stackalloc, from the P's stack cache, which refills
// from the global pool, which carves 32KiB spans into 16 stacks of 2KiB,
// stackpoolalloc). A go statement that finds both at hand is cheap; the
// one that needs a new span pays for the span, and in a fresh process for
// its pages too, touched for the first time (stackpoolalloc links all 16
// stacks of a new span at once). Costs.NewG, calibrate's mean over
// batches of fresh go statements, spreads that over every statement.
//
// Traced on the project's machine (go run ./scripts/freshspans DIR, the
// traces of schedlab real overflow --runs 8 --emit DIR: 300 go statements
// on one P in each of eight fresh processes), a generated program's go
// statements were 0.32µs apart but for two pauses in every 16: 19.3µs at
// the scenario's 9th, 25th, 41st… (a span of stacks) and 5.8µs at its
// 3rd, 19th, 35th… (a span of gs), the first of those 9.8µs. Where they
// fall depends on what the process made before (the runtime's own
// goroutines, runtime/trace's), which on one P is the same in every
// program schedlab real generates.
//
// A FreshSpans holds that shape as shares of NewG, so that the profile's
// NewG stays the mean over each 16 and its shape is the runtime's: with
// one, the model charges a fresh descriptor Base × NewG, and Stack × NewG
// and G × NewG more on the ones that begin a span (FirstG × NewG more
// again on the first span of gs), counting the run's fresh go statements
// from 1. The zero FreshSpans charges NewG on every one, as the defaults
// and every run but verify's on one P do. A pool's workers and the tracer's
// goroutines, whose creation the model does not charge NewG, are not
// counted. Nor are the Ps told apart, though each has its own span of gs
// and its own cache of stacks: on several Ps the lumps fall elsewhere,
// as the other Ps took from the stack pool, and move from run to run (in
// sixteen traced runs of steal, on 2 Ps, the stacks' first lump came at
// the 2nd, 5th, 6th, 8th or 9th go statement), which is why verify sets
// a FreshSpans on one P only.

// spanSlots is how many descriptors a span holds: 16 stacks of 2KiB to a
// 32KiB span (_StackCacheSize), and as many gs to g's span.
const spanSlots = 16

// FreshSpans is how a fresh descriptor's cost falls over a run's fresh go
// statements, as shares of Costs.NewG: Base on each, Stack more on the
// StackAt-th and every spanSlots-th after it, G more on the GAt-th and
// every spanSlots-th after it, and FirstG more again on the GAt-th.
type FreshSpans struct {
	Base, Stack, G, FirstG float64
	StackAt, GAt           int
}

// set says whether f holds a shape.
func (f *FreshSpans) set() bool { return *f != FreshSpans{} }

// validate says what is wrong with f, if anything: its shares must be
// non-negative and keep NewG the mean over a span's statements, each
// lump must fall within the first span.
func (f *FreshSpans) validate() error {
	if !f.set() {
		return nil
	}
	for _, v := range []float64{f.Base, f.Stack, f.G, f.FirstG} {
		if math.IsNaN(v) || v < 0 || v > spanSlots {
			return fmt.Errorf("fresh spans: a share of NewG must be from 0 to %d, got %v", spanSlots, v)
		}
	}
	if mean := f.Base + (f.Stack+f.G)/spanSlots; math.Abs(mean-1) > 0.01 {
		return fmt.Errorf("fresh spans: the shares must average to NewG over %d go statements, got %.3f of it", spanSlots, mean)
	}
	for _, at := range []int{f.StackAt, f.GAt} {
		if at < 1 || at > spanSlots {
			return fmt.Errorf("fresh spans: the first span must begin at go statement 1 to %d, got %d", spanSlots, at)
		}
	}
	return nil
}

// begins says whether the n-th fresh descriptor (from 1) begins a span
// whose first begins at the at-th.
func begins(n, at int) bool { return n >= at && (n-at)%spanSlots == 0 }

// newG is what the next fresh descriptor of a go statement costs (malg):
// Costs.NewG, or its share by Costs.FreshSpans.
func (s *Machine) newG() time.Duration {
	k := &s.cfg.Costs
	f := &k.FreshSpans
	if !f.set() {
		return k.NewG
	}
	s.freshGs++
	n := s.freshGs
	share := f.Base
	if begins(n, f.StackAt) {
		share += f.Stack
	}
	if begins(n, f.GAt) {
		share += f.G
	}
	if n == f.GAt {
		share += f.FirstG
	}
	return time.Duration(math.Round(share * float64(k.NewG)))
}
