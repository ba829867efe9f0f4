package verify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
)

// Options say how to verify a scenario.
type Options struct {
	Overrides scenarios.Overrides
	// Costs says which costs Overrides.Costs holds, for the report's
	// header (a profile's file and machine, or the model's own);
	// CostsNote, if set, is a note on them (a profile of another machine).
	Costs, CostsNote string
	// Seeds is how many seeds the model runs, from the override's seed
	// or 1.
	Seeds int
	// Runs is how many times the real program runs; Timeout limits each,
	// and go env and go build (the default if 0).
	Runs    int
	Timeout time.Duration
	// MaxMemory and MaxTrace bound each real run's memory and trace
	// file, in bytes (the defaults if 0): prog.Limits.
	MaxMemory, MaxTrace int64
	// Dir, if set, is a folder to keep the program and the traces in: a
	// new or empty one unless Force. The program is built and run in a
	// temporary folder of its own either way, removed at the end.
	Dir   string
	Force bool
	// Control runs the real program Runs times more, right after, and
	// judges that second series against the first as the model is judged
	// (Report.Control): how often the runtime differs from itself.
	Control bool
	// RealFrom, if set, is folders of recordings (Recording): the model
	// is judged against the scenario's recorded runs, those of every
	// folder as one sample (pooled.go), and no program is built or run.
	// ControlFrom is such folders whose recordings are judged against
	// the real runs as Control's second series is: series taken at
	// different times.
	RealFrom, ControlFrom []string
	// Record, if set, is a folder to write the real runs into as a
	// recording.
	Record string
	// Pace, if set, probes the machine's pace (Pace) before each real run
	// and after the last; ProfilePace, if set, is the pace the costs'
	// profile measured, which the report sets the probes beside
	// (Report.notePace).
	Pace        func() (Pace, bool)
	ProfilePace *Pace
}

// real is what o says of the real side.
func (o Options) real() prog.Options {
	return prog.Options{Emit: o.Dir, Force: o.Force, Limits: prog.Limits{Timeout: o.Timeout, Memory: o.MaxMemory, Trace: o.MaxTrace}}
}

// ErrNotRunForReal marks a scenario that is not run for real. Session no
// longer returns it: a scenario that fails by design runs untraced
// (prog.Program.Untraced). The UI's side-by-side view, which needs a
// trace, still refuses one (NotRunForReal).
var ErrNotRunForReal = errors.New("not run for real")

// NotRunForReal says why a scenario that ends with end by design has no
// real trace to show.
func NotRunForReal(end gmp.EndReason) string {
	if end == gmp.Deadlock {
		return "its real program runs untraced (the runtime does not detect a deadlock while it traces), so there is no trace to show; schedlab real and verify judge it by Go's exit status and message"
	}
	return "its real program runs untraced (a panic ends it before its trace is written), so there is no trace to show; schedlab real and verify judge it by Go's exit status and message"
}

// ErrModelRefused is what Session returns for a scenario whose model
// run ends badly (the event or step limit, a century of simulated time,
// a deadlock or panic it does not expect): schedlab check refuses it, and
// its real program would run without end or as far as the machine lets it.
var ErrModelRefused = errors.New("the model does not run it to its end")

// Session runs sc in the model first, with cfg's limits as schedlab check
// runs it, and refuses it if the model does; then it translates sc into a
// program and builds it in a temporary folder of its own (and writes it
// into o.Emit). done removes the temporary folder. Errors name the
// scenario's file, not the temporary folder, which is gone by the time
// they are read.
func Session(ctx context.Context, sc *scenarios.Scenario, cfg gmp.Config, o prog.Options) (s *prog.Session, done func(), err error) {
	if err := modelRunsToItsEnd(sc, cfg); err != nil {
		return nil, nil, err
	}
	program, err := prog.Translate(sc, cfg)
	if err != nil {
		return nil, nil, err
	}
	s, err = prog.Prepare(ctx, program, o)
	switch {
	case errors.Is(err, prog.ErrEmitNotEmpty), errors.Is(err, prog.ErrInterrupted):
		return nil, nil, err
	case errors.Is(err, prog.ErrBuildFailed) && o.Emit != "":
		return nil, nil, fmt.Errorf("%s: the program written from it, in %s: %w", sc.File, o.Emit, err)
	case errors.Is(err, prog.ErrBuildFailed):
		return nil, nil, fmt.Errorf("%s: the program written from it (--emit DIR keeps it to read): %w", sc.File, err)
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", sc.File, err)
	}
	return s, func() { s.Close() }, nil
}

// modelRunsToItsEnd runs sc in the model as schedlab check does (the
// invariants checked, within cfg's event limit, until and the century
// the model's clock runs for) and returns the model's error, marked
// ErrModelRefused, if the run does not end as sc expects.
func modelRunsToItsEnd(sc *scenarios.Scenario, cfg gmp.Config) error {
	cfg.Check = true
	// As schedlab check runs it: untraced, so that a deadlock is reported
	// rather than run on beside the tracer's reader.
	cfg.Tracer, cfg.TracerLead = false, 0
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		return fmt.Errorf("%s: %w", sc.File, err)
	}
	end := m.Run()
	if sc.AsExpected(end) {
		return nil
	}
	if end.Err == nil {
		end.Err = fmt.Errorf("%s: the run ended with %s at %v", sc.File, end.Reason, m.Now())
	}
	return fmt.Errorf("%w\n\tnot run for real: %w, as schedlab check %s says too, and a real program would run on without the model's limits", end.Err, ErrModelRefused, sc.File)
}

