package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/trace"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
)

// Waits that bound the harness's own housekeeping. Neither is reached in a
// healthy run; both only keep a broken one from hanging.
const (
	settleTimeout  = time.Second      // for the last run's goroutines to exit
	releaseTimeout = 10 * time.Second // for the pool's workers to stop
)

// Run runs every mode of cfg cfg.Runs times, interleaved, and reports the
// median figures of each. progress, if not nil, is told how far it has got
// (see Progress). It fails on a bad Config (a *ConfigError), if a mode does
// not run every task exactly once, or if ctx ends.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := checkMetrics(); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	perMicro := cfg.SpinPerMicro
	if perMicro == 0 {
		progress(Progress{Calibrating: true})
		perMicro = Calibrate(calibrationTime)
	}
	b := newBench(cfg, perMicro)
	// Whatever runs besides the bench now will run throughout: later runs
	// wait until only these are left.
	idle := runtime.NumGoroutine()

	runs := make([][]Measurement, len(cfg.Modes))
	for run := 1; run <= cfg.Runs; run++ {
		for i, mode := range cfg.Modes {
			m, err := b.runOnce(ctx, mode, Progress{Mode: mode, Run: run, Runs: cfg.Runs}, progress, idle, nil)
			if err != nil {
				return nil, err
			}
			runs[i] = append(runs[i], m)
		}
	}
	if cfg.Trace != nil {
		p := Progress{Mode: cfg.TraceMode, Run: cfg.Runs + 1, Runs: cfg.Runs, Traced: true}
		if _, err := b.runOnce(ctx, cfg.TraceMode, p, progress, idle, cfg.Trace); err != nil {
			return nil, err
		}
	}

	rep := &Report{
		Tasks: cfg.Tasks, Concurrency: cfg.Concurrency, Shape: cfg.Shape, TaskTime: cfg.TaskTime, Runs: cfg.Runs,
		Traced: cfg.Trace != nil, TraceMode: cfg.TraceMode,
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(),
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		SpinPerMicro: perMicro,
	}
	for i, mode := range cfg.Modes {
		rep.Results = append(rep.Results, &Result{Mode: mode, Measurement: medians(runs[i]), Runs: runs[i], tasks: cfg.Tasks})
	}
	return rep, nil
}

// runOnce runs the tasks once in mode and measures it. If traceTo is not
// nil, the run (from the start of the sampler to the pool's release) is
// written to it as a runtime/trace.
func (b *bench) runOnce(ctx context.Context, mode taskmode.Mode, p Progress, progress func(Progress), idle int, traceTo io.Writer) (Measurement, error) {
	settle(idle)
	b.reset()
	// Every run starts from a collected heap, and no GC owed by the last
	// run falls into this one.
	runtime.GC()
	if traceTo != nil {
		if err := trace.Start(traceTo); err != nil {
			return Measurement{}, fmt.Errorf("starting the trace: %w", err)
		}
		defer trace.Stop()
	}

	p.Total = b.cfg.Tasks
	progress(p)
	base := p
	s := startSampler(func() {
		q := base
		q.Done = int(b.done.Load())
		progress(q)
	})
	harness := runtime.NumGoroutine()
	var atSubmitted level
	g := newGauge()
	flushAllocCounts()
	before := readCounters()
	start := time.Now()
	ex, err := b.execute(ctx, mode, func() { atSubmitted = g.read() })
	wall := time.Since(start)
	flushAllocCounts()
	after := readCounters()
	peak := s.finish()
	peak.raise(atSubmitted)
	if l := b.atTask.Load(); l != nil {
		peak.raise(*l)
	}
	p.Done = int(b.done.Load())
	progress(p)

	m := Measurement{
		Wall:              wall,
		PeakGoroutines:    max(peak.goroutines-harness, 0),
		HarnessGoroutines: harness,
		PeakHeapBytes:     peak.heapBytes,
		PeakStackBytes:    peak.stackBytes,
		AllocBytes:        after.allocBytes - before.allocBytes,
		AllocObjects:      after.allocObjects - before.allocObjects,
		GCCycles:          after.gcCycles - before.gcCycles,
	}
	lat := after.schedLatency.since(before.schedLatency)
	m.SchedLatencyP50, m.SchedLatencyP99, m.SchedLatencySamples = lat.quantile(0.50), lat.quantile(0.99), lat.total()
	if ex.pool != nil {
		st := ex.pool.Stats()
		m.PoolPeakRunning, m.PoolWorkersStarted = st.PeakRunning, int(st.WorkersStarted)
		if rerr := ex.pool.ReleaseTimeout(releaseTimeout); rerr != nil {
			err = errors.Join(err, fmt.Errorf("pool: its workers did not stop within %v: %w", releaseTimeout, rerr))
		}
	}
	if err != nil {
		return Measurement{}, err
	}
	if err := checkRanOnce(mode, b.ran); err != nil {
		return Measurement{}, err
	}
	return m, nil
}

// settle waits for the goroutines of the last run to exit: a goroutine
// lives a moment past the end of its task (WaitGroup.Done, Release), and
// one still alive would count as the harness's in the next run.
func settle(idle int) {
	deadline := time.Now().Add(settleTimeout)
	for runtime.NumGoroutine() > idle && time.Now().Before(deadline) {
		runtime.Gosched()
	}
}
