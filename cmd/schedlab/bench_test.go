package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/exp/trace"
	"golang.org/x/perf/benchfmt"
)

// tinyBench is a bench that takes a fraction of a second, race detector
// included: the calibration (50ms) and four modes of 200 tasks of 1µs.
var tinyBench = []string{"bench", "--tasks", "200", "--concurrency", "4", "--task-time", "1us", "--runs", "1"}

func benchArgs(extra ...string) []string {
	return append(append([]string(nil), tinyBench...), extra...)
}

func TestBenchText(t *testing.T) {
	code, out, errOut := cli(t, benchArgs()...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr is no terminal, so no progress should show: %q", errOut)
	}
	ls := lines(out)
	if !strings.HasPrefix(ls[0], "schedlab bench · 200 tasks of 1.0µs cpu · concurrency 4 · 1 run · GOMAXPROCS ") {
		t.Errorf("settings line %q", ls[0])
	}
	if h := strings.Join(strings.Fields(ls[2]), " "); h != "raw pool semaphore errgroup" {
		t.Errorf("header %q", ls[2])
	}
	for _, row := range []string{"wall time", "tasks/s", "peak goroutines", "peak heap", "peak stacks", "allocated",
		"allocated objects", "GC cycles", "sched latency p50", "sched latency p99", "pool peak running"} {
		if !strings.Contains(out, row+"  ") {
			t.Errorf("no %q row:\n%s", row, out)
		}
	}
	if !strings.Contains(out, "goroutines alive before each run (the harness's)") {
		t.Errorf("no note on the harness:\n%s", out)
	}
}

