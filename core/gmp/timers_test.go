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

// stepOf inverts the enumeration: for every count, start and stride, the
// step it gives each P is the step at which the enumeration visits it,
// and seek lands there.
func TestRandomEnumStepOf(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8, 12, 64, 97, 256} {
		o := newRandomOrder(n)
		for r := range uint32(300) {
			e := o.start(r * 2654435761)
			first := e
			for k := 0; !e.done(); k++ {
				if got := first.stepOf(e.pos); got != k {
					t.Fatalf("n=%d start=%d inc=%d: P %d is visited at step %d, stepOf says %d", n, first.start, first.inc, e.pos, k, got)
				}
				s := first
				s.seek(k)
				if s.pos != e.pos || s.i != k {
					t.Fatalf("n=%d: seek(%d) lands on P %d, step %d; the enumeration is at P %d", n, k, s.pos, s.i, e.pos)
				}
				e.next()
			}
		}
	}
}
