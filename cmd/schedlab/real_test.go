package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/realtest"
	"github.com/schedlab/schedlab/real/verify"
)

func TestRealAndVerifyRefuseWhatTheyCannotDo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"real", "tour", "--noise"}, "--noise applies to the model only"},
		{[]string{"real", "tour", "--policy", "no-steal"}, "--policy applies to the model only"},
		{[]string{"real", "tour", "--runs", "-1"}, "--runs -1: want 0 to 1000"},
		{[]string{"real", "tour", "--runs", "0", "--trace", "x.trace"}, "--trace keeps the last run's trace"},
		{[]string{"real", "tour", "--timeout", "0s"}, "--timeout 0s"},
		{[]string{"real", "nosuch"}, `no built-in scenario or file named "nosuch"`},
		{[]string{"verify"}, "a scenario name or file (or --all)"},
		{[]string{"verify", "tour", "--all"}, "--all verifies every built-in"},
		{[]string{"verify", "tour", "--runs", "0"}, "verify needs at least one real run"},
		{[]string{"verify", "tour", "--seeds", "0"}, "--seeds 0"},
		{[]string{"verify", "tour", "--format", "yaml"}, `--format "yaml"`},
		{[]string{"verify", "--all", "--emit", "d"}, "--emit writes one program"},
		{[]string{"real", "tour", "--force"}, "--force lets --emit write into a folder that is not empty: it needs --emit DIR"},
		{[]string{"real", "tour", "--max-memory", "0"}, `invalid argument "0" for "--max-memory" flag: want a positive size such as 512MiB`},
		{[]string{"real", "tour", "--max-trace", "1XB"}, `invalid argument "1XB" for "--max-trace" flag`},
		{[]string{"verify", "tour", "--max-memory", "-1GiB"}, `invalid argument "-1GiB" for "--max-memory" flag`},
		{[]string{"verify", "tour", "--control", "--control-from", "d"}, "--control runs a second series and --control-from reads one"},
		{[]string{"verify", "tour", "--real-from", "d", "--record", "e"}, "--record keeps real runs, and --real-from runs none"},
		{[]string{"verify", "tour", "--real-from", "d", "--control"}, "use --control-from DIR for a recorded one"},
		{[]string{"verify", "tour", "--real-from", "d", "--runs", "3"}, "--runs is about running the real program, and --real-from runs nothing"},
		{[]string{"verify", "tour", "--real-from", "d", "--emit", "e"}, "--emit is about running the real program"},
		{[]string{"verify", "tour", "--real-from", "/nonexistent"}, "/nonexistent/tour.json: no recording of tour here (verify --record /nonexistent writes one)"},
		{[]string{"verify", "tour", "--real-from", ""}, "--real-from: an empty folder name"},
		{[]string{"verify", "tour", "--real-from", "d,"}, "--real-from: an empty folder name"},
		{[]string{"verify", "tour", "--real-from", "d", "--control-from", ""}, "--control-from: an empty folder name"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

func TestRealWithoutGoSaysSo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, _, errOut := cli(t, "real", "tour")
	if code != exitRun || !strings.Contains(errOut, "the go command is not on PATH") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestRealRunsAScenario builds and runs a small scenario for real, keeps
// its program and trace, and reads the trace back in the scenario's
// numbering.
func TestRealRunsAScenario(t *testing.T) {
	realtest.Require(t)
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	dir := filepath.Join(t.TempDir(), "prog")
	tr := filepath.Join(t.TempDir(), "two.trace")
	code, out, errOut := cli(t, "real", file, "--runs", "2", "--emit", dir, "--trace", tr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"GOMAXPROCS=2", "run 1: ", "run 2: ", "goroutines created 2, peak live goroutines 3", "schedlab trace " + tr + " --scenario"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
		t.Errorf("--emit did not keep the program: %v", err)
	}
	code, out, errOut = cli(t, "trace", tr, "--scenario")
	if code != exitOK {
		t.Fatalf("trace: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "G1 creates G2") || !strings.Contains(out, "G1 creates G3") || strings.Contains(out, "creates G4") {
		t.Errorf("trace --scenario does not number the scenario's goroutines G2 and G3:\n%s", out)
	}
}

func TestVerifyPrintsAVerdictPerObservable(t *testing.T) {
	realtest.Require(t)
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no cost profile of this machine's
	code, out, errOut := cli(t, "verify", file, "--runs", "2", "--seeds", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"the model (seeds 1–2, noise on) against 2 real runs", "load average", "\ncosts: the model's built-in costs (no profile at "} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// The file fixes the goroutines: the model and every real run agree,
	// and identical samples are within at any size.
	if !regexp.MustCompile(`(?m)^goroutines created +2 +2 +2 +1\.00 +within$`).MatchString(out) {
		t.Errorf("the report does not find 2 goroutines on both sides, within:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n != 10 {
		t.Errorf("the report has %d lines, want a title, the costs, a header and 7 observables:\n%s", n, out)
	}
}

// TestVerifyControlJudgesTheRuntimeAgainstItself: --control runs the
// program as many times again and reports the second series judged
// against the first, its runs numbered on.
func TestVerifyControlJudgesTheRuntimeAgainstItself(t *testing.T) {
	realtest.Require(t)
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "emit")
	code, out, errOut := cli(t, "verify", file, "--runs", "2", "--seeds", "2", "--control", "--emit", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^control: 2 more real runs, judged against the first 2 as the model is: they differ on (none|\d+) of 7 observables`).MatchString(out) {
		t.Errorf("the report has no control line:\n%s", out)
	}
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("run-%d.trace", i))); err != nil {
			t.Errorf("--emit kept no trace of run %d of the two series: %v", i, err)
		}
	}
}

// What verify --record keeps, --real-from judges again to the same
// verdicts, row for row.
func TestVerifyRecordsWhatItJudged(t *testing.T) {
	realtest.Require(t)
	file := writeScenario(t, "two.yaml", "name: two\nprocs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "runs")
	code, ran, errOut := cli(t, "verify", file, "--runs", "3", "--seeds", "2", "--record", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, replayed, errOut := cli(t, "verify", file, "--seeds", "2", "--real-from", dir)
	if code != exitOK {
		t.Fatalf("--real-from: exit %d: %s", code, errOut)
	}
	rows := func(out string) []string {
		var keep []string
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "note: the real runs are those recorded") {
				keep = append(keep, line)
			}
		}
		return keep
	}
	if a, b := rows(ran), rows(replayed); !slices.Equal(a, b) {
		t.Errorf("the recorded runs judged again:\n%s\nwhen they ran:\n%s", replayed, ran)
	}
}

// verify --record refuses, before anything runs, a folder holding a
// recording of a scenario it would record: the new series would replace
// that one, or mix with it (a folder with another scenario's is free).
// --force lets it write over them.
func TestVerifyRecordKeepsWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", t.TempDir()) // nothing may be built or run
	if err := os.WriteFile(filepath.Join(dir, "steal.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := cli(t, "verify", "--all", "--record", dir)
	if want := "--record " + dir + ": " + filepath.Join(dir, "steal.json") + " is there already, a series recorded before: give a new folder, or --force to write over it"; code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitUsage, want)
	}
	// tour's folder holds no tour.json: it goes on to build, which needs
	// the go command; with --force, so does --all.
	for _, args := range [][]string{{"verify", "tour", "--record", dir}, {"verify", "--all", "--record", dir, "--force"}} {
		if code, _, errOut := cli(t, args...); code != exitRun || !strings.Contains(errOut, "the go command is not on PATH") {
			t.Errorf("%q: exit %d, stderr %q; want it to go on to the build", args, code, errOut)
		}
	}
}

// verify --all --real-from judges the built-ins the folder holds a
// recording of, and names those it does not; a folder with none is a
// mistake.
func TestVerifyAllJudgesWhatWasRecorded(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	for _, name := range []string{"runnext", "timer-1p"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		rec := &verify.Recording{Scenario: name, Procs: sc.Config().Procs, CPUs: runtime.NumCPU(), Go: "go1.26.8", LoadBefore: "1", LoadAfter: "1",
			Runs: []verify.Observables{{Makespan: 1000, Goroutines: 3, Utilisation: 0.9}, {Makespan: 1100, Goroutines: 3, Utilisation: 0.9}}}
		if err := verify.WriteRecording(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := cli(t, "verify", "--all", "--seeds", "1", "--real-from", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "\n2 scenarios; the model differs") || !regexp.MustCompile(`\nnot judged, for want of a recording: tour, overflow, steal, .*forever-cooperative\n$`).MatchString(out) {
		t.Errorf("the report does not judge the two recorded and name the rest:\n%s", out)
	}
	code, _, errOut = cli(t, "verify", "--all", "--real-from", t.TempDir())
	if code != exitUsage || !strings.Contains(errOut, "no recording of any built-in in ") {
		t.Errorf("an empty folder: exit %d, %s", code, errOut)
	}

	// Pooled with a folder that holds runnext alone, the two judge
	// runnext on the runs of both, and name timer-1p as not judged.
	more := t.TempDir()
	sc, err := scenarios.Load("runnext")
	if err != nil {
		t.Fatal(err)
	}
	rec := &verify.Recording{Scenario: "runnext", Procs: sc.Config().Procs, CPUs: runtime.NumCPU(), Go: "go1.26.8", LoadBefore: "2", LoadAfter: "3",
		Runs: []verify.Observables{{Makespan: 1200, Goroutines: 3, Utilisation: 0.8}}}
	if err := verify.WriteRecording(more, rec); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli(t, "verify", "--all", "--seeds", "1", "--real-from", dir+","+more)
	if code != exitOK {
		t.Fatalf("pooled: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"runnext: the model (seed 1, noise on) against 3 real runs (go1.26.8, GOMAXPROCS=1; load average 1.00–3.00 before and after the 2 series",
		"note: the real runs are those recorded in " + verify.RecordingPath(dir, "runnext") + " (2), " + verify.RecordingPath(more, "runnext") + " (1), judged as one sample",
		"\nnot judged, for want of a recording: tour, overflow, steal, ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pooled: the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "timer-1p: the model") {
		t.Errorf("pooled: timer-1p, in one folder only, was judged:\n%s", out)
	}
	code, _, errOut = cli(t, "verify", "runnext", "--real-from", dir+","+more+","+dir)
	if code != exitUsage || !strings.Contains(errOut, dir+" is given twice") {
		t.Errorf("a folder twice: exit %d, %s", code, errOut)
	}
}

// verify --real-from judges the model against recorded runs and runs
// nothing: it needs no go command. --control-from judges a second
// recording against them. A recording of another scenario's is refused
// as a file in error.
func TestVerifyRealFromRunsNothing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	file := writeScenario(t, "two.yaml", "name: two\nprocs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	sc, err := scenarios.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	var runs []verify.Observables
	for seed := uint64(1); seed <= 3; seed++ {
		cfg.Seed = seed
		o, _, err := verify.Model(sc.Program(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, o)
	}
	dir := t.TempDir()
	rec := &verify.Recording{Scenario: "two", Procs: 2, CPUs: runtime.NumCPU(), Go: "go1.26.8", LoadBefore: "0.50", LoadAfter: "0.70", Runs: runs}
	if err := verify.WriteRecording(dir, rec); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := cli(t, "verify", file, "--seeds", "2", "--real-from", dir, "--control-from", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := filepath.Join(dir, "two.json")
	for _, want := range []string{
		"the model (seeds 1–2, noise on) against 3 real runs (go1.26.8, GOMAXPROCS=2; load average 0.50 before, 0.70 after",
		"note: the real runs are those recorded in " + path + ": none ran now",
		"control: the 3 real runs recorded in " + path + ", judged against the 3 as the model is: they differ on none of",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`(?m)^goroutines created +2 +2 +2 +1\.00 +within$`).MatchString(out) {
		t.Errorf("the report does not find 2 goroutines on both sides, within:\n%s", out)
	}
	rec.Scenario = "tour"
	if err := verify.WriteRecording(dir, rec); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(dir, "tour.json"), path)
	code, _, errOut = cli(t, "verify", file, "--real-from", dir)
	if code != exitUsage || !strings.Contains(errOut, path+`: a recording of "tour", not of "two"`) {
		t.Errorf("another scenario's recording: exit %d, %s", code, errOut)
	}
}

// TestTraceOpensInTheReplayView writes a real trace, then opens it with
// --format tui and --vs real on a scripted screen.
func TestTraceOpensInTheReplayView(t *testing.T) {
	realtest.Require(t)
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	tr := filepath.Join(t.TempDir(), "two.trace")
	if code, _, errOut := cli(t, "real", file, "--trace", tr); code != exitOK {
		t.Fatalf("real: exit %d: %s", code, errOut)
	}
	scr := withScreen(t, "lllq")
	code, out, errOut := cli(t, "trace", tr, "--scenario", "--format", "tui")
	if code != exitOK || out != "" || errOut != "" {
		t.Fatalf("trace --format tui: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.HasPrefix(scr.top, "schedlab trace /") || !strings.Contains(scr.top, "event 3 of") {
		t.Errorf("after three steps the header reads %q", scr.top)
	}

	scr = withScreen(t, "llq")
	code, _, errOut = cli(t, "tui", file, "--vs", "real")
	if code != exitOK || !strings.Contains(errOut, "building and running two for real") {
		t.Fatalf("tui --vs real: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(scr.top, "two: the model (seed 1) beside a real run") || !strings.Contains(scr.top, "event 2 of") {
		t.Errorf("after two steps the header reads %q", scr.top)
	}
	for _, args := range [][]string{
		{"tui", file, "--vs", "rael"},
		{"tui", file, "--vs", "real", "--quiz"},
		{"tui", "nested-submit", "--vs", "real"},
		{"trace", tr, "--format", "html"},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}

// TestRealRefusesWhatTheModelRefuses runs real on scenarios that schedlab
// check refuses (at the event limit from the file or from --max-events,
// in a deadlock the file does not expect; the century of simulated time
// is the same Machine.Run's, which needs a hundred million sysmon events
// to reach):
// real refuses each with check's exit status and the model's error, and
// builds nothing (there is no go command to build with). With --until,
// the model ends the same run in time, and real goes on to build.
func TestRealRefusesWhatTheModelRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	limit := writeScenario(t, "limit.yaml", "procs: 1\nmax_events: 1000\nmain:\n  - loop: {times: 100000, do: [gosched]}\n")
	deadlock := writeScenario(t, "deadlock.yaml", "procs: 1\nchans: {c: 0}\nmain:\n  - recv: c\n")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{limit}, "stopped after 1000 events"},
		{[]string{"steal", "--max-events", "50"}, "stopped after 50 events"},
		{[]string{deadlock}, "all goroutines are asleep - deadlock!"},
	} {
		checkCode, _, checkErr := cli(t, append([]string{"check"}, c.args...)...)
		code, out, errOut := cli(t, append([]string{"real"}, c.args...)...)
		if code != checkCode || code != exitRun || !strings.Contains(errOut, c.says) || !strings.Contains(checkErr, c.says) {
			t.Errorf("%q: real exit %d, %q; check exit %d, %q; want both exit %d and %q", c.args, code, errOut, checkCode, checkErr, exitRun, c.says)
		}
		if !strings.Contains(errOut, "not run for real") || strings.Contains(errOut, "go command") || out != "" {
			t.Errorf("%q: real went past the model: stdout %q, stderr %q", c.args, out, errOut)
		}
	}
	code, _, errOut := cli(t, "real", limit, "--until", "10us")
	if code != exitRun || !strings.Contains(errOut, "the go command is not on PATH") {
		t.Errorf("real with --until 10us: exit %d, %q; want the model to pass it on to the build", code, errOut)
	}
}

// TestEmitRefusesAFolderInUse: real and verify refuse an --emit folder
// that holds anything, naming it and --force, and leave it as it was.
func TestEmitRefusesAFolderInUse(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	mine := filepath.Join(dir, "main.go")
	if err := os.WriteFile(mine, []byte("package mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	for _, cmd := range []string{"real", "verify"} {
		code, _, errOut := cli(t, cmd, file, "--emit", dir)
		if code != exitUsage || !strings.Contains(errOut, "--emit "+dir+": the folder is not empty") || !strings.Contains(errOut, "add --force") {
			t.Errorf("%s --emit into a folder holding main.go: exit %d, %q", cmd, code, errOut)
		}
	}
	if b, _ := os.ReadFile(mine); string(b) != "package mine\n" {
		t.Errorf("the refused folder's main.go now reads %q", b)
	}
}
