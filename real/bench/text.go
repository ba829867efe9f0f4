package bench

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/table"
)

// rows are the figures of the text table.
var rows = []table.Row[*Result]{
	{Label: "wall time", Cell: func(r *Result) string { return table.Duration(r.Wall) }},
	{Label: "  fastest–slowest", Cell: func(r *Result) string { return r.rangeText() }},
	{Label: "tasks/s", Cell: func(r *Result) string { return table.Count(uint64(math.Round(r.TasksPerSecond()))) }},
	{Label: "peak goroutines", Cell: func(r *Result) string { return table.Count(uint64(r.PeakGoroutines)) }},
	{Label: "peak heap", Cell: func(r *Result) string { return table.Bytes(r.PeakHeapBytes) }},
	{Label: "peak stacks", Cell: func(r *Result) string { return table.Bytes(r.PeakStackBytes) }},
	{Label: "allocated", Cell: func(r *Result) string { return table.Bytes(r.AllocBytes) }},
	{Label: "allocated objects", Cell: func(r *Result) string { return table.Count(r.AllocObjects) }},
	{Label: "GC cycles", Cell: func(r *Result) string { return table.Count(r.GCCycles) }},
	{Label: "sched latency p50", Cell: func(r *Result) string { return table.Duration(r.SchedLatencyP50) }},
	{Label: "sched latency p99", Cell: func(r *Result) string { return table.Duration(r.SchedLatencyP99) }},
	{Label: "pool peak running", Cell: func(r *Result) string {
		if r.Mode != taskmode.Pool {
			return "-"
		}
		return table.Count(uint64(r.PoolPeakRunning))
	}},
}

// WriteText writes the report as a table, a column per mode, between a
// line of settings and notes on what the figures mean.
func (rep *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "schedlab bench · %s · concurrency %s · %s · GOMAXPROCS %d, %d CPUs, %s %s/%s\n\n",
		rep.workload(), table.Count(uint64(rep.Concurrency)), rep.runsText(),
		rep.GOMAXPROCS, rep.NumCPU, rep.GoVersion, rep.GOOS, rep.GOARCH)
	if err := table.Write(w, rep.Results, func(r *Result) string { return r.Mode.String() }, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npeak goroutines: sampled every %v, less the %s alive before each run (the harness's)\n",
		sampleEvery, rep.harnessText())
	if line := rep.spreadWarning(); line != "" {
		fmt.Fprintln(w, line)
	}
	if line := rep.interpretation(); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}

// workload says what the tasks are: "20,000 tasks of 50.0µs cpu".
func (rep *Report) workload() string {
	n, d := table.Count(uint64(rep.Tasks)), table.Duration(rep.TaskTime)
	if rep.Shape == Mixed {
		return fmt.Sprintf("%s tasks of %s, cpu and sleep alternating", n, d)
	}
	return fmt.Sprintf("%s tasks of %s %s", n, d, rep.Shape)
}

func (rep *Report) runsText() string {
	if rep.Runs == 1 {
		return "1 run"
	}
	return fmt.Sprintf("median of %d runs", rep.Runs)
}

// harnessText says how many goroutines the peaks leave out: "3", or "3 to
// 4" if the modes' medians differ.
func (rep *Report) harnessText() string {
	lo, hi := math.MaxInt, 0
	for _, r := range rep.Results {
		lo, hi = min(lo, r.HarnessGoroutines), max(hi, r.HarnessGoroutines)
	}
	if lo == hi {
		return fmt.Sprintf("%d goroutines", lo)
	}
	return fmt.Sprintf("%d to %d goroutines", lo, hi)
}

// interpretation is one line that reads the table, or "" when there is
// nothing to compare: it only restates figures, next to raw's.
func (rep *Report) interpretation() string {
	var raw *Result
	var bounded []string
	for _, r := range rep.Results {
		if r.Mode == taskmode.Raw {
			raw = r
		} else {
			bounded = append(bounded, fmt.Sprintf("%s for %s", table.Count(uint64(r.PeakGoroutines)), r.Mode))
		}
	}
	if raw == nil || len(bounded) == 0 {
		return ""
	}
	return fmt.Sprintf("goroutines at most: %s, vs %s for raw", strings.Join(bounded, ", "), table.Count(uint64(raw.PeakGoroutines)))
}
