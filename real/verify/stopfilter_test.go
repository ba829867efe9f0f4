package verify

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/real/rtrace"
)

// trace.Stop stops the world once main has left the scenario, and the
// goroutines still running stop "preempted": the trace's last events.
// They end the window and are not counted, though the world's start runs
// them again before the trace ends; a preempted stop the program went on
// after is a preemption.
func TestStopTheWorldAtTheTracesEndIsNoPreemption(t *testing.T) {
	us := time.Microsecond
	ev := func(at time.Duration, kind string, g, p int64, reason string) rtrace.Event {
		return rtrace.Event{T: at, Kind: kind, G: g, P: p, Reason: reason}
	}
	run := func(events []rtrace.Event, end time.Duration) Observables {
		f := &stopFilter{rec: NewRecorder(2)}
		for _, e := range events {
			if e.G >= 100 {
				f.runtime(e)
			} else {
				f.scenario(e)
			}
		}
		f.end(end)
		return f.rec.Observables()
	}
	start := []rtrace.Event{
		ev(0, "go-start", 1, 1, ""),
		ev(10*us, "go-create", 2, 1, ""),
		ev(20*us, "go-start", 2, 0, ""),
		ev(30*us, "go-block", 1, 1, "sleep"),
		ev(1030*us, "go-start", 1, 1, ""),
	}
	// The hog is still running when main returns: the world's stop.
	o := run(append(start[:len(start):len(start)], ev(1100*us, "go-stop", 2, 0, "preempted"), ev(1105*us, "go-start", 100, 0, "")), 1105*us)
	if o.Preempted != 0 || o.Makespan != 1090*us {
		t.Errorf("trailing stop: preempted %d, makespan %v; want 0 and the window closed at the stop, 1090µs", o.Preempted, o.Makespan)
	}
	// The world starts again and the hog runs on until the trace ends.
	o = run(append(start[:len(start):len(start)], ev(1100*us, "go-stop", 2, 0, "preempted"), ev(1102*us, "go-start", 2, 0, ""), ev(1105*us, "go-start", 100, 1, "")), 1130*us)
	if o.Preempted != 0 || o.Makespan != 1090*us {
		t.Errorf("trailing stop and restart: preempted %d, makespan %v; want 0 and 1090µs", o.Preempted, o.Makespan)
	}
	// A preemption the program went on after counts.
	o = run(append(start[:len(start):len(start)], ev(1100*us, "go-stop", 2, 0, "preempted"), ev(1105*us, "go-start", 100, 0, ""), ev(1110*us, "go-start", 2, 0, ""), ev(1150*us, "go-block", 1, 1, "sleep")), 1200*us)
	if o.Preempted != 1 || o.Makespan != 1190*us {
		t.Errorf("preemption: preempted %d, makespan %v; want 1 and 1190µs", o.Preempted, o.Makespan)
	}
}

// A real program's until is a goroutine that sleeps and then stops the
// trace, and on a P busy with a hog it waits for the hog's preemption:
// the window closes at until, as the model's does, and that preemption,
// the stopping goroutine's turn, is past it.
func TestRealWindowClosesAtUntil(t *testing.T) {
	ms := time.Millisecond
	f := &stopFilter{rec: NewRecorder(1), until: 150 * ms}
	for _, e := range []rtrace.Event{
		{T: 0, Kind: "go-start", G: 1, P: 0},
		{T: 1 * ms, Kind: "go-create", G: 2, P: 0},
		{T: 2 * ms, Kind: "go-block", G: 1, P: 0, Reason: "sync"},
		{T: 2 * ms, Kind: "go-start", G: 2, P: 0},
		{T: 160 * ms, Kind: "go-stop", G: 2, P: 0, Reason: "preempted"},
	} {
		f.scenario(e)
	}
	f.runtime(rtrace.Event{T: 160 * ms, Kind: "go-start", G: 7, P: 0})
	f.end(161 * ms)
	o := f.rec.Observables()
	if o.Preempted != 0 || o.Makespan != 150*ms || o.Utilisation != 1 {
		t.Errorf("preempted %d, makespan %v, P use %v; want 0, until's 150ms, 1", o.Preempted, o.Makespan, o.Utilisation)
	}
	// The time the scenario waited for the runtime's goroutines within
	// until is no time it would have ended sooner: the makespan is until.
	f = &stopFilter{rec: NewRecorder(1), until: 100 * ms}
	f.scenario(rtrace.Event{T: 0, Kind: "go-start", G: 1, P: 0})
	f.scenario(rtrace.Event{T: 1 * ms, Kind: "go-create", G: 2, P: 0})
	f.scenario(rtrace.Event{T: 2 * ms, Kind: "go-stop", G: 1, P: 0, Reason: "preempted"})
	f.runtime(rtrace.Event{T: 2 * ms, Kind: "go-start", G: 7, P: 0})
	f.runtime(rtrace.Event{T: 4 * ms, Kind: "go-block", G: 7, P: 0})
	f.scenario(rtrace.Event{T: 4 * ms, Kind: "go-start", G: 2, P: 0})
	f.end(120 * ms)
	if o := f.rec.Observables(); o.Makespan != 100*ms || o.RuntimeDelay != 2*ms {
		t.Errorf("makespan %v with %v waited for the runtime: want until's 100ms, the wait kept apart", o.Makespan, o.RuntimeDelay)
	}
}

// The note on the time the scenario waited for the runtime's goroutines
// does not say a run stopped by until left it out of its makespan.
func TestDelayNoteOfARunStoppedByUntil(t *testing.T) {
	ms := time.Millisecond
	real := []Observables{{Makespan: 100 * ms, RuntimeDelay: 2 * ms, StoppedByUntil: true}}
	notes := tracerNotes(real)
	if len(notes) != 1 || !strings.Contains(notes[0], "(2% of the window)") || strings.Contains(notes[0], "leave that time out") {
		t.Errorf("notes %q", notes)
	}
}
