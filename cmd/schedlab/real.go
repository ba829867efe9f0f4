package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/verify"
)

// realFlags are what real and verify share: how to build and run the real
// program, and how far it may go.
type realFlags struct {
	runs      int
	timeout   time.Duration
	emit      string
	force     bool
	maxMemory byteSize
	maxTrace  byteSize
	// record is verify's --record folder, which --force also lets it
	// write into when it holds recordings.
	record string
}

func (f *realFlags) register(cmd *cobra.Command, runs int) {
	fl := cmd.Flags()
	fl.IntVar(&f.runs, "runs", runs, "how many times to run the real program")
	fl.DurationVar(&f.timeout, "timeout", prog.DefaultTimeout, "stop go env, go build or a real run that takes longer than this")
	fl.StringVar(&f.emit, "emit", "", "write the generated program (main.go, go.mod, and package pool if it submits) into this directory, new or empty, and keep it, with the runs' traces")
	fl.BoolVar(&f.force, "force", false, "let --emit write into a directory that is not empty, over the files there")
	f.maxMemory, f.maxTrace = prog.DefaultMemory, prog.DefaultTrace
	fl.Var(&f.maxMemory, "max-memory", "stop a real run whose memory (its data: heap, stacks, the runtime's own) would grow past this")
	fl.Var(&f.maxTrace, "max-trace", "stop a real run whose trace file grows to this size")
}

func (f *realFlags) check() error {
	if f.runs < 0 || f.runs > 1000 {
		return usageError{fmt.Errorf("--runs %d: want 0 to 1000", f.runs)}
	}
	if f.timeout <= 0 {
		return usageError{fmt.Errorf("--timeout %v: want a positive duration such as 1m", f.timeout)}
	}
	if f.force && f.emit == "" && f.record == "" {
		return usageError{errors.New("--force lets --emit write into a folder that is not empty: it needs --emit DIR")}
	}
	return nil
}

// options are the flags as real/prog takes them.
func (f *realFlags) options() prog.Options {
	return prog.Options{Emit: f.emit, Force: f.force, Limits: prog.Limits{Timeout: f.timeout, Memory: int64(f.maxMemory), Trace: int64(f.maxTrace)}}
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

// realSession is verify.Session with the command's errors: a scenario
// that fails by design or an --emit folder in use is a usage error; a
// scenario the model does not run to its end is a failed run, as schedlab
// check says, and so is a failed build.
func realSession(ctx context.Context, sc *scenarios.Scenario, cfg gmp.Config, f realFlags) (*prog.Session, func(), error) {
	s, done, err := verify.Session(ctx, sc, cfg, f.options())
	switch {
	case errors.Is(err, verify.ErrNotRunForReal), errors.Is(err, prog.ErrEmitNotEmpty):
		return nil, nil, usageError{err}
	case err != nil:
		return nil, nil, runError{err}
	}
	return s, done, nil
}

// interruptible is a context that ends on the signals that end schedlab
// (ctrl-c, SIGTERM, SIGHUP), so that a build or run stops, with every
// process it started, and the temporary folder goes, before schedlab
// exits.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
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

real first runs the scenario in the model, as schedlab check does, and
runs for real only what the model runs to its end: a scenario that stops
at the event limit or a century of simulated time, or deadlocks where it
does not expect to, is refused with the model's error, before anything is
built. The real program is bounded as well: each step (go env, go build,
each run) by --timeout, each run's memory by --max-memory (its data, a
limit the kernel enforces) and its trace file by --max-trace. Ctrl-c,
SIGTERM or SIGHUP stops the build or the run with every process it
started, and removes the temporary folder.

With --emit DIR the program stays in DIR to read and run again (go run .
TRACEFILE), with the runs' traces; DIR must be new or empty unless --force.
Each run is built and measured in a temporary folder of its own, so two
runs writing the same DIR do not read each other's programs or traces.
--trace FILE keeps the last run's trace, which schedlab trace FILE
--scenario reads with the scenario's goroutine numbers.

