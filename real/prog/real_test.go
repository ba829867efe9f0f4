package prog_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/realtest"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/real/verify"
)

// everyAction uses each action a scenario can name, so that the real
// program runs every translation (TestEveryActionIsTranslated builds each
// action the parser knows; add a new one here to run it too); its goroutine count is fixed by
// the file (3 + 2 + 2 pool workers + 1 + 1; no purge within the run). Its
// loops until f end at once: main sets f before them.
const everyAction = `procs: 2
chans: {done: 1, fin: 0}
sems: {s: 2}
pools: {p: {size: 2, expiry: 1s}}
mutexes: [mu]
rwmutexes: [rw]
waitgroups: [wg]
main:
  - go:
      count: 3
      do:
        - acquire: {sem: s, n: 1}
        - cpu: {uniform: [100us, 300us]}
        - release: {sem: s, n: 1}
        - lock: mu
        - unlock: mu
        - rlock: rw
        - runlock: rw
        - gosched
  - group: {count: 2, limit: 1, do: [{sleep: 200us}, {net: 300us}]}
  - submit: {pool: p, count: 4, do: [{syscall: 100us}]}
  - go: {do: [{send: done}, exit]}
  - recv: done
  - go: {do: [{recv: fin}]}
  - loop: {times: 2, do: [gosched]}
  - select: {cases: [{recv: done}, {after: 200us, do: [gosched]}]}
  - close: fin
  - lock: rw
  - unlock: rw
  - add: {wg: wg, n: 1}
  - done: wg
  - wait: wg
  - wait: children
  - print: "every action"
  - set: f
  - loop: {until: f}
  - loop: {until: f, do: [gosched]}
`

