package verify

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The Xeon's profile and its two states: at the profile's pace, and the
// slow one its probes find for seconds at a time.
var (
	xeonPace = Pace{Handoff: 244, Spin: 137}
	fastPace = Pace{Handoff: 246, Spin: 137}
	slowPace = Pace{Handoff: 398, Spin: 182}
)

// paced is runs with probes beside them: run i's before is paces[i], its
// after paces[i+1], as RealRuns probes them.
func paced(runs []Observables, paces ...Pace) []Observables {
	out := append([]Observables(nil), runs...)
	for i := range out {
		before, after := paces[i], paces[i+1]
		out[i].PaceBefore, out[i].PaceAfter = &before, &after
	}
	return out
}

// A run is at the profile's pace only if every probe beside it is, on
// both figures, within PaceOff either way; a run with no probe is not
// probed at all.
func TestARunIsAtPaceWhenBothItsProbesAre(t *testing.T) {
	fast, slow, quick := fastPace, slowPace, Pace{Handoff: 190, Spin: 137}
	spinOnly := Pace{Handoff: 244, Spin: 170} // 1.24× on the spin alone
	for _, c := range []struct {
		name          string
		before, after *Pace
		at, probed    bool
	}{
		{"both at it", &fast, &fast, true, true},
		{"slow after", &fast, &slow, false, true},
		{"slow before", &slow, &fast, false, true},
		{"faster by more than PaceOff", &quick, &fast, false, true},
		{"the spin alone off", &spinOnly, &fast, false, true},
		{"one probe, at it", nil, &fast, true, true},
		{"no probe", nil, nil, false, false},
	} {
		at, probed := atPace(Observables{PaceBefore: c.before, PaceAfter: c.after}, xeonPace)
		if at != c.at || probed != c.probed {
			t.Errorf("%s: at %v, probed %v; want %v, %v", c.name, at, probed, c.at, c.probed)
		}
	}
}

// The report gives the probes' spread beside the profile's pace, counts the
// runs that had a probe off it, and its note gives the off probes' figures;
// the summary of verify --all counts them over every scenario.
func TestTheReportSaysWhichRunsRanOffThePace(t *testing.T) {
	runs := paced(controlRuns(time.Millisecond, 0.5)[:4], fastPace, fastPace, slowPace, fastPace, fastPace)
	rep := &Report{Scenario: "tour", Seeds: []uint64{1}, Runs: 4}
	rep.notePace(runs, &xeonPace)
	if rep.PaceProbed != 4 || rep.PaceOff != 2 {
		t.Errorf("probed %d, off %d; want 4 and 2 (the runs either side of the slow probe)", rep.PaceProbed, rep.PaceOff)
	}
	wantLine := "a hand-off 246ns–398ns (median 246ns) and a spin round 137ns–182ns (median 137ns) in 5 probes around the real runs; the profile's 244ns and 137ns"
	if rep.Pace != wantLine {
		t.Errorf("pace line %q, want %q", rep.Pace, wantLine)
	}
	if len(rep.Notes) != 1 || !strings.HasPrefix(rep.Notes[0], "2 of the 4 real runs had a probe of the machine's pace beside them off the profile's by 20% or more (a hand-off 398ns, a spin round 182ns, against 244ns and 137ns)") {
		t.Errorf("notes %q", rep.Notes)
	}
	var text strings.Builder
	rep.Rows = nil
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\npace: "+wantLine+"\n") {
		t.Errorf("the report has no pace line:\n%s", text.String())
	}
	var sum strings.Builder
	quiet := &Report{Scenario: "steal", Seeds: []uint64{1}, Runs: 2}
	quiet.notePace(paced(controlRuns(time.Millisecond, 0.5)[:2], fastPace, fastPace, fastPace), &xeonPace)
	if err := WriteSummary(&sum, []*Report{rep, quiet}); err != nil {
		t.Fatal(err)
	}
	if want := "2 of the 6 real runs probed, in 1 of the 2 scenarios, had a probe of the machine's pace off the profile's by 20% or more beside them (each scenario's note gives the probes)"; !strings.Contains(sum.String(), want) {
		t.Errorf("the summary has no %q:\n%s", want, sum.String())
	}

	// Without a profile's pace the probes are described and nothing is
	// counted; without probes nothing is said.
	bare := &Report{}
	bare.notePace(runs, nil)
	if bare.PaceProbed != 0 || len(bare.Notes) != 0 || !strings.HasSuffix(bare.Pace, "around the real runs") {
		t.Errorf("without a profile: %+v", bare)
	}
	none := &Report{}
	none.notePace(controlRuns(time.Millisecond, 0.5), &xeonPace)
	if none.Pace != "" || len(none.Notes) != 0 {
		t.Errorf("without probes: %+v", none)
	}
}