// JSON on stdout stays clean while progress goes to stderr.
func TestBenchJSONWithProgress(t *testing.T) {
	code, out, errOut := cli(t, benchArgs("--modes", "raw,pool", "--format", "json", "--progress", "always")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Tasks       int `json:"tasks"`
		Concurrency int `json:"concurrency"`
		Modes       []struct {
			Mode            string `json:"mode"`
			WallNS          int64  `json:"wall_ns"`
			PeakGoroutines  int    `json:"peak_goroutines"`
			PoolPeakRunning int    `json:"pool_peak_running"`
			P50             int64  `json:"sched_latency_p50_ns"`
			P99             int64  `json:"sched_latency_p99_ns"`
			AllocBytes      uint64 `json:"alloc_bytes"`
		} `json:"modes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%q", err, out)
	}
	if rep.Tasks != 200 || rep.Concurrency != 4 || len(rep.Modes) != 2 || rep.Modes[0].Mode != "raw" || rep.Modes[1].Mode != "pool" {
		t.Fatalf("report %+v", rep)
	}
	for _, m := range rep.Modes {
		if m.WallNS <= 0 || m.P50 > m.P99 || m.AllocBytes == 0 {
			t.Errorf("%+v", m)
		}
	}
	if p := rep.Modes[1]; p.PoolPeakRunning < 1 || p.PoolPeakRunning > 4 {
		t.Errorf("pool peak running %d, want 1 to 4", p.PoolPeakRunning)
	}
	for _, want := range []string{"\r\x1b[Kschedlab bench: calibrating the CPU task", "raw, run 1 of 1: 0 / 200 tasks", "pool, run 1 of 1: 200 / 200 tasks"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr has no %q: %q", want, errOut)
		}
	}
	if !strings.HasSuffix(errOut, "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end: %q", errOut)
	}
}

// --trace writes a trace that go tool trace's reader can read, of the
// mode asked for, with the tasks' goroutines in it.
func TestBenchTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.trace")
	code, out, errOut := cli(t, benchArgs("--modes", "pool,raw", "--trace", path, "--trace-mode", "raw")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "trace of a raw run written to " + path; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if strings.Contains(out, path) {
		t.Errorf("the trace's path is in the report:\n%s", out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind() == trace.EventStateTransition && ev.StateTransition().Resource.Kind == trace.ResourceGoroutine {
			if from, _ := ev.StateTransition().Goroutine(); from == trace.GoNotExist {
				created++
			}
		}
	}
	if created < 200 {
		t.Errorf("%d goroutines created in the trace of raw, want at least 200", created)
	}
}

func TestBenchErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--tasks", "0"}, "--tasks 0: want at least 1"},
		{[]string{"bench", "--tasks", "-5"}, "--tasks -5: want at least 1"},
		{[]string{"bench", "--tasks", "many"}, `invalid argument "many" for "--tasks"`},
		{[]string{"bench", "--concurrency", "0"}, "--concurrency 0: want at least 1"},
		{[]string{"bench", "--task-time", "0s"}, "--task-time 0s: want more than 0"},
		{[]string{"bench", "--task-time", "-1ms"}, "--task-time -1ms: want more than 0"},
		{[]string{"bench", "--task-time", "fast"}, `invalid argument "fast" for "--task-time"`},
		{[]string{"bench", "--runs", "0"}, "--runs 0: want 1 to 100"},
		{[]string{"bench", "--shape", "square"}, `--shape: unknown shape "square"`},
		{[]string{"bench", "--modes", "raw,threads"}, `--modes: unknown mode "threads"`},
		{[]string{"bench", "--modes", "pool,pool"}, "--modes: mode pool is given twice"},
		{[]string{"bench", "--format", "csv"}, `--format "csv": use text, json or benchstat`},
		{[]string{"bench", "--progress", "sometimes"}, `--progress "sometimes": use auto, always or never`},
		{[]string{"bench", "--trace-mode", "pool"}, "--trace-mode needs --trace FILE"},
		{[]string{"bench", "--trace", filepath.Join(dir, "t"), "--trace-mode", "threads"}, `--trace-mode: unknown mode "threads"`},
		{[]string{"bench", "--trace", filepath.Join(dir, "no", "such", "dir")}, "--trace: open "},
		{[]string{"bench", "now"}, `unknown command "now" for "schedlab bench"`},
	} {
		code, out, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errOut, exitUsage, c.want)
		}
	}
}

// --format benchstat is Go's benchmark format: golang.org/x/perf's
// benchfmt, which benchstat reads with, reads the configuration and a
// result per run of each mode, with the units benchstat compares.
func TestBenchBenchstat(t *testing.T) {
	code, out, errOut := cli(t, benchArgs("--modes", "raw,pool", "--runs", "2", "--format", "benchstat")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := benchfmt.NewReader(strings.NewReader(out), "bench.txt")
	var names []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			names = append(names, string(rec.Name.Full()))
			for _, k := range []string{"goos", "goarch", "pkg", "tasks", "concurrency", "shape", "task-time", "schedlab"} {
				if rec.GetConfig(k) == "" {
					t.Errorf("%s: no %s: configuration", rec.Name.Full(), k)
				}
			}
			units := map[string]float64{}
			for _, v := range rec.Values {
				// benchfmt tidies ns/op into sec/op, keeping the original.
				if v.OrigUnit != "" {
					units[v.OrigUnit] = v.OrigValue
				} else {
					units[v.Unit] = v.Value
				}
			}
			for _, u := range []string{"ns/op", "tasks/s", "goroutines", "B/op", "allocs/op", "sched-p99-ns"} {
				if _, ok := units[u]; !ok {
					t.Errorf("%s: no %s in %v", rec.Name.Full(), u, units)
				}
			}
			if units["ns/op"] <= 0 || rec.Iters != 1 {
				t.Errorf("%s: %v iterations, %v ns/op", rec.Name.Full(), rec.Iters, units["ns/op"])
			}
		case *benchfmt.SyntaxError:
			t.Errorf("not Go's benchmark format: %v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	procs := "-" + strconv.Itoa(runtime.GOMAXPROCS(0))
	want := []string{"Bench/mode=raw" + procs, "Bench/mode=raw" + procs, "Bench/mode=pool" + procs, "Bench/mode=pool" + procs}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("results %q, want %q\n%s", names, want, out)
	}
}
