package verify

import (
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