// A recording of runs whose probes after them are not the next runs'
// probes before (written by hand, or pooled from series taken at other
// times) is described whole: the off probe after a run counts though the
// next run's before is at the pace. verify once indexed an empty list
// of off probes here.
func TestAProbeAfterThatIsNoBeforeCounts(t *testing.T) {
	runs := controlRuns(time.Millisecond, 0.5)[:3]
	fast, slow := fastPace, slowPace
	runs[0].PaceBefore, runs[0].PaceAfter = &fast, &slow
	runs[1].PaceBefore, runs[1].PaceAfter = &fast, &fast
	runs[2].PaceBefore, runs[2].PaceAfter = &fast, &fast
	rep := &Report{}
	rep.notePace(runs, &xeonPace)
	if rep.PaceProbed != 3 || rep.PaceOff != 1 {
		t.Errorf("probed %d, off %d; want 3 and 1", rep.PaceProbed, rep.PaceOff)
	}
	if !strings.Contains(rep.Pace, "in 5 probes") || !hasNote(rep, "1 of the 3 real runs had a probe of the machine's pace beside them off the profile's by 20% or more (a hand-off 398ns, a spin round 182ns") {
		t.Errorf("pace %q, notes %q", rep.Pace, rep.Notes)
	}
}

// Recorded runs keep their probes, and verify --real-from reports them as
// it would have when the runs ran, against the profile's pace if the costs
// have one; the probes do not change what is judged.
func TestRecordedProbesReachTheReport(t *testing.T) {
	sc, cfg, model := recordedTimer1p(t)
	// The model's runs as if real, the second and the fourth made beside
	// a slow probe.
	runs := paced(model, fastPace, slowPace, fastPace, slowPace, fastPace, fastPace)
	dir := t.TempDir()
	if err := WriteRecording(dir, recordingOf(sc.Name, cfg.Procs, runs)); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRecording(dir, sc.Name, cfg.Procs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Runs, runs) {
		t.Errorf("the probes did not read back whole")
	}
	judge := func(profile *Pace) *Report {
		t.Helper()
		rep, err := Scenario(context.Background(), sc, Options{Seeds: 5, Runs: 99, RealFrom: []string{dir}, ProfilePace: profile})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Runs != 5 || len(rep.Differing()) != 0 {
			t.Errorf("%d runs judged, differing on %v; want all 5, none differing", rep.Runs, rep.Differing())
		}
		return rep
	}
	rep := judge(&xeonPace)
	if rep.PaceProbed != 5 || rep.PaceOff != 4 || !hasNote(rep, "4 of the 5 real runs had a probe of the machine's pace beside them off the profile's") {
		t.Errorf("probed %d, off %d, notes %q; want 5 and 4 (every run beside the slow probes)", rep.PaceProbed, rep.PaceOff, rep.Notes)
	}
	if bare := judge(nil); bare.PaceProbed != 0 || !strings.HasPrefix(bare.Pace, "a hand-off 246ns–398ns") {
		t.Errorf("without the profile's pace: probed %d, pace %q", bare.PaceProbed, bare.Pace)
	}
}

// hasNote says one of rep's notes contains text.
func hasNote(rep *Report, text string) bool {
	for _, n := range rep.Notes {
		if strings.Contains(n, text) {
			return true
		}
	}
	return false
}

// A recording's probes are checked as its other figures are.
func TestARecordingRefusesAPaceNoProbeMeasures(t *testing.T) {
	for _, bad := range []Pace{{Handoff: 0, Spin: 137}, {Handoff: 244, Spin: -1}, {Handoff: 2 * time.Second, Spin: 137}} {
		runs := controlRuns(time.Millisecond, 0.5)[:2]
		runs[1].PaceAfter = &bad
		if err := recordingOf("tour", 2, runs).check(); err == nil || !strings.Contains(err.Error(), "run 2: pace_after") {
			t.Errorf("pace %+v: error %v, want run 2's pace_after refused", bad, err)
		}
	}
}
