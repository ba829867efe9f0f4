package verify

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
)

// recordingOf is a recording of runs of scenario on procs Ps, made on
// this machine.
func recordingOf(scenario string, procs int, runs []Observables) *Recording {
	return &Recording{Scenario: scenario, Procs: procs, CPUs: runtime.NumCPU(), Go: "go1.26.8", LoadBefore: "0.52", LoadAfter: "0.61", Runs: runs}
}

// recordedTimer1p is timer-1p, the model's config for it as verify has
// it, and five of the model's runs to record as if real, for a test that
// judges recordings: nothing may be built or run meanwhile.
func recordedTimer1p(t *testing.T) (*scenarios.Scenario, gmp.Config, []Observables) {
	t.Helper()
	t.Setenv("PATH", "")
	sc, err := scenarios.Load("timer-1p")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := modelConfig(sc, scenarios.Overrides{}, runtime.NumCPU())
	return sc, cfg, modelRuns(t, sc, cfg, 5)
}

// modelRuns is the model's observables of sc over seeds 1 to seeds, as a
// recording holds real runs'.
func modelRuns(t *testing.T, sc *scenarios.Scenario, cfg gmp.Config, seeds int) []Observables {
	t.Helper()
	var runs []Observables
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		c := cfg
		c.Seed = seed
		o, _, err := Model(sc.Program(), c)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, o)
	}
	return runs
}

// What --record writes, --real-from reads back whole: every figure of
// every run, the printed lines and how an untraced run ended.
func TestARecordingReadsBackWhole(t *testing.T) {
	dir := t.TempDir()
	runs := controlRuns(time.Millisecond, 0.5)
	runs[3].Output = []string{"a", "b"}
	runs[4].Preempted, runs[4].Migrations, runs[4].RuntimeDelay, runs[4].FirstPreempt = 3, 7, time.Microsecond, 15*time.Millisecond
	runs[4].Longest = []time.Duration{3 * time.Millisecond, time.Millisecond, time.Millisecond}
	written := recordingOf("tour", 2, runs)
	written.EndMarked, written.Rules = true, measureRules
	if err := WriteRecording(dir, written); err != nil {
		t.Fatal(err)
	}
	rec, err := ReadRecording(dir, "tour", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := recordingOf("tour", 2, runs)
	want.Format, want.EndMarked, want.Rules = recordingFormat, true, measureRules
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("read back %+v, want %+v", rec, want)
	}
}

// A recording's file is named after its scenario in letters, digits, -
// and _, whatever the name: none reaches outside the folder.
func TestARecordingsFileIsNamedSafely(t *testing.T) {
	for name, want := range map[string]string{
		"tour": "tour.json", "print-order-2p": "print-order-2p.json", "My Demo (v2)": "my-demo-v2.json",
		"../../etc/passwd": "etc-passwd.json", "": "scenario.json", "…": "scenario.json",
		strings.Repeat("a", 300): strings.Repeat("a", 100) + ".json",
	} {
		if got := RecordingPath("d", name); got != filepath.Join("d", want) {
			t.Errorf("%q: %s, want d/%s", name, got, want)
		}
	}
	dir := t.TempDir()
	if err := WriteRecording(dir, recordingOf("../x", 2, controlRuns(time.Millisecond, 0.5))); err != nil {
		t.Fatal(err)
	}
	if rec, err := ReadRecording(dir, "../x", 2); err != nil || rec.Scenario != "../x" {
		t.Errorf("../x read back as %v, %v", rec, err)
	}
	if _, err := ReadRecording(dir, "x", 2); err == nil || !strings.Contains(err.Error(), `x.json: a recording of "../x", not of "x"`) {
		t.Errorf("x read ../x's recording: %v", err)
	}
}

