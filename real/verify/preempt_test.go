package verify

import (
	"strings"
	"testing"
	"time"
)

// The first preemption is timed from the window's opening, and the later
// ones do not move it.
func TestRecorderTimesTheFirstPreemption(t *testing.T) {
	us, ms := time.Microsecond, time.Millisecond
	r := NewRecorder(1)
	r.Event(0, "go-start", 1, 0, false)
	r.Event(10*us, "go-create", 2, 0, false) // the window opens
	r.Event(5*ms, "go-stop", 1, 0, true)
	r.Event(5*ms, "go-start", 2, 0, false)
	r.Event(6*ms, "go-stop", 2, 0, true)
	r.Event(6*ms, "go-start", 1, 0, false)
	r.Event(7*ms, "go-exit", 1, 0, false)
	o := r.Observables()
	if o.FirstPreempt != 5*ms-10*us || o.Preempted != 2 {
		t.Errorf("first preemption %v of %d, want %v of 2", o.FirstPreempt, o.Preempted, 5*ms-10*us)
	}

	r = NewRecorder(1)
	r.Event(0, "go-start", 1, 0, false)
	r.Event(10*us, "go-create", 2, 0, false)
	r.Event(7*ms, "go-exit", 1, 0, false)
	if o := r.Observables(); o.FirstPreempt != 0 {
		t.Errorf("a run with no preemption has its first at %v, want 0", o.FirstPreempt)
	}
}

// The note names the spread of the first preemptions when the makespan
// differs and the real runs' spread by preemptSpread more than the
// model's; not when they spread alike, or the makespan is within. It
// counts the real runs preempted within 10ms, which sysmon can do only to
// a slice begun before the window, when the model's runs had none.
func TestPreemptNoteNamesTheSpread(t *testing.T) {
	ms := time.Millisecond
	runs := func(at ...time.Duration) []Observables {
		var obs []Observables
		for _, a := range at {
			obs = append(obs, Observables{Makespan: 30 * ms, FirstPreempt: a})
		}
		return obs
	}
	model := runs(15100*time.Microsecond, 15200*time.Microsecond)
	rep := &Report{Procs: 2, Seeds: []uint64{1, 2}, Runs: 3}
	rep.Rows = []Row{{Observable: "makespan", Outcome: "lower", Model: float64(31 * ms), RealMedian: float64(34 * ms)}}
	note := preemptNote(rep, model, runs(4900*time.Microsecond, 14700*time.Microsecond, 17900*time.Microsecond))
	if !strings.Contains(note, "came 4.9ms to 17.9ms into the run, the model's 15.1ms to 15.2ms; 1 of the 3 real runs' came less than 10ms in, where sysmon, which preempts a slice it has seen for 10ms, ends only one begun before the scenario") {
		t.Errorf("note %q", note)
	}
	early := runs(1200*time.Microsecond, 1300*time.Microsecond)
	if n := preemptNote(rep, early, runs(1100*time.Microsecond, 4*ms, 12*ms)); n == "" || strings.Contains(n, "begun before the scenario") {
		t.Errorf("note %q, want one with no word of a slice begun before, where the model was preempted within 10ms too (not by sysmon)", n)
	}
	if n := preemptNote(rep, model, runs(10*ms, 14700*time.Microsecond, 17900*time.Microsecond)); !strings.Contains(n, "came 10ms to 17.9ms into the run, the model's 15.1ms to 15.2ms: a long slice") {
		t.Errorf("note %q, want no word of a slice begun before, where no real run was preempted within 10ms", n)
	}
	if n := preemptNote(rep, model, runs(15*ms, 15500*time.Microsecond, 16*ms)); n != "" {
		t.Errorf("a note for real runs spread as narrowly: %q", n)
	}
	if n := preemptNote(rep, model, runs(0, 0, 17900*time.Microsecond)); n != "" {
		t.Errorf("a note when most real runs were not preempted: %q", n)
	}
	rep.Rows[0].Outcome = "within"
	if n := preemptNote(rep, model, runs(4900*time.Microsecond, 14700*time.Microsecond, 17900*time.Microsecond)); n != "" {
		t.Errorf("a note on a makespan within: %q", n)
	}
}
