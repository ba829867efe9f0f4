package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/realprog"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/verify"
)

// realFlags are what real and verify share: how to build and run the real
// program.
type realFlags struct {
	runs    int
	timeout time.Duration
	emit    string
}

func (f *realFlags) register(cmd *cobra.Command, runs int) {
	fl := cmd.Flags()
	fl.IntVar(&f.runs, "runs", runs, "how many times to run the real program")
	fl.DurationVar(&f.timeout, "timeout", time.Minute, "stop a real run that takes longer than this")
	fl.StringVar(&f.emit, "emit", "", "write the generated program (main.go, go.mod, and package pool if it submits) into this directory and keep it, with the runs' traces")
}

func (f *realFlags) check() error {
	if f.runs < 0 || f.runs > 1000 {
		return usageError{fmt.Errorf("--runs %d: want 0 to 1000", f.runs)}
	}
	if f.timeout <= 0 {
		return usageError{fmt.Errorf("--timeout %v: want a positive duration such as 1m", f.timeout)}
	}
	return nil
}

// modelOnly refuses the flags that have no counterpart in a real run.
func modelOnly(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return usageError{fmt.Errorf("--%s applies to the model only: a real run has no counterpart", n)}
		}
	}
	return nil
}

// realSession translates sc, writes it into the --emit directory or a
// temporary one, and builds it. done removes a temporary directory.
func realSession(ctx context.Context, sc *scenarios.Scenario, cfg gmp.Config, f realFlags) (s *realprog.Session, done func(), err error) {
	prog, err := realprog.Translate(sc, cfg)
	if err != nil {
		return nil, nil, err
	}
	dir, done := f.emit, func() {}
	if dir == "" {
		dir, err = os.MkdirTemp("", "schedlab-real-")
		if err != nil {
			return nil, nil, err
		}
		done = func() { os.RemoveAll(dir) }
	}
	s, err = realprog.Prepare(ctx, prog, dir)
	if err != nil {
		done()
		return nil, nil, runError{err}
	}
	return s, done, nil
}