// A recording is a file anyone may send: what is not one is refused with
// the file, and the line and column of the JSON at fault or the run and
// figure, never taken.
func TestARecordingIsCheckedWhole(t *testing.T) {
	good := `{"schedlab_recording": 1, "scenario": "tour", "procs": 2, "cpus": CPUS, "go": "go1.26.8", "load_before": "0.5", "load_after": "0.6",
 "runs": [{"makespan_ns": 1000, "utilisation": 0.5}]}`
	good = strings.ReplaceAll(good, "CPUS", "1")
	for _, c := range []struct{ name, data, want string }{
		{"empty", ``, "f.json:1:1: the recording ends early"},
		{"syntax", "{\n \"scenario\": tour}", "f.json:2:15: not JSON"},
		{"unknown field", strings.Replace(good, `"go":`, `"og":`, 1), `f.json:1:70: unknown field "og": a typo`},
		{"wrong type", strings.Replace(good, `"procs": 2`, `"procs": "2"`, 1), "f.json:1:59: procs: want a number"},
		{"two values", good + good, "f.json:2:"},
		{"not UTF-8", strings.Replace(good, "go1.26.8", "go\xff", 1), "f.json:1:79: not UTF-8 text"},
		{"format", strings.Replace(good, `"schedlab_recording": 1`, `"schedlab_recording": 2`, 1), "f.json: not a recording this schedlab reads (schedlab_recording 2, want 1)"},
		{"name", strings.Replace(good, `"tour"`, `""`, 1), `f.json: scenario "": want a scenario's name`},
		{"procs", strings.Replace(good, `"procs": 2`, `"procs": 0`, 1), "f.json: procs 0: want 1 to 65536"},
		{"rules", strings.Replace(good, `"procs": 2`, `"procs": 2, "rules": 3`, 1), "f.json: rules 3: want 2 or less (a later schedlab's recording measures by rules this one does not know)"},
		{"no runs", strings.Replace(good, `[{"makespan_ns": 1000, "utilisation": 0.5}]`, `[]`, 1), "f.json: no runs"},
		{"negative", strings.Replace(good, `"makespan_ns": 1000`, `"makespan_ns": -1`, 1), "f.json: run 1: makespan -1: below zero"},
		{"share", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 1.5`, 1), "f.json: run 1: the P utilisation 1.5: want 0 to 1"},
		{"mixed", strings.Replace(good, `}]}`, `}, {"untraced": true, "ended": "deadlock"}]}`, 1), "f.json: run 2: traced and untraced runs in one series"},
		{"text", strings.Replace(good, `"0.5"`, `"`+strings.Repeat("9", 300)+`"`, 1), `f.json: load_before "999999999999999999999999999999999999999…": want a short line of text`},
		{"ending", strings.Replace(good, `"utilisation": 0.5}`, `"utilisation": 0.5, "ended": "deadlock"}`, 1), `f.json: run 1: ended "deadlock": want deadlock, panic or exit status N for an untraced run, nothing for a traced one`},
		{"untraced ending", strings.Replace(good, `"utilisation": 0.5}`, `"untraced": true, "ended": "exit status 01"}`, 1), `f.json: run 1: ended "exit status 01": want`},
		{"line", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 0.5, "output": ["a\nb"]`, 1), `f.json: run 1: output line "a\nb": want a short line of text`},
		{"too big", good + strings.Repeat(" ", maxRecordingBytes), "f.json:1:1: larger than 64 MiB"},
		{"slices", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 0.5, "longest_slices_ns": [`+strings.Repeat("5, ", longestKept)+`5]`, 1), "f.json: run 1: 17 longest slices: at most 16"},
		{"slice order", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 0.5, "longest_slices_ns": [5, 7]`, 1), "f.json: run 1: longest slice 2 of 7ns: want the slices' lengths, 0 or more, longest first"},
		{"lead below zero", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 0.5, "tracer_lead_ns": -5`, 1), "f.json: run 1: tracer lead -5: below zero"},
		{"slice below zero", strings.Replace(good, `"utilisation": 0.5`, `"utilisation": 0.5, "longest_slices_ns": [-1]`, 1), "f.json: run 1: longest slice 1 of -1ns"},
	} {
		_, err := ParseRecording("f.json", []byte(c.data))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to begin %q", c.name, err, c.want)
		}
	}
	if _, err := ParseRecording("f.json", []byte(good)); err != nil {
		t.Errorf("a good recording: %v", err)
	}
	// Every ending endingOf writes, a signal's -1 among them.
	for _, ended := range []string{"deadlock", "panic", "exit status 0", "exit status 2", "exit status -1"} {
		untraced := strings.Replace(good, `"utilisation": 0.5}`, `"untraced": true, "ended": "`+ended+`"}`, 1)
		if _, err := ParseRecording("f.json", []byte(untraced)); err != nil {
			t.Errorf("an untraced run that ended %q: %v", ended, err)
		}
	}
}

// A recording is judged only against its own scenario, on as many Ps,
// on a machine of as many CPUs, traced as the scenario's runs are; and a
// folder without it says how to make one.
func TestARecordingIsJudgedOnlyWhereItWasMade(t *testing.T) {
	dir := t.TempDir()
	runs := controlRuns(time.Millisecond, 0.5)
	if err := WriteRecording(dir, recordingOf("tour", 2, runs)); err != nil {
		t.Fatal(err)
	}
	other := recordingOf("steal", 2, runs)
	other.CPUs = runtime.NumCPU() + 1
	if err := WriteRecording(dir, other); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "timer-1p.json"), []byte(strings.Replace(readFile(t, filepath.Join(dir, "tour.json")), `"tour"`, `"runnext"`, 1)), 0o644)
	for _, c := range []struct {
		scenario string
		procs    int
		want     string
	}{
		{"tour", 4, "tour.json: recorded with GOMAXPROCS=2; the model runs tour on 4 Ps (--procs 2 judges it against this recording)"},
		{"steal", 2, "steal.json: recorded on a machine of"},
		{"timer-1p", 2, `timer-1p.json: a recording of "runnext", not of "timer-1p"`},
		{"burst", 2, "burst.json: no recording of burst here (verify --record " + dir + " writes one)"},
	} {
		if _, err := ReadRecording(dir, c.scenario, c.procs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %d Ps: error %v, want %q", c.scenario, c.procs, err, c.want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// verify --real-from judges the model against a recording, running
// nothing (no go command is needed), as it judged the runs when they
// ran; --control-from judges a second recording against them as
// --control's series is, and the report says where each came from.
func TestScenarioJudgesRecordings(t *testing.T) {
	// The model's own runs, recorded as if real, and a series 10% slower.
	sc, cfg, model := recordedTimer1p(t)
	var slower []Observables
	for _, o := range model {
		o.Makespan = o.Makespan * 11 / 10
		slower = append(slower, o)
	}
	first, second := t.TempDir(), t.TempDir()
	if err := WriteRecording(first, recordingOf(sc.Name, cfg.Procs, model)); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecording(second, recordingOf(sc.Name, cfg.Procs, slower)); err != nil {
		t.Fatal(err)
	}
	rep, err := Scenario(context.Background(), sc, Options{Seeds: 5, Runs: 99, RealFrom: []string{first}, ControlFrom: []string{second}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != 5 || rep.Go != "go1.26.8" || rep.LoadBefore != "0.52" {
		t.Errorf("the report says %d runs with %s at load %s, want the recording's 5, go1.26.8, 0.52", rep.Runs, rep.Go, rep.LoadBefore)
	}
	if out := rep.Differing(); len(out) != 0 {
		t.Errorf("the model judged against its own runs differs on %v", out)
	}
	if rep.Control == nil || rep.Control.Runs != 5 || rep.Control.From != filepath.Join(second, "timer-1p.json") {
		t.Fatalf("control %+v, want the 5 runs recorded in %s", rep.Control, second)
	}
	if out := rep.Control.Differing(); !reflect.DeepEqual(out, []string{"makespan"}) {
		t.Errorf("a recorded series 10%% slower differs on %v, want the makespan", out)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"against 5 real runs (go1.26.8, GOMAXPROCS=1; load average 0.52 before, 0.61 after",
		"the real runs are those recorded in " + filepath.Join(first, "timer-1p.json") + ": none ran now",
		"control: the 5 real runs recorded in " + filepath.Join(second, "timer-1p.json") + ", judged against the 5 as the model is: they differ on 1 of",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, text.String())
		}
	}
}

// A recording of traced runs made before the programs marked the
// scenario's end, or measured by older rules, says so in the report, for
// the series judged and for a control read from one; a recording with
// the mark and today's rules, or of untraced runs, which have no trace
// to mark or measure, says nothing of it.
func TestAnOldRecordingIsNamed(t *testing.T) {
	t.Setenv("PATH", "")
	for _, name := range []string{"timer-1p", "nested-submit"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := modelConfig(sc, scenarios.Overrides{}, runtime.NumCPU())
		runs := modelRuns(t, sc, cfg, 3)
		for i := range runs {
			runs[i].Untraced = !prog.Traced(sc)
			if runs[i].Untraced {
				runs[i].Ended = "deadlock"
			}
		}
		old, oldRules, today := t.TempDir(), t.TempDir(), t.TempDir()
		for _, r := range []struct {
			dir    string
			marked bool
			rules  int
		}{{old, false, 0}, {oldRules, true, 0}, {today, true, measureRules}} {
			rec := recordingOf(sc.Name, cfg.Procs, runs)
			rec.EndMarked, rec.Rules = r.marked, r.rules
			if err := WriteRecording(r.dir, rec); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			real, control     []string
			unmarked, ofRules []string
		}{
			{[]string{old}, nil, []string{old}, []string{old}},
			{[]string{today}, []string{old}, []string{old}, []string{old}},
			{[]string{old}, []string{today}, []string{old}, []string{old}},
			{[]string{today}, []string{today}, nil, nil},
			{[]string{oldRules}, []string{today}, nil, []string{oldRules}},
			// Pooled: each old recording is named.
			{[]string{today, old, oldRules}, nil, []string{old}, []string{old, oldRules}},
		} {
			rep, err := Scenario(context.Background(), sc, Options{Seeds: 3, Runs: 99, RealFrom: c.real, ControlFrom: c.control})
			if err != nil {
				t.Fatal(err)
			}
			named := func(phrase string) []string {
				var dirs []string
				for _, n := range rep.Notes {
					if strings.Contains(n, phrase) {
						dirs = append(dirs, filepath.Dir(strings.Fields(n)[0]))
					}
				}
				return dirs
			}
			if sc.Name == "nested-submit" {
				c.unmarked, c.ofRules = nil, nil // untraced: nothing to mark or measure
			}
			if got := named("did not mark the scenario's end"); !reflect.DeepEqual(got, c.unmarked) {
				t.Errorf("%s judged against %s, control %q: the unmarked recordings named are %v, want %v", sc.Name, c.real, c.control, got, c.unmarked)
			}
			if got := named("was measured by older rules"); !reflect.DeepEqual(got, c.ofRules) {
				t.Errorf("%s judged against %s, control %q: the recordings of older rules named are %v, want %v", sc.Name, c.real, c.control, got, c.ofRules)
			}
		}
	}
}

// FuzzParseRecording reads any bytes as a recording, as --real-from reads
// a file anyone may send: whatever the bytes, a recording whose every
// figure is in range, or an error on one line that names the file; and a
// recording taken is judged, its pace described and its report written,
// as verify would, without a panic.
func FuzzParseRecording(f *testing.F) {
	dir := f.TempDir()
	written := func(rec *Recording) []byte {
		if err := WriteRecording(dir, rec); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(RecordingPath(dir, rec.Scenario))
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	runs := controlRuns(time.Millisecond, 0.5)
	runs[0].Output = []string{"a", "b"}
	good := written(recordingOf("tour", 2, runs))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"schedlab_recording": 1, "runs": [{"untraced": true, "ended": "deadlock"}]}`))
	// With the pace probed around each run, one probe slow.
	f.Add(written(recordingOf("steal", 2, paced(controlRuns(time.Millisecond, 0.5)[:3], fastPace, slowPace, fastPace, fastPace))))
	// Pooled from two series: the first run's probe after it is slow, the
	// next run's before it fast.
	pooled := paced(controlRuns(time.Millisecond, 0.5)[:3], fastPace, slowPace, fastPace, fastPace)
	fast := fastPace
	pooled[1].PaceBefore = &fast
	f.Add(written(recordingOf("steal", 2, pooled)))
	// With the runs' longest slices, past the model's.
	sliced := controlRuns(time.Millisecond, 0.6)[:3]
	for i := range sliced {
		sliced[i].Longest = []time.Duration{time.Duration(i+2) * 100 * time.Microsecond, 10 * time.Microsecond}
	}
	f.Add(written(recordingOf("purge", 2, sliced)))
	model := controlRuns(time.Millisecond, 0.5)[:3]
	for i := range model {
		model[i].Longest = []time.Duration{100 * time.Microsecond}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseRecording("f.json", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.json") || strings.Contains(msg, "\n") || len(msg) > 2000 {
				t.Fatalf("error %q", msg)
			}
			return
		}
		if len(rec.Runs) == 0 || rec.Procs < 1 || rec.CPUs < 1 {
			t.Fatalf("took %+v", rec)
		}
		for _, o := range rec.Runs {
			if o.Makespan < 0 || o.Utilisation < 0 || o.Utilisation > 1 || o.Untraced != rec.Runs[0].Untraced {
				t.Fatalf("took a run %+v", o)
			}
			for _, p := range []*Pace{o.PaceBefore, o.PaceAfter} {
				if p != nil && !p.Valid() {
					t.Fatalf("took a probe %+v", *p)
				}
			}
		}
		rep := &Report{Scenario: rec.Scenario, Seeds: []uint64{1, 2, 3}, Runs: len(rec.Runs)}
		rep.notePace(rec.Runs, &xeonPace)
		var ended []string
		if rec.Runs[0].Untraced {
			ended = []string{"deadlock", "deadlock", "deadlock"}
		}
		rep.judgeScenario(model, rec.Runs, true, ended)
		rep.Procs = rec.Procs
		if n := sliceNote(rep, model, rec.Runs); n != "" {
			rep.Notes = append(rep.Notes, n)
		}
		var text strings.Builder
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
	})
}
