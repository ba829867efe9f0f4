package verify

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A switch is the P time from a goroutine's stop to the start of one that
// was ready by then; a goroutine readied after the stop waited for a
// wake-up, not for the switch, and a first start after the window opened
// counts from it.
func TestRecorderMeasuresSwitches(t *testing.T) {
	us := time.Microsecond
	r := NewRecorder(1)
	r.Event(0, "go-start", 1, 0, false)
	r.Event(1*us, "go-create", 2, 0, false)
	r.Event(2*us, "go-block", 1, 0, false) // G2 ready since 1µs
	r.Event(3*us, "go-start", 2, 0, false) // a switch of 1µs
	r.Event(5*us, "go-block", 2, 0, false)
	r.Event(9*us, "go-unblock", 1, -1, false) // readied after the stop
	r.Event(10*us, "go-start", 1, 0, false)   // no switch: a wake-up
	r.Event(11*us, "go-exit", 1, 0, false)
	o := r.Observables()
	if o.Switches != 1 || o.SwitchGap != time.Microsecond {
		t.Errorf("switches %d taking %v, want 1 of 1µs", o.Switches, o.SwitchGap)
	}
}

// The model's run is measured as a trace is: its goroutines readied by a
// wake-up (go-unblock) count, so a ping-pong pair's hops are switches on
// both sides. hog-pingpong's real pair on one P spent 30% of the P's time
// between a stop and the next start (255269 switches of 114ns, load 4):
// the note says so, and what share of the P use's difference it is.
func TestSwitchNoteNamesTheSwitchesShare(t *testing.T) {
	sc, err := scenarios.Load("hog-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.ConfigWith(scenarios.Overrides{})
	cfg.Noise = true
	cfg.Costs = gmp.DefaultCosts()
	m, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Switches < 1000 {
		t.Fatalf("the model's pair made %d switches, want its hops counted", m.Switches)
	}
	ms := time.Millisecond
	real := Observables{Makespan: 98 * ms, Utilisation: 0.69, Switches: 255269, SwitchGap: 29 * ms}
	rep := &Report{Procs: 1, Seeds: []uint64{1}, Runs: 1}
	rep.Rows = []Row{{Observable: "P utilisation", Outcome: "higher", Model: 0.926, RealMedian: 0.69}}
	note := switchNote(rep, []Observables{m}, []Observables{real})
	if !strings.Contains(note, "a median 29.6% of their time switching") || !strings.Contains(note, "255269 switches of 113ns") ||
		!strings.Contains(note, "the real runtime's takes longer than the model's Schedule") {
		t.Errorf("note %q", note)
	}
	// A model whose switches take longer than the real ones (verify's
	// Schedule is calibrate's park gap, which a run's gap can fall short
	// of) is said to, its P use the lower.
	slow := m
	slow.SwitchGap = m.Makespan * 2 / 5 // 40% of the P, in as many switches
	rep.Rows[0] = Row{Observable: "P utilisation", Outcome: "lower", Model: 0.60, RealMedian: 0.69}
	if note := switchNote(rep, []Observables{slow}, []Observables{real}); !strings.Contains(note, "the real runtime's takes shorter than the model's Schedule") {
		t.Errorf("a model whose switches are the longer: note %q", note)
	}
	// Switches that took 10µs or more on one side held waits, not the
	// scheduler's work (select-fanin's model, whose thief backed off 77µs
	// in runqgrab before it took the runnext, had two switches of 11.6µs
	// at the median against the real runs' 832ns): the same 40% of the P
	// in a hundred switches is no switch cost.
	waits := slow
	waits.Switches = 100
	if note := switchNote(rep, []Observables{waits}, []Observables{real}); note != "" {
		t.Errorf("a note on switches that held waits: %q", note)
	}
	rep.Rows[0].Outcome = "within"
	if note := switchNote(rep, []Observables{m}, []Observables{real}); note != "" {
		t.Errorf("a note on a P use within: %q", note)
	}
}
