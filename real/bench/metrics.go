package bench

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
)

// The runtime/metrics this package reads. Gauges are sampled during a run;
// counters are read before and after it.
const (
	metricHeapObjects  = "/memory/classes/heap/objects:bytes" // live and unswept dead objects
	metricHeapStacks   = "/memory/classes/heap/stacks:bytes"  // stack memory reserved from the heap
	metricAllocBytes   = "/gc/heap/allocs:bytes"
	metricAllocObjects = "/gc/heap/allocs:objects"
	metricGCCycles     = "/gc/cycles/total:gc-cycles"
	metricSchedLatency = "/sched/latencies:seconds"
)

// checkMetrics fails if this runtime lacks one of the metrics, which would
// otherwise panic in the middle of a run.
func checkMetrics() error {
	want := []metrics.Description{
		{Name: metricHeapObjects, Kind: metrics.KindUint64}, {Name: metricHeapStacks, Kind: metrics.KindUint64},
		{Name: metricAllocBytes, Kind: metrics.KindUint64}, {Name: metricAllocObjects, Kind: metrics.KindUint64},
		{Name: metricGCCycles, Kind: metrics.KindUint64}, {Name: metricSchedLatency, Kind: metrics.KindFloat64Histogram},
	}
	all := metrics.All()
	for _, w := range want {
		if !slices.ContainsFunc(all, func(d metrics.Description) bool { return d.Name == w.Name && d.Kind == w.Kind }) {
			return fmt.Errorf("this Go runtime (%s) has no metric %s", runtime.Version(), w.Name)
		}
	}
	return nil
}

// level is what a gauge reading shows at one instant; as a peak it holds
// the maximum of each figure over many readings.
type level struct {
	goroutines int
	heapBytes  uint64
	stackBytes uint64
}

func (l *level) raise(o level) {
	l.goroutines = max(l.goroutines, o.goroutines)
	l.heapBytes = max(l.heapBytes, o.heapBytes)
	l.stackBytes = max(l.stackBytes, o.stackBytes)
}

// gauge reads the instantaneous figures. Each goroutine that samples needs
// its own: metrics.Read writes into the gauge's slice.
type gauge struct{ s []metrics.Sample }

func newGauge() *gauge {
	return &gauge{s: []metrics.Sample{{Name: metricHeapObjects}, {Name: metricHeapStacks}}}
}

// read takes the smaller of two goroutine counts, one either side of the
// metrics read. runtime.NumGoroutine is not a consistent snapshot: it
// subtracts the free lists of dead goroutines, global and per P, one after
// another, and a P that moves a batch of up to 33 from its list to the
// global one (gfput in runtime/proc.go) hides them from both for a moment,
// so one reading can be that many too high. Two readings a metrics read
// apart rarely both fall in one such moment, rarely is not never, and the
// tests allow for it (counterSlack).
func (g *gauge) read() level {
	n := runtime.NumGoroutine()
	metrics.Read(g.s)
	n = min(n, runtime.NumGoroutine())
	return level{goroutines: n, heapBytes: g.s[0].Value.Uint64(), stackBytes: g.s[1].Value.Uint64()}
}

// counters are the cumulative figures, read before and after a run.
type counters struct {
	allocBytes, allocObjects, gcCycles uint64
	schedLatency                       histogram
}

func readCounters() counters {
	s := []metrics.Sample{{Name: metricAllocBytes}, {Name: metricAllocObjects}, {Name: metricGCCycles}, {Name: metricSchedLatency}}
	metrics.Read(s)
	h := s[3].Value.Float64Histogram()
	return counters{
		allocBytes: s[0].Value.Uint64(), allocObjects: s[1].Value.Uint64(), gcCycles: s[2].Value.Uint64(),
		// Read may reuse the histogram's memory: keep a copy.
		schedLatency: histogram{counts: slices.Clone(h.Counts), buckets: slices.Clone(h.Buckets)},
	}
}

// flushAllocCounts makes the allocation counters exact. The runtime counts
// a small allocation only when the span it came from leaves its P's cache
// (full, or at a GC), so a run of a few hundred tasks could read as no
// allocation at all. runtime.ReadMemStats flushes every cache, in a brief
// stop-the-world: it is called just outside the timed part of a run, and
// never by the sampler.
func flushAllocCounts() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
}
