package realbench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// row is one line of the text table: a label and how to show a result.
type row struct {
	label string
	cell  func(*Result) string
}

var rows = []row{
	{"wall time", func(r *Result) string { return formatDuration(r.Wall) }},
	{"tasks/s", func(r *Result) string { return formatCount(uint64(math.Round(r.TasksPerSecond()))) }},
	{"peak goroutines", func(r *Result) string { return formatCount(uint64(r.PeakGoroutines)) }},
	{"peak heap", func(r *Result) string { return formatBytes(r.PeakHeapBytes) }},
	{"peak stacks", func(r *Result) string { return formatBytes(r.PeakStackBytes) }},
	{"allocated", func(r *Result) string { return formatBytes(r.AllocBytes) }},
	{"allocated objects", func(r *Result) string { return formatCount(r.AllocObjects) }},
	{"GC cycles", func(r *Result) string { return formatCount(r.GCCycles) }},
	{"sched latency p50", func(r *Result) string { return formatDuration(r.SchedLatencyP50) }},
	{"sched latency p99", func(r *Result) string { return formatDuration(r.SchedLatencyP99) }},
	{"pool peak running", func(r *Result) string {
		if r.Mode != Pool {
			return "-"
		}
		return formatCount(uint64(r.PoolPeakRunning))
	}},
}

// WriteText writes the report as a table, a column per mode, between a
// line of settings and notes on what the figures mean.
func (rep *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "schedlab bench · %s · concurrency %s · %s · GOMAXPROCS %d, %d CPUs, %s %s/%s\n\n",
		rep.workload(), formatCount(uint64(rep.Concurrency)), rep.runsText(),
		rep.GOMAXPROCS, rep.NumCPU, rep.GoVersion, rep.GOOS, rep.GOARCH)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := []string{""}
	for _, r := range rep.Results {
		header = append(header, r.Mode.String())
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, rw := range rows {
		cells := []string{rw.label}
		for _, r := range rep.Results {
			cells = append(cells, rw.cell(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npeak goroutines: sampled every %v, less the %s alive before each run (the harness's)\n",
		sampleEvery, rep.harnessText())
	if line := rep.interpretation(); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}

// workload says what the tasks are: "20,000 tasks of 50.0µs cpu".
func (rep *Report) workload() string {
	n, d := formatCount(uint64(rep.Tasks)), formatDuration(rep.TaskTime)
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
		if r.Mode == Raw {
			raw = r
		} else {
			bounded = append(bounded, fmt.Sprintf("%s for %s", formatCount(uint64(r.PeakGoroutines)), r.Mode))
		}
	}
	if raw == nil || len(bounded) == 0 {
		return ""
	}
	return fmt.Sprintf("goroutines at most: %s, vs %s for raw", strings.Join(bounded, ", "), formatCount(uint64(raw.PeakGoroutines)))
}
