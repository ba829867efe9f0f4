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
