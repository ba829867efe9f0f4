package bench

import (
	"encoding/json"
	"io"

	"github.com/schedlab/schedlab/core/taskmode"
)

// jsonMeasurement is a Measurement as --format json writes it: snake-case
// names, durations in nanoseconds, so scripts need no parsing.
type jsonMeasurement struct {
	WallNS              int64  `json:"wall_ns"`
	PeakGoroutines      int    `json:"peak_goroutines"`
	HarnessGoroutines   int    `json:"harness_goroutines"`
	PeakHeapBytes       uint64 `json:"peak_heap_bytes"`
	PeakStackBytes      uint64 `json:"peak_stack_bytes"`
	AllocBytes          uint64 `json:"alloc_bytes"`
	AllocObjects        uint64 `json:"alloc_objects"`
	GCCycles            uint64 `json:"gc_cycles"`
	SchedLatencyP50NS   int64  `json:"sched_latency_p50_ns"`
	SchedLatencyP99NS   int64  `json:"sched_latency_p99_ns"`
	SchedLatencySamples uint64 `json:"sched_latency_samples"`
	// The pool's figures are left out for the other modes.
	PoolPeakRunning    *int `json:"pool_peak_running,omitempty"`
	PoolWorkersStarted *int `json:"pool_workers_started,omitempty"`
}

func toJSON(mode taskmode.Mode, m Measurement) jsonMeasurement {
	j := jsonMeasurement{
		WallNS: int64(m.Wall), PeakGoroutines: m.PeakGoroutines, HarnessGoroutines: m.HarnessGoroutines,
		PeakHeapBytes: m.PeakHeapBytes, PeakStackBytes: m.PeakStackBytes,
		AllocBytes: m.AllocBytes, AllocObjects: m.AllocObjects, GCCycles: m.GCCycles,
		SchedLatencyP50NS: int64(m.SchedLatencyP50), SchedLatencyP99NS: int64(m.SchedLatencyP99),
		SchedLatencySamples: m.SchedLatencySamples,
	}
	if mode == taskmode.Pool {
		j.PoolPeakRunning, j.PoolWorkersStarted = &m.PoolPeakRunning, &m.PoolWorkersStarted
	}
	return j
}

// jsonResult is a mode's medians, with each run's figures after them.
type jsonResult struct {
	Mode string `json:"mode"`
	jsonMeasurement
	TasksPerSecond float64           `json:"tasks_per_sec"`
	WallMinNS      int64             `json:"wall_min_ns"`
	WallMaxNS      int64             `json:"wall_max_ns"`
	Runs           []jsonMeasurement `json:"runs"`
}

// WriteJSON writes the report as one JSON object: the settings and the
// machine, then "modes", an array of per-mode results in the order run.
func (rep *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Tasks        int          `json:"tasks"`
		Concurrency  int          `json:"concurrency"`
		Shape        string       `json:"shape"`
		TaskTimeNS   int64        `json:"task_time_ns"`
		Runs         int          `json:"runs"`
		TraceMode    string       `json:"trace_mode,omitempty"`
		GOMAXPROCS   int          `json:"gomaxprocs"`
		NumCPU       int          `json:"num_cpu"`
		GoVersion    string       `json:"go_version"`
		GOOS         string       `json:"goos"`
		GOARCH       string       `json:"goarch"`
		SpinPerMicro float64      `json:"spin_per_us"`
		SampleNS     int64        `json:"sample_period_ns"`
		Modes        []jsonResult `json:"modes"`
		Warning      string       `json:"warning,omitempty"`
	}{
		Tasks: rep.Tasks, Concurrency: rep.Concurrency, Shape: rep.Shape.String(), TaskTimeNS: int64(rep.TaskTime),
		Runs: rep.Runs, GOMAXPROCS: rep.GOMAXPROCS, NumCPU: rep.NumCPU,
		GoVersion: rep.GoVersion, GOOS: rep.GOOS, GOARCH: rep.GOARCH,
		SpinPerMicro: rep.SpinPerMicro, SampleNS: int64(sampleEvery),
		Modes: []jsonResult{}, Warning: rep.spreadWarning(),
	}
	if rep.Traced {
		out.TraceMode = rep.TraceMode.String()
	}
	for _, r := range rep.Results {
		lo, hi := r.WallRange()
		j := jsonResult{Mode: r.Mode.String(), jsonMeasurement: toJSON(r.Mode, r.Measurement), TasksPerSecond: r.TasksPerSecond(),
			WallMinNS: int64(lo), WallMaxNS: int64(hi)}
		for _, m := range r.Runs {
			j.Runs = append(j.Runs, toJSON(r.Mode, m))
		}
		out.Modes = append(out.Modes, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