// realRuns runs the session's program n times and measures each run.
func realRuns(ctx context.Context, s *realprog.Session, f realFlags, each func(i int, path string, o verify.Observables) error) ([]verify.Observables, error) {
	var out []verify.Observables
	for i := 1; i <= f.runs; i++ {
		path, err := s.Run(ctx, i, f.timeout)
		if err != nil {
			return out, runError{err}
		}
		tf, err := os.Open(path)
		if err != nil {
			return out, err
		}
		o, _, err := verify.Real(tf, s.Prog.Procs)
		tf.Close()
		if err != nil {
			return out, runError{fmt.Errorf("run %d: %w", i, err)}
		}
		out = append(out, o)
		if each != nil {
			if err := each(i, path, o); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// notRunForReal says why a scenario that fails by design is not run.
func notRunForReal(end gmp.EndReason) string {
	if end == gmp.Deadlock {
		return "its real program would wait forever (the runtime does not detect a deadlock while it traces)"
	}
	return "its real program would crash before its trace is written"
}

// interruptible is a context that ends on ctrl-c, so that a build or run
// stops and the temporary directory goes.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func newRealCmd(stdout io.Writer) *cobra.Command {
	var (
		sim   simFlags
		rf    realFlags
		trace string
	)
	cmd := &cobra.Command{
		Use:   "real NAME|FILE",
		Short: "Translate a scenario into a Go program, run it for real and measure it",
		Long: `real translates a scenario into a small Go program that does what the
scenario describes, builds it with the local Go toolchain (Go 1.22 or
later), runs it under runtime/trace with GOMAXPROCS set to the scenario's
procs, and prints what each run showed, measured as schedlab verify
measures the model: makespan, goroutines, preemptions, P migrations, P
utilisation and the first goroutine to start.

The translation, action by action: cpu is a busy loop calibrated at start-up
(user code, preemptible); syscall a real blocking system call (a program
cannot choose entersyscallblock, so block: true is an ordinary one, and the
program says so); sleep time.Sleep; net a read that parks in the network
poller until a timerfd fires (Linux); gosched, go, loop, channels, wait:
children (a WaitGroup) and exit (runtime.Goexit) are themselves; submit
goes to a pool of package pool, built into the program; semaphores are
golang.org/x/sync/semaphore and groups errgroup. The first build may
download golang.org/x/sync or x/sys through the module proxy.

With --emit DIR the program stays in DIR to read and run again (go run .
TRACEFILE); --trace FILE keeps the last run's trace, which
schedlab trace FILE --scenario reads with the scenario's goroutine numbers.`,
		Example: `  schedlab real tour
  schedlab real steal --runs 5
  schedlab real burst --emit /tmp/burst --runs 0 && cat /tmp/burst/main.go
  schedlab real netpoll --trace netpoll.trace && schedlab trace netpoll.trace --scenario`,
		Args: exactArgs("a scenario name or file"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := modelOnly(cmd, "policy", "noise", "max-events"); err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			if trace != "" && rf.runs == 0 {
				return usageError{errors.New("--trace keeps the last run's trace: it needs --runs 1 or more")}
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			sc, err := scenarios.LoadFrom(args[0], stdin)
			if err != nil {
				return err
			}
			if sc.Expect != gmp.Running {
				return usageError{fmt.Errorf("%s ends with %s by design, so it is not run for real: %s", sc.Name, sc.Expect, notRunForReal(sc.Expect))}
			}
			cfg := sc.ConfigWith(over)
			ctx, stop := interruptible()
			defer stop()
			s, done, err := realSession(ctx, sc, cfg, rf)
			if err != nil {
				return err
			}
			defer done()
			fmt.Fprintf(stdout, "%s: built with %s", sc.Name, s.Toolchain.Version)
			if rf.emit != "" {
				fmt.Fprintf(stdout, " in %s (go run . TRACEFILE runs it again)", rf.emit)
			}
			fmt.Fprintf(stdout, "; GOMAXPROCS=%d\n", cfg.Procs)
			var last string
			_, err = realRuns(ctx, s, rf, func(i int, path string, o verify.Observables) error {
				last = path
				_, err := fmt.Fprintf(stdout, "run %d: %s\n", i, o)
				return err
			})
			if err != nil {
				return err
			}
			if trace != "" {
				b, err := os.ReadFile(last)
				if err != nil {
					return err
				}
				if err := os.WriteFile(trace, b, 0o644); err != nil {
					return fmt.Errorf("--trace: %w", err)
				}
				fmt.Fprintf(stdout, "the last run's trace is in %s: schedlab trace %s --scenario\n", trace, trace)
			} else if rf.emit != "" && last != "" {
				fmt.Fprintf(stdout, "traces: %s\n", filepath.Join(rf.emit, "run-*.trace"))
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	rf.register(cmd, 1)
	cmd.Flags().StringVar(&trace, "trace", "", "copy the last run's runtime trace to this file")
	return cmd
}

func newVerifyCmd(stdout io.Writer) *cobra.Command {
	var (
		sim    simFlags
		rf     realFlags
		seeds  int
		all    bool
		format string
	)
	cmd := &cobra.Command{
		Use:   "verify NAME|FILE|--all",
		Short: "Hold the model against real runs of the same scenario, observable by observable",
		Long: `verify runs a scenario in the model over several seeds (noise on, as on a
real machine, unless --noise=false) and for real, as schedlab real does,
several times, and prints for each observable the model's value (the median
over its seeds), the real runs' median and range, and a verdict: within the
real range, or above or below it. The verdict uses the real runs' own
spread, not a fixed tolerance, so a noisy machine widens it; the report says
how loaded the machine was.

The observables are those a runtime trace can show: the first goroutine to
start after main, the makespan, goroutines created and alive at once,
preempted slices, P migrations and P utilisation. Run queues are not among
them: a trace does not record them.

A scenario that ends in a deadlock or a panic by design (expect:) is not run
for real. --all verifies every built-in.`,
		Example: `  schedlab verify tour
  schedlab verify steal --runs 10 --seeds 10
  schedlab verify --all --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if all {
				if len(args) > 0 {
					return usageError{errors.New("--all verifies every built-in: leave out the scenario")}
				}
				return nil
			}
			return exactArgs("a scenario name or file (or --all)")(cmd, args)
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q: use text or json", format)}
			}
			if err := modelOnly(cmd, "policy"); err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			if rf.runs < 1 {
				return usageError{fmt.Errorf("--runs %d: verify needs at least one real run", rf.runs)}
			}
			if seeds < 1 || seeds > 1000 {
				return usageError{fmt.Errorf("--seeds %d: want 1 to 1000", seeds)}
			}
			if all && rf.emit != "" {
				return usageError{errors.New("--emit writes one program: name one scenario instead of --all")}
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			if over.Noise == nil {
				on := true
				over.Noise = &on
			}
			var list []*scenarios.Scenario
			if all {
				list, err = scenarios.Builtins()
			} else {
				var sc *scenarios.Scenario
				sc, err = scenarios.LoadFrom(args[0], stdin)
				list = []*scenarios.Scenario{sc}
			}
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			var outside []string
			for i, sc := range list {
				rep, err := verifyOne(ctx, sc, over, seeds, rf)
				if err != nil {
					return fmt.Errorf("%s: %w", sc.Name, err)
				}
				if format == "json" {
					err = rep.WriteJSON(stdout)
				} else {
					if i > 0 {
						fmt.Fprintln(stdout)
					}
					err = rep.WriteText(stdout)
				}
				if err != nil {
					return err
				}
				for _, o := range rep.Outside() {
					outside = append(outside, sc.Name+": "+o)
				}
			}
			if format == "text" && len(list) > 1 {
				fmt.Fprintf(stdout, "\n%d scenarios; the model fell outside the real range on %d observables\n", len(list), len(outside))
				for _, o := range outside {
					fmt.Fprintf(stdout, "  %s\n", o)
				}
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	rf.register(cmd, 5)
	cmd.Flags().IntVar(&seeds, "seeds", 5, "run the model with seeds 1 to this (or from --seed)")
	cmd.Flags().BoolVar(&all, "all", false, "verify every built-in scenario")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, or json (one object per scenario)")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("text", "json"))
	return cmd
}

// verifyOne runs sc in the model over seeds and for real, and judges.
func verifyOne(ctx context.Context, sc *scenarios.Scenario, over scenarios.Overrides, seeds int, rf realFlags) (*verify.Report, error) {
	cfg := sc.ConfigWith(over)
	rep := &verify.Report{Scenario: sc.Name, Procs: cfg.Procs, Noise: cfg.Noise, Runs: rf.runs}
	first := uint64(1)
	if over.Seed != nil {
		first = *over.Seed
	}
	prog := sc.Program()
	var model []verify.Observables
	for i := range uint64(seeds) {
		c := cfg
		c.Seed = first + i
		rep.Seeds = append(rep.Seeds, c.Seed)
		o, end, err := verify.Model(prog, c)
		if err != nil {
			return nil, err
		}
		if !sc.AsExpected(end) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the model's run with seed %d ended badly: %v", c.Seed, end.Err))
		}
		model = append(model, o)
	}
	if sc.Expect != gmp.Running {
		rep.Runs = 0
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s ends with %s by design, so it is not run for real: %s", sc.Name, sc.Expect, notRunForReal(sc.Expect)))
		rep.Judge(model, nil)
		return rep, nil
	}
	s, done, err := realSession(ctx, sc, cfg, rf)
	if err != nil {
		return nil, err
	}
	defer done()
	rep.Go = s.Toolchain.Version
	if cpus := runtime.NumCPU(); cfg.Procs > cpus {
		rep.Notes = append(rep.Notes, fmt.Sprintf("GOMAXPROCS=%d on %d CPUs: the real Ps take turns on the CPUs, the model's each have one", cfg.Procs, cpus))
	}
	before := verify.LoadAverage()
	real, err := realRuns(ctx, s, rf, nil)
	if err != nil {
		return nil, err
	}
	rep.Load = verify.DescribeLoad(before, verify.LoadAverage())
	rep.Judge(model, real)
	return rep, nil
}