What the program prints is read from its standard output, and each run's
line says it. A scenario that ends in a deadlock or a panic by design
(expect:) runs untraced, since the runtime does not detect a deadlock while
it traces; each run says how Go ended it (exit status 2 and "fatal error:
all goroutines are asleep - deadlock!").`,
		Example: `  schedlab real tour
  schedlab real steal --runs 5
  schedlab real burst --emit /tmp/burst --runs 0 && cat /tmp/burst/main.go
  schedlab real netpoll --trace netpoll.trace && schedlab trace netpoll.trace --scenario`,
		Args:              exactArgs("a scenario name or file"),
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := modelOnly(cmd, "policy", "noise", "costs", "warm-start", "cpus", "load"); err != nil {
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
			sc, err := loadScenario(args[0], over)
			if err != nil {
				return err
			}
			cfg := sc.ConfigWith(over)
			ctx, stop := interruptible()
			defer stop()
			s, done, err := realSession(ctx, sc, cfg, rf)
			if err != nil {
				return err
			}
			defer done()
			if s.Prog.Untraced && trace != "" {
				return usageError{fmt.Errorf("--trace: %s ends with %s by design, so its program runs untraced and writes no trace", sc.Name, sc.Expect)}
			}
			fmt.Fprintf(stdout, "%s: built with %s", sc.Name, s.Toolchain.Version)
			if rf.emit != "" {
				fmt.Fprintf(stdout, " in %s (go run . TRACEFILE runs it again)", rf.emit)
			}
			fmt.Fprintf(stdout, "; GOMAXPROCS=%d\n", cfg.Procs)
			var last string
			runs, err := verify.RealRuns(ctx, s, rf.runs, rf.timeout, nil, func(i int, path string, o verify.Observables) error {
				last = path
				_, err := fmt.Fprintf(stdout, "run %d: %s\n", i, safetext.Term(o.String()))
				return err
			})
			if err != nil {
				return runError{err}
			}
			if s.Prog.Untraced {
				as := 0
				for _, o := range runs {
					if o.Ended == sc.Expect.String() {
						as++
					}
				}
				fmt.Fprintf(stdout, "%d of %d runs ended with Go's %s, as the scenario expects\n", as, len(runs), sc.Expect)
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
		sim     simFlags
		rf      realFlags
		seeds   int
		all     bool
		control bool
		format  string
		// The folders of recordings: see verify.Recording.
		record                string
		realFrom, controlFrom []string
	)
	cmd := &cobra.Command{
		Use:   "verify NAME|FILE|--all",
		Short: "Hold the model against real runs of the same scenario, observable by observable",
		Long: `verify runs a scenario in the model over several seeds (noise on, as on a
real machine, unless --noise=false) and for real, as schedlab real does,
several times, and prints for each observable the model's value (the median
over its seeds), the real runs' median and range, and a verdict that compares
the two samples: a Mann-Whitney rank test at the 5% level. "model faster" or
"slower" (a duration), "lower" or "higher" (a count or a share) when the test
tells them apart; "within" when it cannot and the model's median is inside
the real range (widened by a bootstrap interval of the medians' difference);
"undecided" when the runs are too few to tell, with about how many would. The
report says how loaded the machine was before and after the runs.

Before each real run and after the last, verify probes the machine's pace: a
hand-off and a mutex's spin round, as schedlab calibrate measures them, in a
few milliseconds. The report sets the probes beside the profile's and counts
the runs that had one off it by 20% or more: a virtual machine's CPUs change
pace within seconds, which the load average does not show, and a run made at
another pace than the profile's is slower or faster for it. On the project's
VM a CPU is fast just after idling and slows within milliseconds of work, so
a probe between runs finds the fast pace more often than the runs keep it.
--record keeps the probes with the runs.

The model's costs are this machine's profile (schedlab calibrate writes it)
when there is one, else the model's own; --costs FILE picks another profile,
--costs builtin the model's own. The report says which it used. Of a
profile, verify takes the costs measured while runtime/trace records (its
real runs are traced, and the tracer makes each go statement and hand-off
slower); every other command takes the untraced ones. The model starts
warm (as --warm-start), as a real program's main does, with the runtime's
idle threads already made and sysmon as far into its backing off as the
program's start-up (0.6ms) and its cpu loop's calibration (20ms, if it has
cpu actions) take it, and the thread that the tracer's go statements wake
for an idle P already on its way, as a real program's main makes them
some tens of microseconds before its scenario (schedlab trace --scenario
shows a real run's lead; the report says when the real runs' differ from
the model's). On one P its go statements pay for their new goroutines as
a real program's do: most little, and the one that needs a new span of
stacks or of goroutines a pause, where a traced program has them (go run
./scripts/freshspans measures them). On several Ps, where the model
has no CPUs, a thread woken by a running one mostly takes the waker's
CPU at once, microseconds later, as the kernel lets it where the
program's threads share a CPU (go run ./scripts/wakeplace reads a kernel
trace of it); when it then steals from its waker's P while the waker has
no goroutine, the waker waits milliseconds for its turn on that CPU, its
P held. Its computations run at the
pace a real program's cpu actions keep, 1.024 times their written time on
the project's machine (go run ./scripts/cpupace measures yours), noise
included. With more Ps than this machine has CPUs, the model's threads
share its CPUs (as --cpus N).
The window is the scenario's: it opens at main's first act in it and
closes when main returns. The real makespan leaves out the time the
runtime's own goroutines (the tracer's writer) held every P while a
scenario goroutine was ready, and the P use the P time they took while one
was; on a P no scenario goroutine wanted, their time is idle time, as the
model's P is idle there. The real runs being traced, the model runs two
goroutines of the tracer's: its CPU-sample reader, which wakes every
100ms, and its writer, which the scheduler runs first, with a new time
slice, whenever a thread's trace buffer is full; it leaves them out of
what it measures, as the real trace's are left out.

The observables are those a runtime trace can show: the first goroutine to
start after main, the makespan, goroutines created and alive at once,
preempted slices, P migrations and P utilisation. Run queues are not among
them: a trace does not record them.

A scenario that ends in a deadlock or a panic by design (expect:) runs
untraced (the runtime does not detect a deadlock while it traces), and its
ending is judged by Go's exit status and message. When the program prints,
its output order (read from its standard output, not its trace) is judged
too: the model agrees when the real runs' commonest order is one of its
seeds' orders. --all verifies every built-in, and its summary counts the
observables that differ, again after Benjamini-Hochberg's correction for
its many tests, how many of them are near the real median (a duration
within 2%, a share within a point): a tight real sample tells those apart
though the model is not far off, and how many lie beyond every real run.
It then counts and names the observables outside the real distribution:
the model's median outside the real runs' central 90% (their 5th to 95th
percentile), or a first goroutine, output or ending no real run shared.
Under each, a "why:" line gives what the scenario's notes measured of it,
where verify measures something: the time a P stood idle while a goroutine
was ready, the spread of the first preemption, on one P the time the
goroutines ran, the switches' share of the P time, the running past the
model's longest slice, how often a P was started, the goroutines a timer
or the poller woke onto another P, and, where the Ps share fewer CPUs,
the CPU time the program used (a real program logs its own). Where none
of them makes half the difference, the line says so.
The rank test's count grows with --seeds, since more seeds tell smaller
shifts apart; this one does not, and with --control the control is
counted the same way. It does fall with --runs: a band drawn from n runs
holds on average 0.9(n-1)/(n+1) of the real distribution, 74% at ten runs
and 86% at fifty, and the summary says so when a scenario had fewer than
fifty.

--control runs the real program --runs times more, right after, and judges
that second series against the first exactly as the model is judged: the
observables the runtime differs from itself on, by the rank test's chance
and by the machine's drift between the two series. That is what a model as
close to the runtime as the runtime is to itself would differ on; the
summary counts it beside the model's count.

--record DIR keeps the real runs' figures in DIR, a file a scenario
(DIR/tour.json); --real-from DIR judges the model against them again,
running nothing, which takes seconds where the runs take minutes: to see
what a change to the model or its costs does against the same runs. And
--control-from DIR judges the series recorded in DIR against the real runs
as --control's second series is: two series taken hours apart, on a machine
whose other work has changed between them, differ on more observables than
two that follow each other, and that count is the floor for a model's.

Both take several folders (--real-from A,B,C or the flag again), whose
runs are pooled into one sample: a series takes seconds, and a shared
machine's state in those seconds decides much of it, so series recorded at
different times, pooled, are a sample of the machine over that period
rather than of a moment. On the project's virtual machine two single series
of one day differed on 3 to 25 observables after the correction, and pools
of three series of one afternoon on 2 to 5; the night's pooled series
differed from the afternoon's on 18, the machine being slower then.`,
		Example: `  schedlab verify tour
  schedlab verify steal --runs 20 --seeds 20
  schedlab verify --all --format json
  schedlab verify pingpong --costs builtin
  schedlab verify --all --control
  schedlab verify --all --record runs-morning
  schedlab verify --all --real-from runs-morning --control-from runs-evening
  schedlab verify --all --real-from runs-9h,runs-13h,runs-17h`,
		Args: func(cmd *cobra.Command, args []string) error {
			if all {
				if len(args) > 0 {
					return usageError{errors.New("--all verifies every built-in: leave out the scenario")}
				}
				return nil
			}
			return exactArgs("a scenario name or file (or --all)")(cmd, args)
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q: use text or json", format)}
			}
			if err := modelOnly(cmd, "policy"); err != nil {
				return err
			}
			rf.record = record
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
			if err := recordingFlags(cmd, record, realFrom, controlFrom, control); err != nil {
				return err
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			if over.Noise == nil {
				on := true
				over.Noise = &on
			}
			costs, costsNote, profile, err := verifyCosts(&sim, &over)
			if err != nil {
				return err
			}
			// The machine's pace is probed around real runs, and set
			// beside the profile's when the profile measured one.
			var pace func() (verify.Pace, bool)
			if len(realFrom) == 0 {
				pace = calibrate.MeasurePace
			}
			var profilePace *verify.Pace
			if profile != nil {
				if p, ok := profile.Pace(); ok {
					profilePace = &p
				}
			}
			var list []*scenarios.Scenario
			if all {
				list, err = scenarios.Builtins()
			} else {
				var sc *scenarios.Scenario
				sc, err = loadScenario(args[0], over)
				list = []*scenarios.Scenario{sc}
			}
			if err != nil {
				return err
			}
			if err := recordingsFree(record, list, rf.force); err != nil {
				return err
			}
			var unrecorded []string
			if all {
				if list, unrecorded, err = recordedOnly(list, slices.Concat(realFrom, controlFrom)...); err != nil {
					return err
				}
			}
			ctx, stop := interruptible()
			defer stop()
			var reps []*verify.Report
			for i, sc := range list {
				rep, err := verify.Scenario(ctx, sc, verify.Options{Overrides: over, Costs: costs, CostsNote: costsNote, Seeds: seeds, Runs: rf.runs, Timeout: rf.timeout, MaxMemory: int64(rf.maxMemory), MaxTrace: int64(rf.maxTrace), Dir: rf.emit, Force: rf.force, Control: control, Record: record, RealFrom: realFrom, ControlFrom: controlFrom, Pace: pace, ProfilePace: profilePace})
				switch {
				case errors.Is(err, prog.ErrEmitNotEmpty), errors.As(err, new(*verify.RecordingError)):
					return usageError{err}
				case err != nil:
					return runError{fmt.Errorf("%s: %w", sc.Name, err)}
				}
				reps = append(reps, rep)
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
			}
			if format == "text" && len(list) > 1 {
				fmt.Fprintln(stdout)
				if err := verify.WriteSummary(stdout, reps); err != nil {
					return err
				}
			}
			if len(unrecorded) > 0 {
				// On the report's last line, or beside JSON, which has
				// an object a scenario and no room for one that is not.
				w := stdout
				if format == "json" {
					w = cmd.ErrOrStderr()
				}
				_, err = fmt.Fprintf(w, "not judged, for want of a recording: %s\n", strings.Join(unrecorded, ", "))
			}
			return err
		},
	}
	sim.register(cmd, "stop")
	// Ten of each: the rank test can then tell apart samples that overlap
	// by a fair part (with five seeds and five runs only samples almost
	// apart), for twice the time of five runs.
	rf.register(cmd, 10)
	cmd.Flags().IntVar(&seeds, "seeds", 10, "run the model with seeds 1 to this (or from --seed)")
	cmd.Flags().BoolVar(&all, "all", false, "verify every built-in scenario")
	cmd.Flags().BoolVar(&control, "control", false, "run the program --runs times more and judge that series against the first as the model is: how often the runtime differs from itself")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, or json (one object per scenario)")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("text", "json"))
	cmd.Flags().StringVar(&record, "record", "", "keep the real runs' figures in this directory, one file a scenario, for --real-from and --control-from (--force: over a series recorded there before)")
	cmd.Flags().StringSliceVar(&realFrom, "real-from", nil, "judge the model against the real runs recorded in this directory (by --record), running nothing; several directories (A,B or the flag again) are pooled as one sample")
	cmd.Flags().StringSliceVar(&controlFrom, "control-from", nil, "judge the real runs recorded in this directory against the real runs, as --control judges its second series; several are pooled")
	for _, name := range []string{"record", "real-from", "control-from"} {
		_ = cmd.MarkFlagDirname(name)
	}
	return cmd
}

// recordingsFree refuses, before anything runs, a --record folder that
// already holds a recording of one of the scenarios: a series recorded
// before, which the new one would replace or mix with, unless --force.
func recordingsFree(dir string, list []*scenarios.Scenario, force bool) error {
	if dir == "" {
		return nil
	}
	for _, sc := range list {
		path := verify.RecordingPath(dir, sc.Name)
		if _, err := os.Lstat(path); err == nil && !force {
			return usageError{fmt.Errorf("--record %s: %s is there already, a series recorded before: give a new folder, or --force to write over it", dir, path)}
		}
	}
	return nil
}

// recordedOnly is list without the scenarios that --real-from's or
// --control-from's folder holds no recording of, and those left out: a
// series recorded for some of the built-ins is judged for those (verify
// --all reads each). A folder with none of them is a mistake.
func recordedOnly(list []*scenarios.Scenario, dirs ...string) (kept []*scenarios.Scenario, left []string, err error) {
	for _, sc := range list {
		missing := false
		for _, dir := range dirs {
			if dir == "" {
				continue
			}
			if _, err := os.Stat(verify.RecordingPath(dir, sc.Name)); err != nil {
				missing = true
			}
		}
		if missing {
			left = append(left, sc.Name)
		} else {
			kept = append(kept, sc)
		}
	}
	if len(kept) == 0 {
		return nil, nil, usageError{fmt.Errorf("no recording of any built-in in %s (verify --all --record DIR writes them)", strings.Join(slices.DeleteFunc(slices.Clone(dirs), func(d string) bool { return d == "" }), " and "))}
	}
	return kept, left, nil
}

// recordingFlags refuses what the recording flags cannot do together:
// --real-from runs nothing, so the flags of a real run and --record have
// nothing to act on, and one control series is judged at a time.
func recordingFlags(cmd *cobra.Command, record string, realFrom, controlFrom []string, control bool) error {
	for _, f := range []struct {
		name string
		dirs []string
	}{{"real-from", realFrom}, {"control-from", controlFrom}} {
		if cmd.Flags().Changed(f.name) && (len(f.dirs) == 0 || slices.Contains(f.dirs, "")) {
			return usageError{fmt.Errorf("--%s: an empty folder name", f.name)}
		}
	}
	if control && len(controlFrom) > 0 {
		return usageError{errors.New("--control runs a second series and --control-from reads one: give one of them")}
	}
	if len(realFrom) == 0 {
		return nil
	}
	if record != "" {
		return usageError{errors.New("--record keeps real runs, and --real-from runs none: give one of them")}
	}
	if control {
		return usageError{errors.New("--real-from runs nothing, and --control runs a second series: use --control-from DIR for a recorded one")}
	}
	for _, name := range []string{"runs", "timeout", "emit", "force", "max-memory", "max-trace"} {
		if cmd.Flags().Changed(name) {
			return usageError{fmt.Errorf("--%s is about running the real program, and --real-from runs nothing", name)}
		}
	}
	return nil
}

// verifyCosts picks the costs verify times the model with, and says which
// for the report: --costs when it is given, else this machine's profile
// where schedlab calibrate writes it, else the model's built-in costs.
// The note, if any, says that the profile measured another machine.
//
// A profile's costs are its traced ones (calibrate.Profile.TracedCosts):
// verify's real runs are traced, and the tracer makes each go statement
// and hand-off cost more there. Every other command times the model
// untraced.
func verifyCosts(sim *simFlags, over *scenarios.Overrides) (costs, note string, profile *calibrate.Profile, err error) {
	if sim.costsSet {
		if sim.profile == nil {
			return "the model's built-in costs (--costs " + builtinCosts + ")", "", nil, nil
		}
		k, traced, err := tracedCosts(sim.profile)
		if err != nil {
			return "", "", nil, usageError{fmt.Errorf("%s: %w", sim.costs, err)}
		}
		over.Costs = k
		return "the profile " + sim.costs + traced + ", " + sim.profile.Describe(), sim.profile.Elsewhere(), sim.profile, nil
	}
	path, err := calibrate.DefaultPath()
	if err != nil {
		return "the model's built-in costs (no configuration directory to hold a profile)", "", nil, nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "the model's built-in costs (no profile at " + path + ": schedlab calibrate writes one)", "", nil, nil
	}
	_, p, err := readCosts(path)
	var k *gmp.Costs
	var traced string
	if err == nil {
		k, traced, err = tracedCosts(p)
	}
	if err != nil {
		return "", "", nil, usageError{fmt.Errorf("%w\n\thint: this machine's cost profile, which verify uses by default: schedlab calibrate writes it again, --costs %s leaves it out", err, builtinCosts)}
	}
	over.Costs = k
	return "this machine's profile " + path + traced + ", " + p.Describe(), p.Elsewhere(), p, nil
}

// tracedCosts is p's costs for a model compared with traced runs, and
// what the report says of them: which of the figures calibrate measures
// for verify, beyond the untraced ones, the profile has, and which its
// older format did not measure.
func tracedCosts(p *calibrate.Profile) (*gmp.Costs, string, error) {
	k, err := p.TracedCosts()
	if err != nil {
		return nil, "", err
	}
	var with, without []string
	for _, f := range []struct {
		has  bool
		what string
	}{
		{p.HasTraced(), "the tracer's costs of a go statement and a hand-off"},
		{p.HasGaps(), "its switch gaps (a park's growing with the work before it)"},
		{p.HasIdleWake(), "its wake-up after idle"},
		{p.HasWakeCall(), "the waker's cost of a wake-up"},
		{p.HasFirstWrite(), "a program's first write"},
		{p.HasNetpollWake(), "the network poller's wake-up"},
		{p.HasMutexSpin(), "a mutex's spin"},
		{p.HasFirstPrint(), "a program's first print"},
		{p.HasLongSleep(), "a long sleep's slack"},
		{p.HasWakePack(), "its kernel's packing of woken threads"},
		{p.HasBusySleep(), "a long sleep's slack beside work"},
	} {
		if f.has {
			with = append(with, f.what)
		} else {
			without = append(without, f.what)
		}
	}
	var says []string
	if len(with) > 0 {
		says = append(says, "with "+listAnd(with))
	}
	if len(without) > 0 {
		says = append(says, p.Format+": without "+listAnd(without)+", which schedlab calibrate now measures")
	}
	return &k, " (" + strings.Join(says, "; ") + ")", nil
}

// listAnd joins parts as a sentence lists them: "a", "a and b", "a, b,
// and c", with the last comma also where the first part has an "and" of
// its own.
func listAnd(parts []string) string {
	n := len(parts)
	if n < 2 {
		return strings.Join(parts, "")
	}
	last := " and "
	if n > 2 || strings.Contains(parts[0], " and ") {
		last = ", and "
	}
	return strings.Join(parts[:n-1], ", ") + last + parts[n-1]
}
