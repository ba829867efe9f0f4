package verify

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// A run keeps its longest running slices of the scenario's goroutines,
// longest first, at most longestKept: each from a start to the
// goroutine's next stop, block, exit or system call, and one still
// running when the window closes.
func TestRecorderKeepsTheLongestSlices(t *testing.T) {
	us := time.Microsecond
	r := NewRecorder(1)
	r.Event(0, "go-start", mainG, 0, false)
	r.Event(1*us, "go-create", 2, 0, false)
	r.Event(2*us, "go-block", mainG, 0, false) // main: 1us to 2us, from the window's opening
	r.Event(3*us, "go-start", 2, 0, false)
	r.Event(10*us, "syscall-enter", 2, 0, false) // 7us
	r.Event(12*us, "syscall-exit", 2, 0, false)
	r.Event(15*us, "go-stop", 2, 0, true) // 3us
	r.Event(16*us, "go-start", 2, 0, false)
	r.End(20 * us) // 4us, still running
	if got, want := r.Observables().Longest, []time.Duration{7 * us, 4 * us, 3 * us, us}; !slices.Equal(got, want) {
		t.Errorf("longest slices %v, want %v", got, want)
	}

	// Of many slices, the longest longestKept.
	r = NewRecorder(1)
	r.Event(0, "go-start", mainG, 0, false)
	rng := rand.New(rand.NewPCG(1, 2))
	var all []time.Duration
	now := time.Microsecond
	for range 100 {
		// The window opens at the first stop, which ends a slice of 0;
		// each later stop ends the slice of d before it.
		d := time.Duration(rng.IntN(1000)+1) * time.Nanosecond
		r.Event(now, "go-stop", mainG, 0, false)
		r.Event(now+time.Microsecond, "go-start", mainG, 0, false)
		now += time.Microsecond + d
		all = append(all, d)
	}
	r.Event(now, "go-stop", mainG, 0, false) // the last slice's end
	slices.Sort(all)
	slices.Reverse(all)
	if got := r.Observables().Longest; !slices.Equal(got, all[:longestKept]) {
		t.Errorf("longest slices %v, want %v", got, all[:longestKept])
	}
}

// The P use's note on slices: when the model's P use is below the real
// runs', the real running past the model's longest slice, if it makes at
// least half the difference; not for a model above the real runs, nor
// for real runs recorded before slices were measured.
func TestSliceNoteNamesRunningPastTheModelsLongest(t *testing.T) {
	ms := time.Millisecond
	runs := func(longest ...time.Duration) []Observables {
		o := Observables{Makespan: 100 * ms, Utilisation: 0.3, Longest: longest}
		return []Observables{o, o, o}
	}
	rep := &Report{Procs: 2, Seeds: []uint64{1}, Runs: 3}
	rep.Rows = []Row{{Observable: "P utilisation", Outcome: "lower", Model: 0.30, RealMedian: 0.33}}
	model := runs(ms, ms)
	// 4ms and 3ms past the model's 1ms: 7ms of 200ms of P time, 3.5
	// points, against the 3 between the two.
	note := sliceNote(rep, model, runs(5*ms, 4*ms, ms))
	for _, want := range []string{
		"P use: 3 of the 3 real runs ran a goroutine at a stretch for longer than the model's longest slice (a median 1ms; the real runs' longest, a median 5ms)",
		"ran past it for a median 3.5% of the P time, the model's 0.0%, which is 100% of the 3.0 points between the two",
		"or the goroutine's thread lost its CPU while it ran",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q\nwant it to hold %q", note, want)
		}
	}
	if n := sliceNote(rep, model, runs(2*ms, ms)); n != "" {
		t.Errorf("a note for 0.5 points past the model's longest, of 3: %q", n)
	}
	if n := sliceNote(rep, model, runs()); n != "" {
		t.Errorf("a note for real runs that measured no slices: %q", n)
	}
	// Pooled with a recording made before slices were measured: only
	// the runs that measured them count, and the note says so.
	pooled := append(runs(5*ms, 4*ms, ms), runs()...)
	if n := sliceNote(rep, model, pooled); !strings.Contains(n, "P use: 3 of the 3 real runs that measured their slices ran a goroutine") {
		t.Errorf("pooled with runs without slices: note %q", n)
	}
	rep.Rows[0].Outcome, rep.Rows[0].Model, rep.Rows[0].RealMedian = "higher", 0.36, 0.33
	if n := sliceNote(rep, model, runs(5*ms, 4*ms, ms)); n != "" {
		t.Errorf("a note for a model busier than the real runs: %q", n)
	}
}

// idleNote: where the model's Ms share fewer CPUs than its Ps, the
// model's Ps idle with a goroutine ready, as a share of the P time, more
// than the real runs' by at least half of the P use the model lacks.
func TestIdleNoteNamesTheModelsIdlePs(t *testing.T) {
	ms := time.Millisecond
	runs := func(stranded time.Duration) []Observables {
		o := Observables{Makespan: 100 * ms, Utilisation: 0.9, Stranded: stranded}
		return []Observables{o, o, o}
	}
	rep := &Report{Procs: 4, Seeds: []uint64{1}, Runs: 3}
	rep.Rows = []Row{{Observable: "P utilisation", Outcome: "lower", Model: 0.90, RealMedian: 0.93}}
	// 30ms against 20ms of 400ms of P time: 2.5 points more idle, of the
	// 3 the model's P use is below.
	note := idleNote(rep, runs(30*ms), runs(20*ms), true)
	for _, want := range []string{
		"P use: the model's Ps sat idle while one of the scenario's goroutines was ready to run for a median 7.5% of the P time, the real runs' 5.0%",
		"which is 83% of the 3.0 points between the two",
		"waited longer for a CPU in the model",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q\nwant it to hold %q", note, want)
		}
	}
	if n := idleNote(rep, runs(30*ms), runs(20*ms), false); n != "" {
		t.Errorf("a note where every M has a CPU: %q", n)
	}
	if n := idleNote(rep, runs(24*ms), runs(20*ms), true); n != "" {
		t.Errorf("a note for 1 point more idle, of 3: %q", n)
	}
	if n := idleNote(rep, runs(20*ms), runs(30*ms), true); n != "" {
		t.Errorf("a note for a model idle less than the real runs: %q", n)
	}
	rep.Rows[0].Outcome, rep.Rows[0].Model, rep.Rows[0].RealMedian = "higher", 0.96, 0.93
	if n := idleNote(rep, runs(30*ms), runs(20*ms), true); n != "" {
		t.Errorf("a note for a model busier than the real runs: %q", n)
	}
}
