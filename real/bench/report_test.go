package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/table"
)

func TestMedian(t *testing.T) {
	if got := median([]int{5, 1, 3}); got != 3 {
		t.Errorf("median of 5 1 3 = %d", got)
	}
	if got := median([]time.Duration{4, 1, 10, 2}); got != 3 {
		t.Errorf("median of 4 1 10 2 = %d, want 3", got)
	}
	if got := median([]uint64{math.MaxUint64, math.MaxUint64 - 2}); got != math.MaxUint64-1 {
		t.Errorf("median overflows: %d", got)
	}
	runs := []Measurement{
		{Wall: 3, SchedLatencyP50: 1, SchedLatencyP99: 9},
		{Wall: 1, SchedLatencyP50: 7, SchedLatencyP99: 8},
		{Wall: 2, SchedLatencyP50: 5, SchedLatencyP99: 5},
	}
	m := medians(runs)
	if m.Wall != 2 || m.SchedLatencyP50 != 5 || m.SchedLatencyP99 != 8 {
		t.Errorf("medians %+v", m)
	}
}

func TestCheckRanOnce(t *testing.T) {
	ran := make([]atomic.Uint32, 10)
	for i := range ran {
		ran[i].Store(1)
	}
	if err := checkRanOnce(taskmode.Pool, ran); err != nil {
		t.Fatal(err)
	}
	ran[3].Store(0)
	ran[7].Store(0)
	ran[5].Store(2)
	err := checkRanOnce(taskmode.Pool, ran)
	want := "pool: 2 of 10 tasks never ran (the first: task 3); 1 of 10 tasks ran more than once (the first: task 5, 2 times)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Tasks = 0 }, "tasks 0: want at least 1"},
		{func(c *Config) { c.Tasks = MaxTasks + 1 }, "tasks 10000001: want at most 10000000"},
		{func(c *Config) { c.Concurrency = -1 }, "concurrency -1: want at least 1"},
		{func(c *Config) { c.TaskTime = 0 }, "task-time 0s: want more than 0"},
		{func(c *Config) { c.Runs = 0 }, "runs 0: want 1 to 100"},
		{func(c *Config) { c.Modes = nil }, `modes "": want at least one mode`},
		{func(c *Config) { c.Modes = []taskmode.Mode{taskmode.Pool, taskmode.Pool} }, "modes pool: want each mode once"},
		{func(c *Config) { c.Shape = 7 }, "shape shape(7): want cpu, sleep or mixed"},
	} {
		cfg := DefaultConfig()
		c.change(&cfg)
		err := cfg.Validate()
		if _, ok := err.(*ConfigError); !ok || err.Error() != c.want {
			t.Errorf("got %v, want ConfigError %q", err, c.want)
		}
	}
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Errorf("the default config: %v", err)
	}
}

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	l := NewProgressLine(&buf)
	l.Clear() // nothing shown: nothing to erase
	l.Show(Progress{Calibrating: true})
	l.Show(Progress{Mode: taskmode.Semaphore, Run: 2, Runs: 3, Done: 1500, Total: 20000})
	l.Show(Progress{Mode: taskmode.Raw, Run: 4, Runs: 3, Traced: true, Done: 7, Total: 7})
	l.Clear()
	want := "\r\x1b[Kschedlab bench: calibrating the CPU task" +
		"\r\x1b[Kschedlab bench: semaphore, run 2 of 3: 1,500 / 20,000 tasks" +
		"\r\x1b[Kschedlab bench: raw, traced run: 7 / 7 tasks" +
		"\r\x1b[K"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}

