package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/real/bench"
)

func newBenchCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		modes, shape, format, traceFile, traceMode, progress string
		force                                                bool
		cfg                                                  = bench.DefaultConfig()
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run tasks as raw goroutines, a pool, a semaphore and an errgroup on this machine, and measure",
		Long: `bench asks "is a pool better than just writing go?" of the real Go runtime,
where compare asks it of the simulation. It runs the same tasks four ways:

  raw        a goroutine per task
  pool       schedlab's pool of --concurrency workers
  semaphore  a goroutine per task, after acquiring one unit of a
             semaphore of weight --concurrency (golang.org/x/sync/semaphore)
  errgroup   errgroup.Group with SetLimit(--concurrency)

and prints, for each, the wall time, tasks per second, the most goroutines
alive at once (sampled every millisecond, less the goroutines the harness had
before the run), the peak of the heap's objects and of its stack memory, the
bytes and objects allocated, GC cycles, and the runtime's scheduling latency
(the time goroutines wait runnable) p50 and p99, from runtime/metrics
/sched/latencies:seconds.

A cpu task is a busy loop whose length is calibrated once, so every mode does
the same work; a sleep task sleeps; mixed alternates the two by task number.
The modes run interleaved, --runs times each, and each figure is the median.
Every task must run exactly once, or bench fails.

--trace FILE writes a runtime/trace of one more run, of --trace-mode (the
first of --modes unless given), after the measured runs and not counted in
them: open it with go tool trace FILE.

--format benchstat writes Go's benchmark format (goos:, goarch:, pkg: and
the settings as configuration lines, then a line per run of each mode,
BenchmarkBench/mode=raw-GOMAXPROCS), so that benchstat compares two
benches, run for run: benchstat old.txt new.txt.

While it runs, bench shows its progress on stderr if stderr is a terminal
(--progress auto), so stdout holds only the report.`,
		Example: `  schedlab bench
  schedlab bench --shape sleep --task-time 1ms --tasks 5000 --concurrency 64
  schedlab bench --modes raw,pool --runs 5 --format json | jq '.modes[] | {mode, wall_ns, peak_goroutines}'
  schedlab bench --modes pool --runs 1 --trace pool.trace && go tool trace pool.trace
  schedlab bench --runs 10 --format benchstat > old.txt; …; benchstat old.txt new.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" && format != "benchstat" {
				return usageError{fmt.Errorf("--format %q: use text, json or benchstat", format)}
			}
			if progress != "auto" && progress != "always" && progress != "never" {
				return usageError{fmt.Errorf("--progress %q: use auto, always or never", progress)}
			}
			var err error
			if cfg.Modes, err = taskmode.Parse(modes); err != nil {
				return usageError{fmt.Errorf("--modes: %w", err)}
			}
			if cfg.Shape, err = bench.ParseShape(shape); err != nil {
				return usageError{fmt.Errorf("--shape: %w", err)}
			}
			cfg.TraceMode = cfg.Modes[0]
			if traceMode != "" {
				if traceFile == "" {
					return usageError{errors.New("--trace-mode needs --trace FILE")}
				}
				if cfg.TraceMode, err = taskmode.ParseOne(traceMode); err != nil {
					return usageError{fmt.Errorf("--trace-mode: %w", err)}
				}
			}
			if err := cfg.Validate(); err != nil {
				return usageError{flagError(err)}
			}
			// The tasks' own time, spread over what can run at once, is
			// a floor under how long bench takes: say so before starting.
			switch est := bench.Estimate(cfg); {
			case est > benchRefuse && !force:
				return usageError{fmt.Errorf("this bench would take at least %v (%d tasks of %v at concurrency %d, %d runs of %d modes); lower --tasks, --task-time or --runs, or pass --force",
					est.Round(time.Second), cfg.Tasks, cfg.TaskTime, cfg.Concurrency, cfg.Runs, len(cfg.Modes))}
			case est > benchWarn:
				fmt.Fprintf(stderr, "schedlab bench: this will take at least %v; ctrl-c stops it\n", est.Round(time.Second))
			}
			if traceFile != "" {
				f, err := os.Create(traceFile)
				if err != nil {
					return usageError{fmt.Errorf("--trace: %w", err)}
				}
				defer f.Close()
				cfg.Trace = f
			}

			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			var show func(bench.Progress)
			line := bench.NewProgressLine(stderr)
			if progress == "always" || (progress == "auto" && isTerminal(stderr)) {
				show = line.Show
			}
			rep, err := bench.Run(ctx, cfg, show)
			line.Clear() // so that no message starts on the progress line
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return runError{errors.New("bench: interrupted")}
				}
				return runError{fmt.Errorf("bench: %w", err)}
			}
			if f, ok := cfg.Trace.(*os.File); ok {
				if err := f.Close(); err != nil {
					return runError{fmt.Errorf("--trace: %w", err)}
				}
			}
			if traceFile != "" {
				fmt.Fprintf(stderr, "schedlab bench: trace of a %s run written to %s (go tool trace %s)\n", cfg.TraceMode, safetext.Term(traceFile), safetext.Term(traceFile))
			}
			switch format {
			case "json":
				return rep.WriteJSON(stdout)
			case "benchstat":
				return writeBenchstat(stdout, rep)
			}
			return rep.WriteText(stdout)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&cfg.Tasks, "tasks", bench.DefaultTasks, "tasks in each run")
	fl.IntVar(&cfg.Concurrency, "concurrency", bench.DefaultConcurrency, "the pool's size, the semaphore's weight, the errgroup's limit")
	fl.StringVar(&shape, "shape", "cpu", "what a task does: cpu (a calibrated busy loop), sleep, or mixed (even tasks cpu, odd tasks sleep)")
	fl.DurationVar(&cfg.TaskTime, "task-time", bench.DefaultTaskTime, "how long a task computes or sleeps")
	fl.StringVar(&modes, "modes", "raw,pool,semaphore,errgroup", "the ways to run the tasks, comma-separated")
	fl.IntVar(&cfg.Runs, "runs", bench.DefaultRuns, "runs of each mode; the report shows the medians")
	fl.StringVar(&format, "format", "text", "output format: text, json, or benchstat (Go's benchmark format, one line per run, for benchstat)")
	fl.StringVar(&traceFile, "trace", "", "write a runtime/trace of one more run to this file, for go tool trace")
	fl.StringVar(&traceMode, "trace-mode", "", "the mode of the traced run (default: the first of --modes)")
	fl.StringVar(&progress, "progress", "auto", "show progress on stderr: auto (if it is a terminal), always or never")
	fl.BoolVar(&force, "force", false, fmt.Sprintf("run even if the bench would take more than %v", benchRefuse))
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("text", "json", "benchstat"))
	_ = cmd.RegisterFlagCompletionFunc("shape", fixedCompletions("cpu", "sleep", "mixed"))
	_ = cmd.RegisterFlagCompletionFunc("progress", fixedCompletions("auto", "always", "never"))
	_ = cmd.RegisterFlagCompletionFunc("trace-mode", fixedCompletions("raw", "pool", "semaphore", "errgroup"))
	_ = cmd.RegisterFlagCompletionFunc("modes", fixedCompletions("raw,pool,semaphore,errgroup", "raw,pool", "pool,semaphore", "pool,errgroup"))
	return cmd
}

// A bench whose tasks alone take longer than benchWarn gets a warning
// before it starts, and one past benchRefuse is refused without --force.
const (
	benchWarn   = time.Minute
	benchRefuse = 10 * time.Minute
)

// flagError words a bench.ConfigError as the flag that caused it:
// "--tasks 0: want at least 1".
func flagError(err error) error {
	var ce *bench.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	v := fmt.Sprint(ce.Value)
	if d, ok := ce.Value.(time.Duration); ok {
		v = d.String()
	}
	return fmt.Errorf("--%s %s: want %s", ce.Field, strings.TrimSpace(v), ce.Want)
}

// isTerminal reports whether w is a terminal, where a progress line that
// rewrites itself makes sense.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fixedCompletions completes a flag with a fixed list of values.
func fixedCompletions(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// writeBenchstat writes rep in Go's benchmark format, which benchstat
// reads: configuration lines (goos, goarch, pkg, then the bench's
// settings, which benchstat keeps apart when they differ), and a line per
// run of each mode, named by the mode as a sub-benchmark and ending in
// GOMAXPROCS, with each measure as a value and its unit. A run is one
// iteration: ns/op is its wall time. Each run is a line of its own, not
// the median, so that benchstat has the samples it tests.
func writeBenchstat(w io.Writer, rep *bench.Report) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "goos: %s\ngoarch: %s\npkg: github.com/schedlab/schedlab/real/bench\n", rep.GOOS, rep.GOARCH)
	fmt.Fprintf(b, "schedlab: %s\ntasks: %d\nconcurrency: %d\nshape: %s\ntask-time: %v\n", versionOnly(), rep.Tasks, rep.Concurrency, rep.Shape, rep.TaskTime)
	for _, r := range rep.Results {
		for _, m := range r.Runs {
			fmt.Fprintf(b, "BenchmarkBench/mode=%s-%d\t1\t%d ns/op\t%.0f tasks/s\t%d goroutines\t%d heap-B\t%d stack-B\t%d B/op\t%d allocs/op\t%d gc-cycles\t%d sched-p50-ns\t%d sched-p99-ns\n",
				r.Mode, rep.GOMAXPROCS, m.Wall.Nanoseconds(), float64(rep.Tasks)/max(m.Wall.Seconds(), 1e-9), m.PeakGoroutines,
				m.PeakHeapBytes, m.PeakStackBytes, m.AllocBytes, m.AllocObjects, m.GCCycles,
				m.SchedLatencyP50.Nanoseconds(), m.SchedLatencyP99.Nanoseconds())
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
