package bench

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/exp/trace"

	"github.com/schedlab/schedlab/core/taskmode"
)

// tiny is a bench small enough for every test run, under the race detector
// too (which allows 8128 live goroutines).
func tiny() Config {
	return Config{Tasks: 200, Concurrency: 4, Shape: CPU, TaskTime: time.Microsecond, Modes: taskmode.All, Runs: 3}
}

// harnessAllowance is how far above Concurrency a bounded mode's peak may
// go. Goroutines that are not tasks still count: a semaphore or errgroup
// goroutine lives a moment past its Release, so the next may start before
// it exits (about one per P, more if one is preempted just then), and the
// pool's purge timer runs its function in a goroutine of its own.
func harnessAllowance() int { return runtime.GOMAXPROCS(0) + 2 }

// counterSlack is how far a goroutine count can read high (gauge.read): a
// batch of 33 dead goroutines in transit between free lists on every P at
// once. A raw run of 200 tasks under the race detector read 223 once.
func counterSlack() int { return 33 * runtime.GOMAXPROCS(0) }

// progressLog records the progress calls; Run makes them from two
// goroutines, though never at once.
type progressLog struct {
	mu    sync.Mutex
	calls []Progress
}

func (l *progressLog) add(p Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, p)
}

func TestRunSmoke(t *testing.T) {
	var log progressLog
	cfg := tiny()
	rep, err := Run(context.Background(), cfg, log.add)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(taskmode.All) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(taskmode.All))
	}
	if rep.Tasks != 200 || rep.Concurrency != 4 || rep.Runs != 3 || rep.SpinPerMicro <= 0 || rep.GOMAXPROCS < 1 {
		t.Errorf("settings %+v", rep)
	}
	for i, r := range rep.Results {
		if r.Mode != taskmode.All[i] {
			t.Errorf("result %d is %s, want %s", i, r.Mode, taskmode.All[i])
		}
		if len(r.Runs) != cfg.Runs {
			t.Errorf("%s: %d runs, want %d", r.Mode, len(r.Runs), cfg.Runs)
		}
		for k, m := range append([]Measurement{r.Measurement}, r.Runs...) {
			what := r.Mode.String() + " median"
			if k > 0 {
				what = r.Mode.String() + " run " + string(rune('0'+k))
			}
			checkMeasurement(t, what, r.Mode, cfg, m)
		}
		if r.TasksPerSecond() <= 0 {
			t.Errorf("%s: %v tasks/s", r.Mode, r.TasksPerSecond())
		}
	}

	// Every run was announced, and ended with every task done.
	if len(log.calls) == 0 || !log.calls[0].Calibrating {
		t.Fatalf("progress does not start with the calibration: %v", log.calls)
	}
	ends := map[Progress]bool{}
	for _, p := range log.calls[1:] {
		if p.Total != cfg.Tasks || p.Done > p.Total || p.Traced {
			t.Errorf("progress %+v", p)
		}
		if p.Done == p.Total {
			ends[p] = true
		}
	}
	for run := 1; run <= cfg.Runs; run++ {
		for _, mode := range taskmode.All {
			end := Progress{Mode: mode, Run: run, Runs: cfg.Runs, Done: cfg.Tasks, Total: cfg.Tasks}
			if !ends[end] {
				t.Errorf("no progress %q", end)
			}
		}
	}
}