// The text and the JSON of one report show the same numbers.
func TestTextAndJSONAgree(t *testing.T) {
	cfg := tiny()
	cfg.Runs, cfg.SpinPerMicro = 1, 100
	rep, err := Run(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tasks       int    `json:"tasks"`
		Concurrency int    `json:"concurrency"`
		Shape       string `json:"shape"`
		TaskTimeNS  int64  `json:"task_time_ns"`
		GOMAXPROCS  int    `json:"gomaxprocs"`
		Modes       []struct {
			Mode                string  `json:"mode"`
			WallNS              int64   `json:"wall_ns"`
			TasksPerSec         float64 `json:"tasks_per_sec"`
			PeakGoroutines      uint64  `json:"peak_goroutines"`
			HarnessGoroutines   int     `json:"harness_goroutines"`
			PeakHeapBytes       uint64  `json:"peak_heap_bytes"`
			PeakStackBytes      uint64  `json:"peak_stack_bytes"`
			AllocBytes          uint64  `json:"alloc_bytes"`
			AllocObjects        uint64  `json:"alloc_objects"`
			GCCycles            uint64  `json:"gc_cycles"`
			SchedLatencyP50NS   int64   `json:"sched_latency_p50_ns"`
			SchedLatencyP99NS   int64   `json:"sched_latency_p99_ns"`
			PoolPeakRunning     *uint64 `json:"pool_peak_running"`
			SchedLatencySamples uint64  `json:"sched_latency_samples"`
			Runs                []json.RawMessage
		} `json:"modes"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, js.String())
	}
	if got.Tasks != 200 || got.Concurrency != 4 || got.Shape != "cpu" || got.TaskTimeNS != 1000 || got.GOMAXPROCS < 1 || len(got.Modes) != 4 {
		t.Fatalf("settings: %s", js.String())
	}

	ls := strings.Split(text.String(), "\n")
	if !strings.HasPrefix(ls[0], "schedlab bench · 200 tasks of 1.0µs cpu · concurrency 4 · 1 run · GOMAXPROCS ") {
		t.Errorf("settings line %q", ls[0])
	}
	cells := map[string][]string{} // row label -> a cell per mode
	cellSep := regexp.MustCompile(`\s{2,}`)
	for _, l := range ls[2:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		f := cellSep.Split(strings.TrimSpace(l), -1)
		cells[f[0]] = f[1:]
	}
	if h := strings.Join(cells["raw"], " "); h != "pool semaphore errgroup" {
		t.Errorf("header: raw %s", h)
	}
	for i, m := range got.Modes {
		want := map[string]string{
			"wall time":         table.Duration(time.Duration(m.WallNS)),
			"tasks/s":           table.Count(uint64(math.Round(m.TasksPerSec))),
			"peak goroutines":   table.Count(m.PeakGoroutines),
			"peak heap":         table.Bytes(m.PeakHeapBytes),
			"peak stacks":       table.Bytes(m.PeakStackBytes),
			"allocated":         table.Bytes(m.AllocBytes),
			"allocated objects": table.Count(m.AllocObjects),
			"GC cycles":         table.Count(m.GCCycles),
			"sched latency p50": table.Duration(time.Duration(m.SchedLatencyP50NS)),
			"sched latency p99": table.Duration(time.Duration(m.SchedLatencyP99NS)),
			"pool peak running": "-",
		}
		if m.Mode == "pool" {
			if m.PoolPeakRunning == nil {
				t.Fatalf("pool without pool_peak_running: %s", js.String())
			}
			want["pool peak running"] = table.Count(*m.PoolPeakRunning)
		} else if m.PoolPeakRunning != nil {
			t.Errorf("%s has pool_peak_running", m.Mode)
		}
		for label, w := range want {
			row := cells[label]
			if len(row) != len(got.Modes) {
				t.Fatalf("row %q: %q", label, row)
			}
			if row[i] != w {
				t.Errorf("%s %s: text %q, JSON gives %q", m.Mode, label, row[i], w)
			}
		}
		if len(m.Runs) != 1 {
			t.Errorf("%s: %d runs in the JSON", m.Mode, len(m.Runs))
		}
	}
	harness := regexp.MustCompile(`less the (\d+)( to \d+)? goroutines alive before each run`)
	note := harness.FindStringSubmatch(text.String())
	if note == nil {
		t.Fatalf("no note on the harness's goroutines:\n%s", text.String())
	}
	lo, hi := math.MaxInt, 0
	for _, m := range got.Modes {
		lo, hi = min(lo, m.HarnessGoroutines), max(hi, m.HarnessGoroutines)
	}
	if wantNote := fmt.Sprint(lo); note[1] != wantNote || (note[2] != "") != (lo != hi) {
		t.Errorf("note %q; the JSON has %d to %d harness goroutines", note[0], lo, hi)
	}
	if !strings.Contains(text.String(), "\ngoroutines at most: ") || !strings.Contains(text.String(), " for raw\n") {
		t.Errorf("no interpretation line:\n%s", text.String())
	}
}
