package verify

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Series recorded in several folders are judged as one sample: the same
// rows as one recording of all their runs, the report's runs counted over
// them, its load line the range of their loads, and its note naming each
// recording with its runs. A control read from several folders is pooled
// the same way.
func TestPooledSeriesAreOneSample(t *testing.T) {
	sc, cfg, runs := recordedTimer1p(t)
	a, b, whole := t.TempDir(), t.TempDir(), t.TempDir()
	first := recordingOf(sc.Name, cfg.Procs, runs[:2])
	second := recordingOf(sc.Name, cfg.Procs, runs[2:])
	second.LoadBefore, second.LoadAfter = "1.20", "1.40"
	for dir, rec := range map[string]*Recording{a: first, b: second, whole: recordingOf(sc.Name, cfg.Procs, runs)} {
		rec.EndMarked = true
		if err := WriteRecording(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	judge := func(real, control []string) *Report {
		t.Helper()
		rep, err := Scenario(context.Background(), sc, Options{Seeds: 5, Runs: 99, RealFrom: real, ControlFrom: control})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	pool, one := judge([]string{a, b}, nil), judge([]string{whole}, nil)
	if pool.Runs != 5 || !reflect.DeepEqual(pool.Rows, one.Rows) {
		t.Errorf("pooled: %d runs, rows %+v; want 5 runs and the rows of one recording of them all, %+v", pool.Runs, pool.Rows, one.Rows)
	}
	if want := fmt.Sprintf("load average 0.52–1.40 before and after the 2 series, on %d CPUs", runtime.NumCPU()); pool.Load != want {
		t.Errorf("load %q, want %q", pool.Load, want)
	}
	// A load that is no number is left out of the range.
	odd := &pooled{paths: []string{"x", "y"}, before: []string{"unknown", "NaN"}, after: []string{"0.70", "+Inf"}}
	if want := fmt.Sprintf("load average 0.70–0.70 before and after the 2 series, on %d CPUs", runtime.NumCPU()); odd.load() != want {
		t.Errorf("loads unknown, NaN, 0.70, +Inf: %q, want %q", odd.load(), want)
	}
	if pool.LoadBefore != "0.52" || pool.LoadAfter != "1.40" {
		t.Errorf("loads %s before, %s after; want the first series' before and the last's after", pool.LoadBefore, pool.LoadAfter)
	}
	want := fmt.Sprintf("the real runs are those recorded in %s (2), %s (3), judged as one sample: none ran now", RecordingPath(a, sc.Name), RecordingPath(b, sc.Name))
	if !hasNote(pool, want) {
		t.Errorf("notes %q, want %q", pool.Notes, want)
	}

	ctl := judge([]string{whole}, []string{b, a}).Control
	if ctl == nil || ctl.Runs != 5 || len(ctl.Differing()) != 0 {
		t.Fatalf("a control pooled from the same runs: %+v; want 5 runs differing on nothing", ctl)
	}
	if want := RecordingPath(b, sc.Name) + " (3), " + RecordingPath(a, sc.Name) + " (2)"; ctl.From != want {
		t.Errorf("the control is from %q, want %q", ctl.From, want)
	}
}

// What cannot be one sample is refused, naming the recording: a folder
// given twice, series built by two toolchains, a folder without the
// scenario, and more runs in all than one recording may hold.
func TestPooledRecordingsAreRefused(t *testing.T) {
	sc, cfg, runs := recordedTimer1p(t)
	a, b, older, empty := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := WriteRecording(dir, recordingOf(sc.Name, cfg.Procs, runs)); err != nil {
			t.Fatal(err)
		}
	}
	old := recordingOf(sc.Name, cfg.Procs, runs)
	old.Go = "go1.25.3"
	if err := WriteRecording(older, old); err != nil {
		t.Fatal(err)
	}
	many := make([]Observables, 0, maxRecordedRuns/2+1)
	for len(many) < cap(many) {
		many = append(many, runs[len(many)%len(runs)])
	}
	big1, big2 := t.TempDir(), t.TempDir()
	for _, dir := range []string{big1, big2} {
		if err := WriteRecording(dir, recordingOf(sc.Name, cfg.Procs, many)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"a folder twice", []string{a, b, a + string(filepath.Separator)}, a + " is given twice"},
		{"two toolchains", []string{a, older}, RecordingPath(a, sc.Name) + " was built by go1.26.8 and " + RecordingPath(older, sc.Name) + " by go1.25.3"},
		{"a folder without it", []string{a, empty}, RecordingPath(empty, sc.Name) + ": no recording of timer-1p here"},
		{"too many runs", []string{big1, big2}, RecordingPath(big2, sc.Name) + ": more than 10000 runs in all"},
		{"too many folders", slices.Repeat([]string{a}, maxPooledFolders+1), "101 folders of recordings: at most 100"},
	} {
		for _, control := range []bool{false, true} {
			o := Options{Seeds: 3, Runs: 99, RealFrom: c.dirs}
			if control {
				o.RealFrom, o.ControlFrom = []string{a}, c.dirs
			}
			_, err := Scenario(context.Background(), sc, o)
			if !errors.As(err, new(*RecordingError)) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (control %v): error %v, want a RecordingError saying %q", c.name, control, err, c.want)
			}
		}
	}
}
