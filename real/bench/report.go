package bench

import (
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
)

// Measurement is what one run of one mode showed.
type Measurement struct {
	// Wall is the time from the first submit to the last task's end.
	Wall time.Duration
	// PeakGoroutines is the most goroutines alive at once, less
	// HarnessGoroutines: those alive just before the run (the caller's,
	// and the sampler).
	PeakGoroutines    int
	HarnessGoroutines int
	// PeakHeapBytes and PeakStackBytes are the highest readings of
	// /memory/classes/heap/objects:bytes and
	// /memory/classes/heap/stacks:bytes: the whole process's, not only
	// the run's.
	PeakHeapBytes  uint64
	PeakStackBytes uint64
	// AllocBytes, AllocObjects and GCCycles are what the run added to
	// /gc/heap/allocs:bytes, /gc/heap/allocs:objects and
	// /gc/cycles/total:gc-cycles.
	AllocBytes   uint64
	AllocObjects uint64
	GCCycles     uint64
	// SchedLatencyP50 and P99 come from the run's share of
	// /sched/latencies:seconds, which had SchedLatencySamples values.
	SchedLatencyP50     time.Duration
	SchedLatencyP99     time.Duration
	SchedLatencySamples uint64
	// PoolPeakRunning and PoolWorkersStarted are the pool's Stats
	// (PeakRunning, WorkersStarted); zero in the other modes.
	PoolPeakRunning    int
	PoolWorkersStarted int
}

// Result is a mode's figures: each the median of its runs.
type Result struct {
	Mode taskmode.Mode
	Measurement
	Runs  []Measurement
	tasks int
}

// TasksPerSecond is the throughput at the median wall time.
func (r *Result) TasksPerSecond() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.tasks) / r.Wall.Seconds()
}

// Report is a bench: its settings, the machine, and a result per mode.
type Report struct {
	Tasks       int
	Concurrency int
	Shape       Shape
	TaskTime    time.Duration
	Runs        int
	// Traced is set if a trace was written, of one more run of TraceMode.
	Traced    bool
	TraceMode taskmode.Mode

	GOMAXPROCS int
	NumCPU     int
	GoVersion  string // runtime.Version()
	GOOS       string
	GOARCH     string
	// SpinPerMicro is the busy loop's calibrated speed, in iterations per
	// microsecond: a CPU task runs TaskTime's worth of them.
	SpinPerMicro float64

	Results []*Result
}

// integer is what median can take the middle of.
type integer interface {
	~int | ~int64 | ~uint64
}

// median returns the middle value of xs, or the mean of the two middle
// ones when there is an even number.
func median[T integer](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	lo, hi := s[n/2-1], s[n/2]
	return lo + (hi-lo)/2
}

// medianOf returns the median of one figure over runs.
func medianOf[T integer](runs []Measurement, figure func(*Measurement) T) T {
	xs := make([]T, len(runs))
	for i := range runs {
		xs[i] = figure(&runs[i])
	}
	return median(xs)
}

// medians returns, figure by figure, the median of runs. Each figure is
// taken on its own (as benchstat does), so the result need not be one of
// the runs; every relation that holds within each run between two figures
// that are ordered (p50 <= p99) still holds, since the median keeps order.
func medians(runs []Measurement) Measurement {
	return Measurement{
		Wall:                medianOf(runs, func(m *Measurement) time.Duration { return m.Wall }),
		PeakGoroutines:      medianOf(runs, func(m *Measurement) int { return m.PeakGoroutines }),
		HarnessGoroutines:   medianOf(runs, func(m *Measurement) int { return m.HarnessGoroutines }),
		PeakHeapBytes:       medianOf(runs, func(m *Measurement) uint64 { return m.PeakHeapBytes }),
		PeakStackBytes:      medianOf(runs, func(m *Measurement) uint64 { return m.PeakStackBytes }),
		AllocBytes:          medianOf(runs, func(m *Measurement) uint64 { return m.AllocBytes }),
		AllocObjects:        medianOf(runs, func(m *Measurement) uint64 { return m.AllocObjects }),
		GCCycles:            medianOf(runs, func(m *Measurement) uint64 { return m.GCCycles }),
		SchedLatencyP50:     medianOf(runs, func(m *Measurement) time.Duration { return m.SchedLatencyP50 }),
		SchedLatencyP99:     medianOf(runs, func(m *Measurement) time.Duration { return m.SchedLatencyP99 }),
		SchedLatencySamples: medianOf(runs, func(m *Measurement) uint64 { return m.SchedLatencySamples }),
		PoolPeakRunning:     medianOf(runs, func(m *Measurement) int { return m.PoolPeakRunning }),
		PoolWorkersStarted:  medianOf(runs, func(m *Measurement) int { return m.PoolWorkersStarted }),
	}
}