// TestRealProgramsRun builds and runs real programs and reads their traces
// with the scenario's numbering: a real run creates as many goroutines as
// the model's run of the same scenario (each of these scenarios fixes
// that number).
func TestRealProgramsRun(t *testing.T) {
	realtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ name, src string }{
		{"every-action", everyAction},
		{"purge-once", "procs: 2\npools: {p: {size: 4, expiry: 10ms}}\nmain:\n  - submit: {pool: p, do: [{cpu: 100us}]}\n  - sleep: 100ms\n"},
		{"steal", ""},
		{"netpoll", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sc *scenarios.Scenario
			var err error
			if c.src != "" {
				sc, err = scenarios.Parse(c.name+".yaml", []byte(c.src))
			} else {
				sc, err = scenarios.Load(c.name)
			}
			if err != nil {
				t.Fatal(err)
			}
			program, err := prog.Translate(sc, sc.Config())
			if err != nil {
				t.Fatal(err)
			}
			s, err := prog.Prepare(ctx, program, prog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			path, err := s.Run(ctx, 1, 2*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var numbers []int64
			seen := map[int64]bool{}
			sum, err := rtrace.ReadWith(f, rtrace.Options{Scenario: true}, func(e rtrace.Event) {
				if e.Kind == "go-create" {
					numbers = append(numbers, e.G)
				}
				if e.G >= 0 {
					seen[e.G] = true
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			model, _, err := verify.Model(sc.Program(), sc.Config())
			if err != nil {
				t.Fatal(err)
			}
			if sum.Goroutines != model.Goroutines {
				t.Errorf("the real run created %d scenario goroutines, the model %d", sum.Goroutines, model.Goroutines)
			}
			// Numbering: creations are G2, G3, … in order, and every
			// goroutine an event names is one of them or main.
			for i, g := range numbers {
				if g != int64(i+2) {
					t.Fatalf("creation %d is numbered G%d, want G%d", i, g, i+2)
				}
			}
			for g := range seen {
				if g < 1 || g > int64(len(numbers)+1) {
					t.Errorf("an event names G%d, outside the scenario's G1–G%d", g, len(numbers)+1)
				}
			}
			if sum.RuntimeGoroutines == 0 {
				t.Error("no runtime goroutine was set apart: the trace reader at least is one")
			}
		})
	}
}

// A scenario that deadlocks by design runs untraced, and Go says so: exit
// status 2 and its fatal message, after what the program printed, which
// is read from its standard output.
func TestUntracedDeadlockRuns(t *testing.T) {
	realtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	sc, err := scenarios.Parse("d.yaml", []byte("procs: 1\nexpect: deadlock\nchans: {c: 0}\nmain:\n  - print: \"before\"\n  - recv: c\n"))
	if err != nil {
		t.Fatal(err)
	}
	program, err := prog.Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s, err := prog.Prepare(ctx, program, prog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path, out, err := s.RunOutput(ctx, 1, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if path != "" || out.ExitCode != 2 || !strings.Contains(string(out.Stderr), "fatal error: all goroutines are asleep - deadlock!") {
		t.Errorf("trace %q, exit %d, stderr %q", path, out.ExitCode, out.Stderr)
	}
	if lines := out.Lines(); len(lines) != 1 || lines[0] != "before" {
		t.Errorf("printed %q, want [before]", lines)
	}
}

// TestWriteMakesAModule checks the files a program needs are written.
func TestWriteMakesAModule(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	go126 := prog.Toolchain{Path: "go", Version: "go1.26.3"}
	dir := written(t, sc, go126)
	// The go line is the toolchain's release, so that the program runs
	// with that release's default GODEBUG (Write says why).
	if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || !bytes.Contains(mod, []byte("\ngo 1.26\n")) {
		t.Errorf("go.mod for go1.26.3 (%v):\n%s\nwant its go line to be go 1.26", err, mod)
	}
	for _, f := range []string{"go.mod", "main.go", "pool/pool.go", "pool/core.go", "pool/decide/decide.go", "cputime/cputime_unix.go", "cputime/cputime_other.go"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("Write left out %s: %v", f, err)
			continue
		}
		// The program is its own module: an import of schedlab's would
		// fetch schedlab (or fail) instead of using the copy.
		if bytes.Contains(b, []byte(`"github.com/schedlab/schedlab`)) {
			t.Errorf("%s still imports a package of schedlab's module", f)
		}
	}
	for _, pkg := range []string{"pool", "cputime"} {
		if _, err := os.Stat(filepath.Join(dir, pkg, "source.go")); err == nil {
			t.Errorf("Write copied %s/source.go, which embeds files for schedlab, not for the program", pkg)
		}
	}
	// An untraced program logs no CPU time and gets no cputime.
	sc, err = scenarios.Parse("d.yaml", []byte("procs: 1\nexpect: deadlock\nchans: {c: 0}\nmain: [{recv: c}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(written(t, sc, go126), "cputime")); err == nil {
		t.Error("Write gave an untraced program package cputime")
	}
}

// written is the folder Write wrote sc's program into for tc.
func written(t *testing.T, sc *scenarios.Scenario, tc prog.Toolchain) string {
	t.Helper()
	program, err := prog.Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := prog.Write(dir, program, tc); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A traced program reads its CPU time through package cputime, so that it
// builds where there is no getrusage: on Windows too, as it did before.
func TestTracedProgramBuildsForWindows(t *testing.T) {
	ctx, tc := withGo(t)
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	build := exec.CommandContext(ctx, tc.Path, "build", "-o", filepath.Join(t.TempDir(), "prog.exe"), ".")
	build.Dir = written(t, sc, tc)
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go build for windows: %v\n%s", err, out)
	}
}

// TestEveryActionIsTranslated writes every action a scenario can name,
// from the parser's own table, into one program, and builds it: a new
// action fails here until the translator gives it a real counterpart
// that compiles. (The program is built, not run: one after another, the
// examples need not make sense.)
func TestEveryActionIsTranslated(t *testing.T) {
	var src strings.Builder
	src.WriteString("procs: 2\n" + scenarios.ExampleDecls + "main:\n")
	for _, a := range scenarios.ActionExamples() {
		src.WriteString("  - " + a.Line + "\n")
	}
	sc, err := scenarios.Parse("every-action.yaml", []byte(src.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	program, err := prog.Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	s, err := prog.Prepare(ctx, program, prog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// TestRunsSharingAnEmitFolderMeasureTheirOwn prepares two scenarios into
// one --emit folder, the second over the first (--force), then runs the
// first: it runs and measures its own program, not the one written over
// it, and each run's trace is kept in the folder.
func TestRunsSharingAnEmitFolderMeasureTheirOwn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(t.TempDir(), "shared")
	var sessions []*prog.Session
	for i, n := range []int{2, 5} {
		src := fmt.Sprintf("procs: 1\nmain:\n  - go: {count: %d, do: [{cpu: 100us}]}\n  - wait: children\n", n)
		sc, err := scenarios.Parse(fmt.Sprintf("go%d.yaml", n), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		s, done, err := verify.Session(ctx, sc, sc.Config(), prog.Options{Emit: dir, Force: i > 0})
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		sessions = append(sessions, s)
	}
	for i, want := range []int{2, 5} {
		obs, err := verify.RealRuns(ctx, sessions[i], 1, time.Minute, nil, func(_ int, trace string, _ verify.Observables) error {
			if filepath.Dir(trace) != dir {
				t.Errorf("run's trace %s is not kept in the --emit folder", trace)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := obs[0].Goroutines; got != want {
			t.Errorf("the session of the scenario with %d goroutines measured %d", want, got)
		}
	}
}

// TestEmittedProgramBuildsAsItIs: a program that requires a module (a
// net action's golang.org/x/sys) is emitted with the go.sum its build
// wrote, so that go build, and the go run . the folder is kept for, work
// there as it is: read-only, with nothing fetched.
func TestEmittedProgramBuildsAsItIs(t *testing.T) {
	ctx, tc := withGo(t)
	sc, err := scenarios.Parse("net.yaml", []byte("procs: 1\nmain:\n  - net: 1ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "kept")
	_, done, err := verify.Session(ctx, sc, sc.Config(), prog.Options{Emit: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !bytes.Contains(mod, []byte("golang.org/x/sys")) {
		t.Fatalf("the emitted go.mod does not require golang.org/x/sys (%v):\n%s", err, mod)
	}
	build := exec.CommandContext(ctx, tc.Path, "build", "-o", filepath.Join(t.TempDir(), "prog"), ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go build in the --emit folder: %v\n%s", err, out)
	}
}

// TestProgramRunsTheToolchainsDefaults: a program that requires no module
// (whose go line no requirement raises) is built with the toolchain's own
// default GODEBUG, so that from Go 1.23 on time.After's channels are the
// synchronous ones (asynctimerchan=0), as in a module written today.
func TestProgramRunsTheToolchainsDefaults(t *testing.T) {
	ctx, tc := withGo(t)
	program := translate(t, "procs: 1\nmain:\n  - select: {cases: [{after: 1ms}]}\n")
	dir := t.TempDir()
	if err := prog.Write(dir, program, tc); err != nil {
		t.Fatal(err)
	}
	bin, err := prog.Build(ctx, tc, dir)
	if err != nil {
		t.Fatal(err)
	}
	info, err := exec.CommandContext(ctx, tc.Path, "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if bytes.Contains(info, []byte("asynctimerchan=1")) {
		t.Errorf("built by %s, the program runs Go 1.22's timer channels; go.mod:\n%s\n%s", tc.Version, mod, info)
	}
}

// Write refuses a toolchain it cannot read the release of, rather than
// guess the program's defaults.
func TestWriteWantsTheToolchainsRelease(t *testing.T) {
	program := translate(t, "procs: 1\nmain:\n  - sleep: 1ms\n")
	for _, v := range []string{"", "go1.21.5", "gccgo"} {
		err := prog.Write(t.TempDir(), program, prog.Toolchain{Path: "go", Version: v})
		if err == nil || !strings.Contains(err.Error(), "want Go 1.22 or later") {
			t.Errorf("Write for Go %q: %v, want a refusal", v, err)
		}
	}
}

// withGo finds the local toolchain, skipping t without one, and returns
// it with a context that bounds go's steps.
func withGo(t *testing.T) (context.Context, prog.Toolchain) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	tc, err := prog.FindGo(ctx)
	if err != nil {
		t.Skip(err)
	}
	return ctx, tc
}

// translate is the program of the scenario src.
func translate(t *testing.T, src string) *prog.Program {
	t.Helper()
	sc, err := scenarios.Parse("small.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	program, err := prog.Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return program
}

// TestRealRunsProbeThePaceAroundEachRun: verify's probe of the machine's
// pace runs before each real run and after the last, and each run gets
// the probes either side of it, the one after a run being the next one's
// before. The probe here is a counter, so nothing depends on the machine.
func TestRealRunsProbeThePaceAroundEachRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	sc, err := scenarios.Parse("one.yaml", []byte("procs: 1\nmain:\n  - go: {do: [{cpu: 10us}]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, done, err := verify.Session(ctx, sc, sc.Config(), prog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	probes := 0
	probe := func() (verify.Pace, bool) {
		probes++
		return verify.Pace{Handoff: time.Duration(100 * probes), Spin: 137}, true
	}
	obs, err := verify.RealRuns(ctx, s, 3, time.Minute, probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	if probes != 4 {
		t.Errorf("%d probes for 3 runs, want 4", probes)
	}
	for i, o := range obs {
		if o.PaceBefore == nil || o.PaceAfter == nil || o.PaceBefore.Handoff != time.Duration(100*(i+1)) || o.PaceAfter.Handoff != time.Duration(100*(i+2)) {
			t.Errorf("run %d: probes %v and %v, want the %dth and the %dth", i+1, o.PaceBefore, o.PaceAfter, i+1, i+2)
		}
	}
	if none, err := verify.RealRuns(ctx, s, 1, time.Minute, nil, nil); err != nil || none[0].PaceBefore != nil || none[0].PaceAfter != nil {
		t.Errorf("without a probe: %v, %v", none, err)
	}
}
