package bench

import (
	"math"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	inf := math.Inf(1)
	h := histogram{
		buckets: []float64{math.Inf(-1), 0, 1e-6, 2e-6, 4e-6, inf},
		counts:  []uint64{0, 50, 40, 9, 1},
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{
		{0.01, time.Microsecond}, // bucket [0, 1µs): its upper bound
		{0.50, time.Microsecond}, // the 50th of 100 values is still in it
		{0.51, 2 * time.Microsecond},
		{0.99, 4 * time.Microsecond},
		{1.00, 4 * time.Microsecond}, // the overflow bucket: its lower bound
	} {
		if got := h.quantile(c.q); got != c.want {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := (histogram{buckets: h.buckets, counts: make([]uint64, 5)}).quantile(0.5); got != 0 {
		t.Errorf("quantile of an empty histogram = %v, want 0", got)
	}
}

func TestHistogramSince(t *testing.T) {
	b := []float64{0, 1, 2, 3}
	before := histogram{buckets: b, counts: []uint64{5, 1, 0}}
	after := histogram{buckets: b, counts: []uint64{5, 4, 2}}
	d := after.since(before)
	if d.counts[0] != 0 || d.counts[1] != 3 || d.counts[2] != 2 || d.total() != 5 {
		t.Errorf("since = %v", d.counts)
	}
}

// The runtime's own histogram has the layout quantile expects: one more
// bound than counts, increasing.
func TestRuntimeHistogramLayout(t *testing.T) {
	h := readCounters().schedLatency
	if len(h.buckets) != len(h.counts)+1 {
		t.Fatalf("%d bounds for %d buckets", len(h.buckets), len(h.counts))
	}
	for i := 1; i < len(h.buckets); i++ {
		if !(h.buckets[i] > h.buckets[i-1]) {
			t.Fatalf("bounds not increasing at %d: %v, %v", i, h.buckets[i-1], h.buckets[i])
		}
	}
}
