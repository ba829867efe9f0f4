package gmp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/core/sim"
)

// earliest must give exactly the first k timers of the full sort, ties on
// When broken by arrival as the heap breaks them, whatever removals have
// done to the heap's shape.
func TestEarliestTimersAreTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		var h timerHeap
		n := r.IntN(200)
		for i := range n {
			// Few distinct times, so that many timers tie.
			h.push(Timer{When: sim.Time(r.IntN(20)), G: GID(i + 1)})
		}
		for range r.IntN(n + 1) {
			if h.len() > 0 && r.IntN(2) == 0 {
				h.removeAt(r.IntN(h.len()))
			}
		}
		before := slices.Clone(h.items)
		all := h.sorted()
		for _, k := range []int{0, 1, 4, 9, 17, n + 3} {
			got := h.earliest(k, nil)
			want := all[:min(k, len(all))]
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d timers, k=%d: earliest gives %v, the sort %v", trial, h.len(), k, got, want)
			}
		}
		if !slices.Equal(h.items, before) {
			t.Fatalf("trial %d: earliest changed the heap", trial)
		}
	}
}
