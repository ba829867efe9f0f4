package verify

import (
	"strings"
	"testing"
	"time"
)

// A P with nothing to run while a scenario goroutine is ready is
// stranded time; a P between two goroutines is not, for switchSpan, and a
// P the runtime's goroutine holds is busy.
func TestRecorderCountsStrandedTime(t *testing.T) {
	us := time.Microsecond
	r := NewRecorder(2)
	recordEvents(r, []recorded{
		{0, "go-start", 1, 0},
		{10 * us, "go-create", 2, 0}, // the window opens; G2 ready, P1 idle
		{30 * us, "go-start", 2, 1},  // 20µs stranded
		{100 * us, "go-block", 2, 1}, // P1 between goroutines
		{100 * us, "go-create", 3, 0},
		{105 * us, "go-start", 3, 1}, // a switch of 5µs: not stranded
		{200 * us, "go-block", 3, 1},
		{200 * us, "go-create", 4, 0},
		{300 * us, "go-start", 4, 1}, // P1 idle from 210µs: 90µs stranded
		{400 * us, "go-block", 4, 1},
		{400 * us, "go-start", -9, 1}, // the runtime's goroutine takes P1
		{400 * us, "go-create", 5, 0},
		{500 * us, "go-block", -9, 1}, // busy, then a switch from 500µs
		{520 * us, "go-start", 5, 1},  // 10µs stranded, from 510µs
		{600 * us, "go-exit", 5, 1},
		{700 * us, "go-exit", 1, 0},
	})
	if got, want := r.Observables().Stranded, 120*us; got != want {
		t.Errorf("stranded %v, want %v", got, want)
	}
}

// The note names the stranded time when the model's makespan is shorter
// and the real runs' stranded time, beyond the model's, makes at least
// half the difference.
func TestStrandedNoteNamesTheIdlePs(t *testing.T) {
	ms := time.Millisecond
	runs := func(makespan, stranded time.Duration) []Observables {
		return []Observables{{Makespan: makespan, Stranded: stranded}, {Makespan: makespan, Stranded: stranded}}
	}
	rep := &Report{Procs: 2, Seeds: []uint64{1}, Runs: 2}
	rep.Rows = []Row{{Observable: "makespan", Outcome: "lower", Model: float64(124 * ms), RealMedian: float64(134 * ms)}}
	note := strandedNote(rep, runs(124*ms, 700*time.Microsecond), runs(134*ms, 8*ms))
	if !strings.Contains(note, "for a median 8ms, the model's 700us, against the 10ms between the two makespans") {
		t.Errorf("note %q", note)
	}
	if n := strandedNote(rep, runs(124*ms, 4*ms), runs(134*ms, 8*ms)); n != "" {
		t.Errorf("a note for stranded time short of half the difference: %q", n)
	}
	rep.Rows[0].Outcome = "within"
	if n := strandedNote(rep, runs(124*ms, 700*time.Microsecond), runs(134*ms, 8*ms)); n != "" {
		t.Errorf("a note on a makespan within: %q", n)
	}
}

// On one P, the note names the goroutines' running time when it makes at
// least half of the makespans' difference, either way; it says nothing
// on two Ps, where running time adds up over the Ps, nor when the
// difference is idle time.
func TestBusyNoteNamesTheRunningTime(t *testing.T) {
	us := time.Microsecond
	runs := func(makespan time.Duration, use float64) []Observables {
		return []Observables{{Makespan: makespan, Utilisation: use}, {Makespan: makespan, Utilisation: use}}
	}
	rep := &Report{Procs: 1, Seeds: []uint64{1}, Runs: 2}
	rep.Rows = []Row{{Observable: "makespan", Outcome: "lower", Model: float64(300 * us), RealMedian: float64(320 * us)}}
	note := busyNote(rep, runs(300*us, 0.99), runs(320*us, 0.99))
	if !strings.Contains(note, "the real runs ran the scenario's goroutines for a median 317us, the model's for 297us, which is 99% of the 20us between the two makespans") ||
		!strings.Contains(note, "took longer than the model's costs say") {
		t.Errorf("note %q", note)
	}
	// The real runs idle 19µs more: the running time is not why.
	if n := busyNote(rep, runs(300*us, 1), runs(320*us, 0.94)); n != "" {
		t.Errorf("a note for running time short of half the difference: %q", n)
	}
	rep.Rows[0] = Row{Observable: "makespan", Outcome: "higher", Model: float64(2 * us), RealMedian: float64(us)}
	if n := busyNote(rep, runs(2*us, 1), runs(us, 1)); !strings.Contains(n, "for a median 1us, the model's for 2us, which is 100% of the 1us") ||
		!strings.Contains(n, "took less time than the model's costs say") {
		t.Errorf("a model slower: note %q", n)
	}
	rep.Procs = 2
	if n := busyNote(rep, runs(2*us, 1), runs(us, 1)); n != "" {
		t.Errorf("a note on two Ps: %q", n)
	}
}
