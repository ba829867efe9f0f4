package bench

import (
	"math"
	"time"
)

// histogram is a runtime/metrics Float64Histogram of durations in seconds:
// counts[i] values fell in [buckets[i], buckets[i+1]).
type histogram struct {
	counts  []uint64
	buckets []float64
}

// since returns the values recorded between an earlier reading and h. Both
// come from the same metric, so their buckets agree.
func (h histogram) since(earlier histogram) histogram {
	d := histogram{counts: make([]uint64, len(h.counts)), buckets: h.buckets}
	for i := range h.counts {
		if i < len(earlier.counts) {
			d.counts[i] = h.counts[i] - earlier.counts[i]
		} else {
			d.counts[i] = h.counts[i]
		}
	}
	return d
}

// total is the number of values in h.
func (h histogram) total() uint64 {
	var n uint64
	for _, c := range h.counts {
		n += c
	}
	return n
}

// quantile returns the upper bound of the bucket that holds the q-th
// quantile (0 < q <= 1): the smallest bound that at least q of the values
// are below. The runtime's buckets are a quarter of a power of two wide,
// so the bound overstates the value by at most 25%. The overflow bucket
// has no upper bound: its lower one is returned. An empty histogram gives 0.
func (h histogram) quantile(q float64) time.Duration {
	n := h.total()
	if n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen < rank {
			continue
		}
		bound := h.buckets[i+1]
		if math.IsInf(bound, 1) {
			bound = h.buckets[i]
		}
		if bound <= 0 || math.IsInf(bound, -1) {
			return 0
		}
		return time.Duration(math.Round(bound * 1e9))
	}
	return 0 // unreachable: seen reaches n >= rank
}