// checkMeasurement checks what must hold of every run: the relations
// between figures, not their values.
func checkMeasurement(t *testing.T, what string, mode taskmode.Mode, cfg Config, m Measurement) {
	t.Helper()
	if m.Wall <= 0 {
		t.Errorf("%s: wall time %v", what, m.Wall)
	}
	if m.HarnessGoroutines < 2 { // this test's goroutine and the sampler at least
		t.Errorf("%s: %d harness goroutines", what, m.HarnessGoroutines)
	}
	// The pool's workers are the goroutines, at most Concurrency of them
	// (PoolPeakRunning, below). A semaphore's or an errgroup's goroutine
	// gives its slot back in a deferred call, before it has exited, and
	// the next task's goroutine may start first: how many are still on
	// their way out when the sampler looks is the OS's timing (27 against
	// a limit of 4 under the race detector at load 3), so those modes are
	// held only to the tasks they ran.
	// Both bounds allow for the goroutine counter's slack, which still
	// tells a pool of 4 (at most 4 + 4 + 66 on 2 Ps) from a goroutine a
	// task (200).
	allow := harnessAllowance() + counterSlack()
	if mode == taskmode.Pool && m.PeakGoroutines > cfg.Concurrency+allow {
		t.Errorf("%s: %d goroutines at most, want at most %d + %d", what, m.PeakGoroutines, cfg.Concurrency, allow)
	}
	if m.PeakGoroutines < 1 || m.PeakGoroutines > cfg.Tasks+allow {
		t.Errorf("%s: peak goroutines %d, want 1 to %d + %d: a task runs in one, and no mode starts more than a goroutine a task", what, m.PeakGoroutines, cfg.Tasks, allow)
	}
	if m.SchedLatencyP50 > m.SchedLatencyP99 {
		t.Errorf("%s: sched latency p50 %v > p99 %v", what, m.SchedLatencyP50, m.SchedLatencyP99)
	}
	if m.AllocBytes == 0 || m.AllocObjects == 0 {
		t.Errorf("%s: allocated %d bytes in %d objects: every mode allocates a closure per task", what, m.AllocBytes, m.AllocObjects)
	}
	if m.PeakHeapBytes == 0 || m.PeakStackBytes == 0 {
		t.Errorf("%s: peak heap %d, stacks %d", what, m.PeakHeapBytes, m.PeakStackBytes)
	}
	if mode == taskmode.Pool {
		if m.PoolPeakRunning < 1 || m.PoolPeakRunning > cfg.Concurrency {
			t.Errorf("%s: pool peak running %d, want 1 to %d", what, m.PoolPeakRunning, cfg.Concurrency)
		}
		if m.PoolWorkersStarted < m.PoolPeakRunning {
			t.Errorf("%s: %d workers started, but %d ran at once", what, m.PoolWorkersStarted, m.PoolPeakRunning)
		}
	} else if m.PoolPeakRunning != 0 || m.PoolWorkersStarted != 0 {
		t.Errorf("%s: pool figures %d, %d in a mode without a pool", what, m.PoolPeakRunning, m.PoolWorkersStarted)
	}
}

// taskmode.Raw starts a goroutine per task: with tasks that sleep, they are all
// alive when the last one has been started, which is when the harness
// takes a sample.
func TestRawExceedsConcurrency(t *testing.T) {
	cfg := tiny()
	cfg.Modes, cfg.Runs, cfg.Shape, cfg.TaskTime = []taskmode.Mode{taskmode.Raw}, 1, Sleep, 20*time.Millisecond
	cfg.SpinPerMicro = 1 // no CPU task: no calibration needed
	rep, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0].PeakGoroutines; got <= cfg.Concurrency+harnessAllowance() {
		t.Errorf("raw: %d goroutines at most, want more than %d", got, cfg.Concurrency+harnessAllowance())
	}
}

// Mixed and sleep tasks run in every mode too, exactly once each.
func TestShapes(t *testing.T) {
	for _, shape := range []Shape{Sleep, Mixed} {
		cfg := tiny()
		cfg.Tasks, cfg.Runs, cfg.Shape, cfg.TaskTime, cfg.SpinPerMicro = 40, 1, shape, 50*time.Microsecond, 100
		rep, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatalf("%s: %v", shape, err)
		}
		for _, r := range rep.Results {
			checkMeasurement(t, shape.String()+" "+r.Mode.String(), r.Mode, cfg, r.Measurement)
		}
	}
}

// --trace: one more run, of TraceMode, which the trace reader can read and
// in which every task's goroutine is created.
func TestTrace(t *testing.T) {
	var buf bytes.Buffer
	var log progressLog
	cfg := tiny()
	cfg.Modes, cfg.Runs, cfg.SpinPerMicro = []taskmode.Mode{taskmode.Pool, taskmode.Raw}, 1, 100
	cfg.Trace, cfg.TraceMode = &buf, taskmode.Raw
	rep, err := Run(context.Background(), cfg, log.add)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Traced || rep.TraceMode != taskmode.Raw {
		t.Errorf("report: traced %v, mode %s", rep.Traced, rep.TraceMode)
	}
	last := log.calls[len(log.calls)-1]
	if want := (Progress{Mode: taskmode.Raw, Run: 2, Runs: 1, Traced: true, Done: 200, Total: 200}); last != want {
		t.Errorf("last progress %+v, want %+v", last, want)
	}
	created := goroutinesCreated(t, &buf)
	if created < cfg.Tasks {
		t.Errorf("the trace shows %d goroutines created, want at least %d (one per task)", created, cfg.Tasks)
	}
}

// goroutinesCreated reads a runtime/trace and counts its goroutine
// creations.
func goroutinesCreated(t *testing.T, r io.Reader) int {
	t.Helper()
	tr, err := trace.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		if from, to := st.Goroutine(); from == trace.GoNotExist && to == trace.GoRunnable {
			n++
		}
	}
}

// A context that ends stops every mode, which reports it and no figures.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mode := range taskmode.All {
		cfg := tiny()
		cfg.Modes, cfg.SpinPerMicro = []taskmode.Mode{mode}, 100
		if rep, err := Run(ctx, cfg, nil); !errors.Is(err, context.Canceled) || rep != nil {
			t.Errorf("%s: %v, %v; want context.Canceled", mode, rep, err)
		}
	}
}