// RealRuns runs the session's program n times, each within timeout, and
// measures each run from its own trace; each, if set, sees every run as
// it ends, with the trace's path. pace, if set, probes the machine's pace
// before each run and after the last (Observables.PaceBefore, PaceAfter;
// a run's after is the next one's before). With an --emit folder the traces are
// kept there; otherwise only the last is kept (until done), so that runs
// do not pile up traces in the temporary folder.
func RealRuns(ctx context.Context, s *prog.Session, n int, timeout time.Duration, pace func() (Pace, bool), each func(i int, trace string, o Observables) error) ([]Observables, error) {
	var out []Observables
	prev := ""
	before := probePace(pace)
	for i := 1; i <= n; i++ {
		path, printed, err := s.RunOutput(ctx, i, timeout)
		if err != nil {
			return out, err
		}
		after := probePace(pace)
		var o Observables
		if s.Prog.Untraced {
			o = Observables{Untraced: true, Ended: endingOf(printed)}
		} else {
			f, err := os.Open(path)
			if err != nil {
				return out, err
			}
			o, _, err = realUntil(f, s.Prog.Procs, s.Prog.Until)
			f.Close()
			if err != nil {
				return out, fmt.Errorf("run %d: %w", i, err)
			}
			if path, err = s.Keep(i, path); err != nil {
				return out, err
			}
			if s.Emit == "" && prev != "" {
				os.Remove(prev)
			}
			prev = path
		}
		// The printed lines come from the program's standard output,
		// never from its trace.
		o.Output = printed.Lines()
		o.PaceBefore, o.PaceAfter = before, after
		before = after
		out = append(out, o)
		if each != nil {
			if err := each(i, path, o); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// Scenario runs sc in the model over o.Seeds seeds and for real o.Runs
// times, and judges. A scenario that fails by design runs untraced: its
// rows of the trace have no real run, and its ending is judged by Go's
// exit status and message.
func Scenario(ctx context.Context, sc *scenarios.Scenario, o Options) (*Report, error) {
	cfg, cpusNote := modelConfig(sc, o.Overrides, runtime.NumCPU())
	rep := &Report{Scenario: sc.Name, Procs: cfg.Procs, Noise: cfg.Noise, Runs: o.Runs, Costs: o.Costs}
	if o.CostsNote != "" {
		rep.Notes = append(rep.Notes, o.CostsNote)
	}
	if cpusNote != "" {
		rep.Notes = append(rep.Notes, cpusNote)
	}
	first := uint64(1)
	if o.Overrides.Seed != nil {
		first = *o.Overrides.Seed
	}
	program := sc.Program()
	var model []Observables
	var ends []gmp.EndReason
	for i := range uint64(o.Seeds) {
		c := cfg
		c.Seed = first + i
		rep.Seeds = append(rep.Seeds, c.Seed)
		obs, end, err := Model(program, c)
		if err != nil {
			return nil, err
		}
		if !sc.AsExpected(end) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the model's run with seed %d ended badly: %v", c.Seed, end.Err))
		}
		model = append(model, obs)
		ends = append(ends, end.Reason)
	}
	prints := gmp.Prints(sc.Main)
	real, second, untraced, err := realSeries(ctx, sc, cfg, o, rep)
	if err != nil {
		return nil, err
	}
	var modelEnded []string
	if untraced {
		modelEnded = endWords(ends)
	}
	rep.judgeScenario(model, real, prints, modelEnded)
	if second != nil {
		var ended []string
		if untraced {
			ended = endedOf(second.runs)
		}
		rep.Control = judgeControl(real, second.runs, prints, ended, second.load)
		rep.Control.From = second.from
	}
	if o.Record != "" {
		rec := &Recording{Scenario: sc.Name, Procs: cfg.Procs, CPUs: runtime.NumCPU(), Go: rep.Go, LoadBefore: rep.LoadBefore, LoadAfter: rep.LoadAfter, EndMarked: !untraced, Runs: real}
		if !untraced {
			rec.Rules = measureRules
		}
		if err := WriteRecording(o.Record, rec); err != nil {
			return nil, fmt.Errorf("recording the real runs: %w", err)
		}
	}
	rep.notePace(real, o.ProfilePace)
	rep.noteRealRuns(sc, untraced, real)
	if n := switchNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := sliceNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := strandedNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := idleNote(rep, model, real, cfg.CPUs > 0 && cfg.CPUs < cfg.Procs); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := busyNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := leadNote(cfg, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	cpus := 0
	if cfg.CPUs > 0 && cfg.CPUs < cfg.Procs {
		cpus = cfg.CPUs
	}
	if n := cpuNote(rep, model, real, cpus); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := preemptNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := startsNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if n := wokenNote(rep, model, real); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	return rep, nil
}

// series is a second series of real runs, the control, the load around
// it as the report says it, and the recording it came from, if any.
type series struct {
	runs       []Observables
	load, from string
}

// realSeries is the real runs the model is judged against, run now or
// read from o.RealFrom, with the control series if o asks for one, and
// whether the runs are untraced. It fills in rep's toolchain, runs and
// loads.
func realSeries(ctx context.Context, sc *scenarios.Scenario, cfg gmp.Config, o Options, rep *Report) (real []Observables, second *series, untraced bool, err error) {
	untraced = !prog.Traced(sc)
	if len(o.RealFrom) > 0 {
		p, err := readPooled(o.RealFrom, sc, cfg.Procs, untraced)
		if err != nil {
			return nil, nil, false, err
		}
		// Of several series, the load before the first and after the
		// last; the report's load line gives the range over them all.
		rep.Go, rep.LoadBefore, rep.LoadAfter, rep.Runs = p.goVersion, p.before[0], p.after[len(p.after)-1], len(p.runs)
		rep.Load = p.load()
		real = p.runs
		if len(p.paths) == 1 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the real runs are those recorded in %s: none ran now", p.from()))
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the real runs are those recorded in %s, judged as one sample: none ran now", p.from()))
		}
		rep.Notes = append(rep.Notes, p.notes...)
	} else {
		s, done, err := Session(ctx, sc, cfg, o.real())
		if err != nil {
			return nil, nil, false, err
		}
		defer done()
		rep.Go = s.Toolchain.Version
		rep.LoadBefore = LoadAverage()
		total := o.Runs
		if o.Control {
			// The second series follows the first in the same session,
			// its runs numbered on (run-11.trace… with --emit).
			total *= 2
		}
		runs, err := RealRuns(ctx, s, total, o.Timeout, o.Pace, func(i int, _ string, _ Observables) error {
			if i == o.Runs {
				rep.LoadAfter = LoadAverage()
			}
			return nil
		})
		if err != nil {
			return nil, nil, false, err
		}
		rep.Load = DescribeLoad(rep.LoadBefore, rep.LoadAfter)
		real = runs[:o.Runs:o.Runs]
		if o.Control {
			second = &series{runs: runs[o.Runs:], load: DescribeLoad(rep.LoadAfter, LoadAverage())}
		}
	}
	if len(o.ControlFrom) > 0 {
		p, err := readPooled(o.ControlFrom, sc, cfg.Procs, untraced)
		if err != nil {
			return nil, nil, false, err
		}
		second = &series{runs: p.runs, load: p.load(), from: p.from()}
		rep.Notes = append(rep.Notes, p.notes...)
	}
	return real, second, untraced, nil
}

// probePace is what probe measured, or nil if there is no probe or it
// could not measure.
func probePace(probe func() (Pace, bool)) *Pace {
	if probe == nil {
		return nil
	}
	if p, ok := probe(); ok && p.Valid() {
		return &p
	}
	return nil
}

// readSeries reads sc's recording from dir and checks that its runs were
// traced as sc's are.
func readSeries(dir string, sc *scenarios.Scenario, procs int, untraced bool) (*Recording, error) {
	rec, err := ReadRecording(dir, sc.Name, procs)
	if err != nil {
		return nil, &RecordingError{err}
	}
	if rec.Runs[0].Untraced != untraced {
		path := RecordingPath(dir, sc.Name)
		return nil, &RecordingError{fmt.Errorf("%s: its runs were %s, and %s's are %s", path, tracedWord(rec.Runs[0].Untraced), sc.Name, tracedWord(untraced))}
	}
	return rec, nil
}

func tracedWord(untraced bool) string {
	if untraced {
		return "untraced (the scenario fails by design)"
	}
	return "traced"
}

// ModelConfig is the model's configuration with which verify compares sc
// with real runs on a machine of cpus CPUs, timed by costs (a profile's
// traced costs, as verify takes them): for a script that measures the
// model's side as verify runs it.
func ModelConfig(sc *scenarios.Scenario, costs gmp.Costs, cpus int) gmp.Config {
	cfg, _ := modelConfig(sc, scenarios.Overrides{Costs: &costs}, cpus)
	return cfg
}

// modelConfig is the model's configuration for sc compared with real runs
// on a machine of cpus CPUs, and a note when it shares them among more Ps
// (onMachineCPUs).
func modelConfig(sc *scenarios.Scenario, over scenarios.Overrides, cpus int) (gmp.Config, string) {
	cfg, cpusNote := onMachineCPUs(sc.ConfigWith(over), over, cpus)
	// The real runs are traced: the model runs the tracer's goroutines
	// too, its CPU-sample reader and its writer (gmp's tracer.go).
	cfg.Tracer = prog.Traced(sc)
	// A real program's main starts with the runtime's threads already
	// made and idle (its init started bgsweep and bgscavenge), so its
	// first wakep wakes a thread rather than making one: the model starts
	// warm.
	cfg.WarmStart = true
	cfg = afterPrelude(sc, cfg)
	cfg = nanosleepSyscalls(cfg)
	if cfg.Tracer {
		cfg.Costs.EndMark = endMark
		cfg.TracerLead = tracerLead
		if cfg.Procs == 1 {
			cfg.Costs.FreshSpans = freshSpans
		}
	}
	// Where the Ps have a CPU each, the model has no CPUs; there a thread
	// woken by a running one mostly takes the waker's CPU at once.
	if cfg.Procs >= 2 && cfg.CPUs == 0 && cfg.Load == 0 {
		cfg.Costs.WakePreempt = wakePreempt
	}
	// The model's noise stretches and stalls computations by its own
	// mean; the work's pace makes the two together workPace.
	cfg.Costs.WorkPace = workPace / gmp.NoiseWorkMean()
	return cfg, cpusNote
}

// workPace is how many times its written time a real program's cpu
// action takes, on average over a run of many: the loop is calibrated by
// its median chunk, undisturbed (prog/cpuwork), and a long run of it
// meets the kernel's interrupts, the other threads' caches and, on a
// virtual machine, the host's other work. go run ./scripts/cpupace, which
// times burst's tasks with each thread's CPU time, on the AMD EPYC on 28
// and 29 November (load 0.4-1.9), six sets of ten runs: medians 1.024,
// 1.024, 1.029, 1.012, 1.018 and 1.045 (1.024 over the sets), single runs
// 0.986-1.069; go run ./scripts/cpustretch, timing actions of 10µs to
// 9ms with the clock on one P, traced, gave +1.7% and +2.7% beside them.
// On 27 November cpustretch had measured +0.6% and +0.8%: the pace moves
// from day to day with the machine, and the series verify judges were
// recorded on the 28th. A real program's CPU time over burst's window
// (Observables.CPUTime, S10 and S11) was 1.14s, the model's at the noise's
// mean alone 1.12s, for 1.1s of tasks.
const workPace = 1.024

// tracerLead is how long before its scenario a real program's main made
// runtime/trace.Start's first go statement, whose wakep wakes an idle
// thread for an idle P (gmp.Config.TracerLead): from there main finishes
// trace.Start and its start (the CPU-time reading, the scenario's call)
// while that thread is on its way. rtrace.Summary.TracerLead reads it
// from a trace (schedlab trace --scenario prints it): 85 traced runs of
// 2-P and 4-P scenarios on the AMD EPYC on 29 November, ten each of
// steal (twice), tour, pingpong-2p, waitgroup-fanout, burst, spinning and
// print-order-2p (fifteen) (schedlab real NAME --runs 10 --emit DIR,
// load 1.0-2.5), median 33.2µs (p10 13.5µs, p90 78.2µs). On one P, where
// no P is idle and main makes no wake-up call, twenty runs of runnext
// and overflow gave a median of 20.8µs. Without it the model's thread
// woke at the scenario's start and arrived when the real one had long
// begun: steal's first goroutine was G31 in the model, G2-G21 in the
// real runs.
const tracerLead = 33 * time.Microsecond

// freshSpans is where a traced generated program's go statements pay for
// their goroutines' descriptors (gmp.FreshSpans): go run
// ./scripts/freshspans DIR on the traces of schedlab real overflow --runs
// 8 --emit DIR (AMD EPYC, 29 November, 06:32, load 1.0), whose main makes
// 300 go statements on one P. They were a median 0.32µs apart, but for
// a pause at the scenario's 9th and every 16th after (a median 19.3µs,
// p10-p90 15.2-23.7µs; a new span of stacks) and at its 3rd and every
// 16th after (5.8µs; a new span of gs), the 3rd itself 9.8µs (7.0-13.6µs);
// one run of the eight had its gs' lumps two statements sooner, none at
// the 3rd. Less the model's Newproc (0.12µs), that is 0.20µs
// on most statements, 19.0µs and 5.5µs more on the lumps and 4.0µs more
// again on the first of gs: a mean of 1.73µs, against the 1.35µs of the
// profile's NewG, measured in calibrate's own process, warm. The shares
// keep the profile's mean and take the program's shape. The runnext
// traces agree (its 3rd go statement paused 7-13µs in six runs of six);
// with a flat NewG its makespan was below the real runs' central 90% in
// 142 of 150 counts (S5-S19, ten sets of seeds), with the shape in 10.
// The model takes the shape on one P only. On several Ps the places move
// from run to run with what the other Ps took from the stack pool
// (steal's stacks' first lump at the 2nd to the 9th go statement), and
// one P's places there made steal's first goroutine one no real run
// started, in each of three series; there the model keeps NewG flat.
var freshSpans = gmp.FreshSpans{Base: 0.1145, Stack: 10.99, G: 3.18, FirstG: 2.31, StackAt: 9, GAt: 3}

// wakePreempt is how a generated program's threads on several Ps wake
// each other (gmp.WakePreempt): the kernel puts the woken thread beside
// its waker and lets it take that CPU at once. A kernel scheduler trace
// of the programs of pingpong-table, select-timeout, mutex-retake,
// mutex-starvation, print-order-2p, pingpong-2p, timer-2p, purge-coarse
// and steal (2 or 3 runs each, 26 in all, AMD EPYC, 29 November 09:02,
// load 0.3-0.7; schedlab real NAME --runs 0 --emit DIR, then perf record
// -a -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup
// and perf script, read by go run ./scripts/wakeplace): 94% of their run
// time on one CPU; of the 2,039 wake-ups of a program's thread made in
// another of its threads, 1,573 (77%) took the CPU from a running thread
// of the program, which stayed runnable, p10 1µs, median 6µs, p90 8µs
// after the wake-up, and 195 got it when that thread slept. The
// programs' shares run from 41% (pingpong-table) to 95%
// (mutex-starvation); the model takes the share of them all. The start is
// drawn from 4 to 8µs after startm, the median and the 90th percentile;
// the fastest tenth the model does not have. Without it, pingpong-table's
// two sleepers never came to wait on different Ps and its migrations were
// above the real runs' in 117 of 150 counts (S5-S19, ten sets of seeds);
// with it, in none (docs/fidelity.md, "Waking onto the waker's CPU").
//
// The turn is how long a thread of those programs, preempted, waited to
// run again when it waited over 1ms: 65 times in the 26 traces, p10
// 1.51ms, median 3.48ms, p90 5.72ms (wakeplace), drawn from the 10th to
// the 90th percentile. With it, pingpong-2p's migrations, above the real
// runs' central 90% in all 150 counts (S5-S19, ten sets of seeds), were
// above in none; the counts outside went from 1126 to 1059
// (docs/fidelity.md, "Idle Ps on a shared CPU").
var wakePreempt = gmp.WakePreempt{Share: 0.77, After: 4 * time.Microsecond, Spread: 4 * time.Microsecond,
	Turn: 1510 * time.Microsecond, TurnSpread: 4210 * time.Microsecond}

// leadNote says, for a traced scenario with a P idle at its start, when
// the real runs' main made runtime/trace.Start's first go statement
// (Observables.TracerLead) less than half or more than twice tracerLead
// before the scenario, as a machine other than the one it was measured
// on may: the model's thread woken for the idle P then arrives later or
// sooner than the real runs' did, and with it their first steal.
func leadNote(cfg gmp.Config, real []Observables) string {
	if !cfg.Tracer || cfg.Procs < 2 {
		return ""
	}
	var leads []float64
	for _, o := range real {
		if o.TracerLead > 0 {
			leads = append(leads, float64(o.TracerLead))
		}
	}
	if len(leads) == 0 || 2*len(leads) < len(real) {
		return ""
	}
	slices.Sort(leads)
	med := time.Duration(median(leads))
	if med >= cfg.TracerLead/2 && med <= 2*cfg.TracerLead {
		return ""
	}
	when := "later"
	if med > cfg.TracerLead {
		when = "sooner"
	}
	return fmt.Sprintf("the real runs' main began the scenario a median %s after runtime/trace.Start's first go statement, whose wakep wakes the thread for an idle P (%s to %s over %d runs), where the model's thread is %s along at the start, as measured on the project's machine: on this one the thread woken for the idle P arrives %s than the model's, and with it the first steal (docs/fidelity.md, \"The tracer's wake-up before the scenario\")",
		shortDuration(med), shortDuration(time.Duration(leads[0])), shortDuration(time.Duration(leads[len(leads)-1])), len(leads), shortDuration(cfg.TracerLead), when)
}

// endMark is the end mark's cost to a traced real program's main after
// its scenario (gmp.Costs.EndMark): the program's first runtime/trace.Log,
// whose event, the window's end, is stamped after the log call interns
// its strings and takes main's stack. go run ./scripts/endmark, 20 fresh
// processes on the AMD EPYC (load 1.4): median 545ns, 501-922ns. Without
// it the model's window closed early by that much, which only the
// shortest scenarios feel: done-flag's real makespan is a median 832ns.
const endMark = 545 * time.Nanosecond

// strandedNote names, when the model's makespan is shorter than the real
// runs', the time the real runs left a P idle while a goroutine was ready
// to run (Observables.Stranded), if it is at least half the difference:
// the threads woken for those Ps started late.
func strandedNote(rep *Report, model, real []Observables) string {
	row := rep.row("makespan")
	if row == nil || row.Outcome != "lower" {
		return ""
	}
	stranded := func(o Observables) float64 { return float64(o.Stranded) }
	realS, ok := medianOfTraced(real, stranded)
	modelS, ok2 := medianOfTraced(model, stranded)
	diff := time.Duration(row.RealMedian - row.Model)
	if !ok || !ok2 || diff <= 0 || realS-modelS < diff/2 {
		return ""
	}
	return fmt.Sprintf(makespanNote+"the real runs had a P idle while one of the scenario's goroutines was ready to run for a median %s, the model's %s, against the %s between the two makespans: the threads woken for those Ps started late, as a thread woken after the program idled can, queued behind a busy thread until a scheduler tick (go run ./scripts/wakeafteridle measures how often on this machine)",
		shortDuration(realS), shortDuration(modelS), shortDuration(diff))
}

// idleNote says, when the model's Ms share fewer CPUs than its Ps
// (shared) and its P use is below the real runs', how much of the
// difference is the model's Ps sitting idle while one of the scenario's
// goroutines was ready to run (Observables.Stranded), if that accounts
// for at least half of it: the threads woken for those Ps waited longer
// for a CPU in the model. In burst, whose 4 Ps share 2 CPUs, this
// machine's kernel let 634 of 693 threads woken beside a running one of
// the program take its CPU a median 7µs after the wake-up, where the
// model's woken thread waits until the running one's request or the tick
// runs out (docs/fidelity.md, "Waking beside a running thread"). Where
// every M has a CPU, a P idle beside a ready goroutine is mostly the
// scenario's own doing (a ping-pong's partner in the other P's runnext,
// which a thief may not take for 3µs), and the note would mislead.
func idleNote(rep *Report, model, real []Observables, shared bool) string {
	row := rep.row("P utilisation")
	if !shared || row == nil || row.Outcome != "lower" || rep.Procs <= 0 {
		return ""
	}
	idle := func(o Observables) float64 {
		return float64(o.Stranded) / rep.pTime(o)
	}
	realShare, ok := medianOf(real, idle)
	modelShare, ok2 := medianOf(model, idle)
	diff := row.RealMedian - row.Model
	explained := modelShare - realShare
	if !ok || !ok2 || diff <= 0 || explained/diff < 0.5 {
		return ""
	}
	return fmt.Sprintf(useNote+"the model's Ps sat idle while one of the scenario's goroutines was ready to run for a median %.1f%% of the P time, the real runs' %.1f%%, which is %.0f%% of the %.1f points between the two: the threads woken to run them waited longer for a CPU in the model than in the real runs, where the kernel mostly lets a woken thread take the CPU of a running one at once (go run ./scripts/wakeplace reads it from a kernel trace)",
		100*modelShare, 100*realShare, 100*min(explained/diff, 1), 100*diff)
}

// pTime is the P time of run o's window, in nanoseconds, which the P-use
// notes take their shares of: every P over the window and the time the
// scenario waited for the runtime's goroutines (Observables.RuntimeDelay).
func (rep *Report) pTime(o Observables) float64 {
	return float64(rep.Procs) * (float64(o.Makespan) + float64(o.RuntimeDelay))
}

// medianOf is the median of a figure of each run with a window (a traced
// run, its makespan above zero), or false if no run has one.
func medianOf(obs []Observables, of func(Observables) float64) (float64, bool) {
	var v []float64
	for _, o := range obs {
		if o.Makespan > 0 && !o.Untraced {
			v = append(v, of(o))
		}
	}
	if len(v) == 0 {
		return 0, false
	}
	slices.Sort(v)
	return median(v), true
}

// medianOfTraced is medianOf for a duration.
func medianOfTraced(obs []Observables, of func(Observables) float64) (time.Duration, bool) {
	m, ok := medianOf(obs, of)
	return time.Duration(m), ok
}

// busyNote says, for a scenario on one P whose makespan differs, how much
// of the difference is the time its goroutines ran, if that accounts for
// at least half of it: on one P the window is the goroutines' running
// time and the P's idle time, so a difference there is in what the
// goroutines do and the runtime calls they make, timed by the model's
// costs, not in the scheduler's order. The running time is the P use's
// share of the window.
func busyNote(rep *Report, model, real []Observables) string {
	row := rep.row("makespan")
	if row == nil || row.Outcome != "lower" && row.Outcome != "higher" || rep.Procs != 1 {
		return ""
	}
	busy := func(o Observables) float64 { return o.Utilisation * float64(o.Makespan) }
	realB, ok := medianOfTraced(real, busy)
	modelB, ok2 := medianOfTraced(model, busy)
	diff := time.Duration(row.RealMedian - row.Model)
	explained := realB - modelB
	if !ok || !ok2 || diff == 0 || float64(explained)/float64(diff) < 0.5 {
		return ""
	}
	than := "longer than"
	if diff < 0 {
		than = "less time than"
	}
	return fmt.Sprintf(makespanNote+"on its one P the real runs ran the scenario's goroutines for a median %s, the model's for %s, which is %.0f%% of the %s between the two makespans: what the goroutines do and the runtime's calls they make (go statements, channel operations, writes) took %s the model's costs say, not the scheduler's order",
		shortDuration(realB), shortDuration(modelB), 100*min(float64(explained)/float64(diff), 1), shortDuration(max(diff, -diff)), than)
}

// cpuNote says, for a scenario whose Ps share fewer CPUs (cpus, 0 where
// every M has one) and whose makespan differs, how much of the
// difference is the CPU time the program's threads used, if that
// accounts for at least half of it: with more Ps than CPUs the CPUs stay
// busy, and the window is about the CPU time the program needs over the
// CPUs, so a difference there is in what the goroutines and the runtime
// do, timed by the model's costs and the calibrated CPU work, not in the
// scheduler's order. It gives the share of the CPUs each side had over
// its window as well: a real program that had less of them than the
// model's lost them to the machine's other programs. Only the runs that
// measured their CPU time are taken (Observables.CPUTime; a recording
// made before has none). A real thread still running when main reads
// the process's time counts only to its last scheduler tick (4ms at this
// machine's 250Hz), so the real figure can be short by that much for
// each; at the end of a window that waited for its goroutines the
// program's threads have mostly stopped.
func cpuNote(rep *Report, model, real []Observables, cpus int) string {
	row := rep.row("makespan")
	if cpus <= 0 || row == nil || row.Outcome != "lower" && row.Outcome != "higher" {
		return ""
	}
	var measured []Observables
	for _, o := range real {
		if o.CPUTime > 0 {
			measured = append(measured, o)
		}
	}
	used := func(o Observables) float64 { return float64(o.CPUTime) }
	share := func(o Observables) float64 {
		return float64(o.CPUTime) / (float64(cpus) * (float64(o.Makespan) + float64(o.RuntimeDelay)))
	}
	realC, ok := medianOfTraced(measured, used)
	modelC, ok2 := medianOfTraced(model, used)
	// The makespan of the same runs: in a pool of series, only some
	// measured their CPU time.
	realM, _ := medianOfTraced(measured, func(o Observables) float64 { return float64(o.Makespan) })
	realShare, _ := medianOf(measured, share)
	modelShare, _ := medianOf(model, share)
	diff := realM - time.Duration(row.Model)
	explained := (realC - modelC) / time.Duration(cpus)
	if !ok || !ok2 || modelC <= 0 || diff == 0 || (diff > 0) != (row.Outcome == "lower") || float64(explained)/float64(diff) < 0.5 {
		return ""
	}
	more := "more"
	if diff < 0 {
		more = "less"
	}
	return fmt.Sprintf(makespanNote+"the real program's threads ran on the machine's %d CPUs for a median %s, the model's for %s, and the %s between them over the %d CPUs is %.0f%% of the %s between the two makespans (%s): what the goroutines and the runtime did took %s CPU time than the model's costs and the calibrated CPU work say, not the scheduler's order. The real program had the CPUs for a median %.1f%% of its window, the model's %.1f%%",
		cpus, shortDuration(realC), shortDuration(modelC), shortDuration(max(realC-modelC, modelC-realC)), cpus, 100*min(float64(explained)/float64(diff), 1),
		shortDuration(max(diff, -diff)), measuredWords(len(measured), len(real)), more, 100*realShare, 100*modelShare)
}

// measuredWords says which real runs a note's figures are of, n of all
// having measured them.
func measuredWords(n, all int) string {
	if n == all {
		return fmt.Sprintf("all %d real runs measured it", all)
	}
	return fmt.Sprintf("of the %d of the %d real runs that measured it, their makespan's median against the model's", n, all)
}

// startsFactor is how many times the real runs' P starts the model's
// must be, or they the model's, for startsNote to name them.
const startsFactor = 1.5

// startsNote says, when the migrations differ, that the Ps were started
// more often on the side that migrates more, by startsFactor or more: a
// P an idle thread starts is one whose thread looks for work, and what
// it steals from another P moves a goroutine there. Both sides must have
// counted them (Observables.ProcStarts): a recording made before has
// none.
func startsNote(rep *Report, model, real []Observables) string {
	row := rep.row("P migrations")
	if row == nil || row.Outcome != "lower" && row.Outcome != "higher" {
		return ""
	}
	starts := func(o Observables) float64 { return float64(o.ProcStarts) }
	realS, ok := medianOf(real, starts)
	modelS, ok2 := medianOf(model, starts)
	if !ok || !ok2 || realS <= 0 || modelS <= 0 {
		return ""
	}
	if more := row.Outcome == "higher"; more && modelS < startsFactor*realS || !more && realS < startsFactor*modelS {
		return ""
	}
	return fmt.Sprintf(migrationsNote+"the real runs started a P a median %.0f times in the window, the model's %.0f: a P an idle thread starts is one whose thread looks for work, and a goroutine it steals from another P has moved; where the kernel runs that thread, and when, decides how often it finds one (docs/fidelity.md, \"The edge of room\")",
		realS, modelS)
}

// wokenNote says, when the model's migrations are above the real runs',
// how many of them, at the median, moved a goroutine that a timer or the
// network poller had woken (Observables.WokenAway), against the real
// runs' count, if the model's is startsFactor times it and more by two or
// more. A thread that runs due timers, coming back from the poller or
// stealing them on the last pass of its search, runs them on the P it
// holds: when the sleepers wait on one P and that thread holds another,
// every timer moves a goroutine. Only the real runs that counted them (a
// recording made before has none) are taken.
func wokenNote(rep *Report, model, real []Observables) string {
	row := rep.row("P migrations")
	if row == nil || row.Outcome != "higher" {
		return ""
	}
	var counted []Observables
	for _, o := range real {
		if o.WokenAway != nil {
			counted = append(counted, o)
		}
	}
	woken := func(o Observables) float64 {
		if o.WokenAway == nil {
			return 0
		}
		return float64(*o.WokenAway)
	}
	realW, ok := medianOf(counted, woken)
	modelW, ok2 := medianOf(model, woken)
	if !ok || !ok2 || modelW < startsFactor*realW || modelW-realW < 2 {
		return ""
	}
	return fmt.Sprintf(migrationsNote+"%.0f of the model's migrations, a median, moved a goroutine that a timer or the network poller had woken on another P than it last ran on, %.0f of the real runs' (%d that counted them): a thread that runs due timers, back from the network poller or stealing them in its search, readies their goroutines on the P it holds, whichever P they were set on (docs/fidelity.md, \"Timers on another P\")",
		modelW, realW, len(counted))
}

// preemptSpread is how much wider than the model's the real runs' times
// of their first preemption must spread for preemptNote: well past what
// the timer slack moves one of sysmon's looks (tens of µs), short of the
// scheduler tick (4ms) a look can come late by.
const preemptSpread = 2 * time.Millisecond

// preemptNote says, when the makespan differs, that the real runs' first
// preemption came at times spread much more widely than the model's. A
// long slice ends at one of sysmon's looks, and when those come in a real
// run depends on what the program did before the scenario (a slice begun
// in the cpu loop's calibration, sysmon's back-off) and on when the
// kernel gives sysmon's thread a CPU, which the model's noise does not
// follow: tour's real runs group 3ms apart (docs/fidelity.md).
func preemptNote(rep *Report, model, real []Observables) string {
	row := rep.row("makespan")
	if row == nil || row.Outcome != "lower" && row.Outcome != "higher" {
		return ""
	}
	span := func(obs []Observables) (lo, hi time.Duration, n int) {
		for _, o := range obs {
			if o.Untraced || o.FirstPreempt <= 0 {
				continue
			}
			if n == 0 || o.FirstPreempt < lo {
				lo = o.FirstPreempt
			}
			hi = max(hi, o.FirstPreempt)
			n++
		}
		return lo, hi, n
	}
	realLo, realHi, realN := span(real)
	modelLo, modelHi, modelN := span(model)
	if modelN == 0 || 2*realN < len(real) || realHi-realLo < modelHi-modelLo+preemptSpread {
		return ""
	}
	note := fmt.Sprintf(makespanNote+"the real runs' first preemption came %s to %s into the run, the model's %s to %s",
		shortDuration(realLo), shortDuration(realHi), shortDuration(modelLo), shortDuration(modelHi))
	if early := preemptedEarly(real); early > 0 && preemptedEarly(model) == 0 {
		note += fmt.Sprintf("; %d of the %d real runs' came less than %v in, where sysmon, which preempts a slice it has seen for %v, ends only one begun before the scenario: main's, from the program's start or its cpu loop's calibration, which the model's main does not carry into the run (docs/fidelity.md, \"Main's slice from the prelude\")",
			early, realN, shortDuration(forcePreempt), shortDuration(forcePreempt))
	}
	return note + ": a long slice ends at one of sysmon's looks, and when those come in a real run depends on what the program did before the scenario and on when the kernel gives sysmon's thread a CPU, which the model's noise does not follow"
}

// forcePreempt is how long sysmon lets a time slice it has seen run
// before it preempts it (proc.go's forcePreemptNS).
const forcePreempt = 10 * time.Millisecond

// preemptedEarly counts the runs whose first preemption came less than
// forcePreempt into the window: the slice it ended began before the
// window opened.
func preemptedEarly(obs []Observables) int {
	n := 0
	for _, o := range obs {
		if !o.Untraced && o.FirstPreempt > 0 && o.FirstPreempt < forcePreempt {
			n++
		}
	}
	return n
}

// switchNote says, when the P use differs, how much of the difference is
// the switches between the scenario's goroutines, if they account for at
// least half of it: the P time from a goroutine's stop to the start of
// one that was ready by then, which a trace shows as an idle P on both
// sides (Recorder.switchTo).
func switchNote(rep *Report, model, real []Observables) string {
	row := rep.row("P utilisation")
	if row == nil || row.Outcome != "lower" && row.Outcome != "higher" || rep.Procs <= 0 {
		return ""
	}
	share := func(obs []Observables) (share, per float64, n int) {
		var shares, pers, counts []float64
		for _, o := range obs {
			if o.Makespan <= 0 || o.Untraced {
				continue
			}
			shares = append(shares, float64(o.SwitchGap)/rep.pTime(o))
			counts = append(counts, float64(o.Switches))
			if o.Switches > 0 {
				pers = append(pers, float64(o.SwitchGap)/float64(o.Switches))
			}
		}
		if len(shares) == 0 || len(pers) == 0 {
			return 0, 0, 0
		}
		for _, v := range [][]float64{shares, pers, counts} {
			slices.Sort(v)
		}
		return median(shares), median(pers), int(median(counts))
	}
	realShare, realPer, realN := share(real)
	modelShare, modelPer, modelN := share(model)
	diff := row.Model - row.RealMedian // the P use the model has more
	explained := realShare - modelShare
	if realN == 0 || diff == 0 || explained/diff < 0.5 {
		return ""
	}
	// A switch is the scheduler's work, well under a microsecond; a side
	// whose median one takes switchSpan or more counted waits among them
	// (a thief's usleep before it takes a runnext, a woken thread on its
	// way), which the model's switch costs are not, and the note would
	// blame them for what those waits did.
	if realPer >= float64(switchSpan) || modelPer >= float64(switchSpan) {
		return ""
	}
	than := "longer"
	if realPer < modelPer {
		than = "shorter"
	}
	return fmt.Sprintf(useNote+"the real runs' Ps spent a median %.1f%% of their time switching between the scenario's goroutines (%d switches of %s), the model's %.1f%% (%d of %s), which is %.0f%% of the %.1f points between the two: the switch as a trace stamps it, from a goroutine's stop once it has left its M to the next start in execute, is an idle P on both sides, and the real runtime's takes %s than the model's Schedule, ScheduleExit and ScheduleYield (traced, calibrate)",
		100*realShare, realN, shortDuration(time.Duration(realPer)), 100*modelShare, modelN, shortDuration(time.Duration(modelPer)), 100*min(explained/diff, 1), 100*math.Abs(diff), than)
}

// sliceNote says, when the model's P use is below the real runs', how
// much of the difference is the real runs' running past the model's
// longest slice, if that accounts for at least half of it: the running
// time of their slices beyond the median of the model's runs' longest
// (Observables.Longest), as a share of the P time. A goroutine whose
// thread the kernel takes its CPU from still runs as the trace sees it,
// and its P stays busy while its work waits: in 48 of 50 real runs of
// purge-coarse, one to six 1ms tasks ran 5.0-5.2ms, a scheduler tick
// behind another of the program's threads (docs/fidelity.md, "Slices
// past the model's longest").
func sliceNote(rep *Report, model, real []Observables) string {
	row := rep.row("P utilisation")
	if row == nil || row.Outcome != "lower" || rep.Procs <= 0 {
		return ""
	}
	var measured []Observables
	for _, o := range real {
		if len(o.Longest) > 0 {
			measured = append(measured, o)
		}
	}
	cut, ok := medianOfTraced(model, func(o Observables) float64 {
		if len(o.Longest) == 0 {
			return 0
		}
		return float64(o.Longest[0])
	})
	if len(measured) == 0 || !ok || cut <= 0 {
		return ""
	}
	past := func(o Observables) float64 {
		var d time.Duration
		for _, s := range o.Longest {
			d += max(s-cut, 0)
		}
		return float64(d) / rep.pTime(o)
	}
	realShare, ok := medianOf(measured, past)
	modelShare, ok2 := medianOf(model, past)
	diff := row.RealMedian - row.Model
	explained := realShare - modelShare
	if !ok || !ok2 || diff <= 0 || explained/diff < 0.5 {
		return ""
	}
	longer := 0
	for _, o := range measured {
		if o.Longest[0] > cut {
			longer++
		}
	}
	realLongest, _ := medianOfTraced(measured, func(o Observables) float64 { return float64(o.Longest[0]) })
	of := fmt.Sprintf("the %d real runs", len(measured))
	if len(measured) < len(real) {
		// Runs from a recording made before slices were measured have
		// none, and are not counted.
		of = fmt.Sprintf("the %d real runs that measured their slices", len(measured))
	}
	return fmt.Sprintf(useNote+"%d of %s ran a goroutine at a stretch for longer than the model's longest slice (a median %s; the real runs' longest, a median %s), and their slices ran past it for a median %.1f%% of the P time, the model's %.1f%%, which is %.0f%% of the %.1f points between the two: either the work took longer than the model's costs say, or the goroutine's thread lost its CPU while it ran, which a trace shows as running, its P busy while the work waits (go run ./scripts/cpustall measures how often this machine takes a CPU away for longer than 200us)",
		longer, of, shortDuration(cut), shortDuration(realLongest), 100*realShare, 100*modelShare, 100*min(explained/diff, 1), 100*diff)
}

// noteRealRuns adds the report's notes on how the real runs were made:
// untraced, or traced with what the tracer's goroutines did. Each note
// once: a report that says the same thing twice reads as two causes.
func (rep *Report) noteRealRuns(sc *scenarios.Scenario, untraced bool, real []Observables) {
	if untraced {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s ends with %s by design: its program ran untraced (the runtime does not detect a deadlock while it traces, and a panic ends a program before its trace is written), and is judged by Go's exit status and message", sc.Name, sc.Expect))
		return
	}
	rep.Notes = append(rep.Notes, tracerNotes(real)...)
}

// calibrationPrelude is how long a real program that runs cpu actions
// computes before its scenario: its cpu loop's calibration
// (prog/cpuwork's calibrateWith), 20ms of the clock.
const calibrationPrelude = 20 * time.Millisecond

// programStart is how long a real program's sysmon has run when the
// program's scenario starts, besides a calibration: runtime.main starts
// sysmon, then the runtime's and the packages' inits, GOMAXPROCS, the until
// goroutine and runtime/trace.Start come first. go run ./scripts/preamble
// NAME, 15-20 runs each, load 0.4-0.5: forever-cooperative 0.52-0.75ms
// (median 0.63), starved-sleeper 0.51-0.76 (0.66), pingpong-table
// 0.41-0.63 (0.58); the programs that calibrate 20.5-22.3ms (median
// 20.8, the calibration's 20ms and this). pingpong-2p's took longer,
// 0.47-1.7ms (median 1.26).
const programStart = 600 * time.Microsecond

// afterPrelude is cfg for a model compared with real runs, whose sysmon
// starts before the scenario: at the program's start (programStart), and
// for a program that computes before its scenario 20ms more, the cpu
// loop's calibration on main's P. Meanwhile sysmon's passes find nothing
// to retake and back its sleep off from 20µs towards 10ms, so the
// scenario starts with sysmon well into that: after a calibration it
// looks every 5 to 10ms, and a syscall of a few milliseconds keeps its P
// though work waits (syscall-busy: 14.2–15.4ms, the 5ms syscall never
// retaken, where the model with a fresh sysmon retook it within 100µs and
// took 9.5ms); without one, its looks have doubled to 2.6ms and then
// 5.2ms by the time a slice that began at the start is 10ms old, so a
// spinning goroutine is preempted about 15ms in, where a fresh sysmon
// looks at 10.3ms (forever-cooperative: real 14.9–15.2ms in most runs, the
// model 10.3ms before). The model's sysmon starts as the prelude left it
// (gmp.Config.SysmonPrelude).
func afterPrelude(sc *scenarios.Scenario, cfg gmp.Config) gmp.Config {
	if cfg.SysmonPrelude != 0 {
		return cfg
	}
	cfg.SysmonPrelude = programStart
	// Translating is cheap, and the program says whether it calibrates;
	// an error here is Session's to report.
	if p, err := prog.Translate(sc, cfg); err == nil && p.Calibrates {
		cfg.SysmonPrelude += calibrationPrelude
	}
	return cfg
}

// nanosleepSyscalls is cfg for a model compared with real runs, whose
// program makes each syscall action a nanosleep (prog's syscallFor): the
// kernel lengthens it by its timer slack, as it does sysmon's usleep, so
// its syscalls last the model's usleep slack longer (gmp.Costs.
// SyscallSlack; UsleepSlack is calibrate's nanosleep_slack). The real
// syscall-busy's 20µs syscall lasted 99µs, its 5ms one 5.07ms.
func nanosleepSyscalls(cfg gmp.Config) gmp.Config {
	if cfg.Costs == (gmp.Costs{}) {
		cfg.Costs = gmp.DefaultCosts()
	}
	if cfg.Costs.SyscallSlack == 0 {
		cfg.Costs.SyscallSlack = cfg.Costs.UsleepSlack
	}
	return cfg
}

// onMachineCPUs is cfg for a model compared with real runs on a machine
// of cpus CPUs, and a note if it changed it. With more Ps than CPUs the
// real Ps take turns on the CPUs, and a model that gives each M a CPU of
// its own runs them all at once (burst's 4 Ps on 2 CPUs: 302ms against
// the real 568ms): the model then shares the machine's CPUs among its Ms
// (Config.CPUs, a model of Linux's EEVDF), unless the scenario or --cpus
// says how many CPUs, or --load asks for a busy machine. With as many
// CPUs as Ps or more it is left alone: there it changes nothing that
// verify measures, and costs the model's speed.
func onMachineCPUs(cfg gmp.Config, over scenarios.Overrides, cpus int) (gmp.Config, string) {
	if cfg.CPUs != 0 || over.CPUs != 0 || cfg.Load != 0 || cpus < 1 || cfg.Procs <= cpus {
		return cfg, ""
	}
	cfg.CPUs = min(cpus, gmp.MaxProcs)
	return cfg, fmt.Sprintf("GOMAXPROCS=%d on %d CPUs: the real Ps take turns on the CPUs, and the model's Ms share %d CPUs as this machine's threads do (as --cpus %d)", cfg.Procs, cpus, cfg.CPUs, cfg.CPUs)
}

// The report names the runtime goroutines' system calls when, at the
// median of the real runs, they take this share of a run and this long:
// a short run's one write is no part of what it shows. It names their
// starts when the median run has this many.
const (
	tracerNoteShare  = 0.05
	tracerNoteTime   = time.Millisecond
	tracerNoteStarts = 10
	tracerNoteDelay  = 0.01
)

// tracerNotes says what the runtime's own goroutines did in the real
// runs, when it is enough to matter. runtime/trace runs two of them: its
// writer, whose system calls can hold a P that the model's untraced runs
// have free (a ping-pong pair's thief cannot run then, so a traced pair
// migrates less), and its CPU-sample reader, woken by a timer every 100ms.
// A start from a run queue begins a new time slice on its P, and a timer's
// wake-up ends sysmon's deep sleep, so a traced run's preempted slices are
// partly the tracer's doing: beside a ping-pong pair on one P the writer
// runs every millisecond or so and sysmon never sees a slice 10ms old, and
// between a timer's bursts the reader brings sysmon's look into a burst.
func tracerNotes(real []Observables) []string {
	var shares, times, starts, delays, delayShares []float64
	for _, o := range real {
		if o.Makespan > 0 {
			shares = append(shares, float64(o.RuntimeSyscall)/float64(o.Makespan))
			times = append(times, float64(o.RuntimeSyscall))
			starts = append(starts, float64(o.RuntimeStarts))
			delays = append(delays, float64(o.RuntimeDelay))
			window := o.Makespan + o.RuntimeDelay
			if o.StoppedByUntil {
				window = o.Makespan
			}
			delayShares = append(delayShares, float64(o.RuntimeDelay)/float64(window))
		}
	}
	if len(shares) == 0 {
		return nil
	}
	for _, v := range [][]float64{shares, times, starts, delays, delayShares} {
		slices.Sort(v)
	}
	var notes []string
	if share := median(delayShares); share >= tracerNoteDelay {
		leftOut := "and the real makespans leave that time out"
		if real[0].StoppedByUntil {
			leftOut = "the run being stopped by until, its makespan is the whole window all the same, and its goroutines had that much less time to run"
		}
		notes = append(notes, fmt.Sprintf("the real runs waited a median %s (%.0f%% of the window) while the runtime's goroutines (runtime/trace's writer among them) held every P and a scenario goroutine was ready: the model runs none, %s", shortDuration(time.Duration(median(delays))), 100*share, leftOut))
	}
	if share := median(shares); share >= tracerNoteShare && time.Duration(median(times)) >= tracerNoteTime {
		notes = append(notes, fmt.Sprintf("the real runs' runtime goroutines (runtime/trace's writer among them) spent a median %.0f%% of the run in system calls, where a call can hold a P that the model's untraced runs have free", 100*share))
	}
	if n := median(starts); n >= tracerNoteStarts {
		notes = append(notes, fmt.Sprintf("the real runs' runtime goroutines (runtime/trace's writer and CPU-sample reader among them) started running a median %.0f times: a start can begin a new time slice, and a timer's wake-up ends sysmon's deep sleep, so the real preempted slices are partly the tracer's doing (go run ./scripts/untraced measures three patterns without it)", n))
	}
	return notes
}
