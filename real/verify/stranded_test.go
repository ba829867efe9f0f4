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

// Where 4 Ps share 2 CPUs, the note names the CPU time the program's
// threads used, over the CPUs, when it makes at least half of the
// makespans' difference, and the share of the CPUs each side had; it
// says nothing where every M has a CPU, nor when too little of the
// difference is CPU time, and takes only the real runs that measured it.
func TestCPUNoteNamesTheCPUTime(t *testing.T) {
	ms := time.Millisecond
	runs := func(makespan, cpu time.Duration) []Observables {
		o := Observables{Makespan: makespan, Utilisation: 0.9, CPUTime: cpu}
		return []Observables{o, o, o}
	}
	rep := &Report{Procs: 4, Seeds: []uint64{1}, Runs: 3}
	rep.Rows = []Row{{Observable: "makespan", Outcome: "lower", Model: float64(560 * ms), RealMedian: float64(580 * ms)}}
	model := runs(560*ms, 1118*ms)
	// 1158ms against 1118ms over 2 CPUs: 20ms, the whole difference; the
	// real runs had 1158/1160 of the CPUs, the model's 1118/1120.
	note := cpuNote(rep, model, runs(580*ms, 1158*ms), 2)
	for _, want := range []string{
		"makespan: the real program's threads ran on the machine's 2 CPUs for a median 1.16s, the model's for 1.12s, and the 40ms between them over the 2 CPUs is 100% of the 20ms between the two makespans (all 3 real runs measured it): ",
		"took more CPU time than the model's costs",
		"The real program had the CPUs for a median 99.8% of its window, the model's 99.8%",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q\nwant it to hold %q", note, want)
		}
	}
	if n := cpuNote(rep, model, runs(580*ms, 1158*ms), 0); n != "" {
		t.Errorf("a note where every M has a CPU: %q", n)
	}
	// 8ms more over 2 CPUs is 4ms of the 20ms: not why.
	if n := cpuNote(rep, model, runs(580*ms, 1126*ms), 2); n != "" {
		t.Errorf("a note for a fifth of the difference: %q", n)
	}
	// Runs recorded before the CPU time was measured are left out, and
	// the makespans compared are those of the runs that measured it.
	mixed := append(runs(600*ms, 0), runs(580*ms, 1158*ms)[0])
	if n := cpuNote(rep, model, mixed, 2); !strings.Contains(n, "is 100% of the 20ms between the two makespans (of the 1 of the 4 real runs that measured it, their makespan's median against the model's)") {
		t.Errorf("with one run measured: %q", n)
	}
	// The runs that measured it finished before the model: their CPU
	// time cannot say why the others finished after it.
	if n := cpuNote(rep, model, append(runs(600*ms, 0), runs(550*ms, 1158*ms)...), 2); n != "" {
		t.Errorf("a note for measured runs faster than the model: %q", n)
	}
	if n := cpuNote(rep, model, runs(580*ms, 0), 2); n != "" {
		t.Errorf("a note with no real run measured: %q", n)
	}
	// The model slower, using more CPU time.
	rep.Rows[0] = Row{Observable: "makespan", Outcome: "higher", Model: float64(600 * ms), RealMedian: float64(580 * ms)}
	if n := cpuNote(rep, runs(600*ms, 1198*ms), runs(580*ms, 1158*ms), 2); !strings.Contains(n, "took less CPU time than the model's") {
		t.Errorf("a model slower: note %q", n)
	}
}
