package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A trace stamps a goroutine's stop once it has left its M and the next
// start just before the switch to it (execute), so the scheduler's work
// between them is an idle P; the runtime's is longer after an exit
// (goexit0 frees the G) and a yield (goschedImpl takes the scheduler's
// lock for the global queue) than after a park. The model charges each
// its own cost there, between the stop and the next start: Schedule
// after a park, ScheduleExit after an exit, ScheduleYield after a
// Gosched.
func TestSwitchCostsFallBetweenStopAndStart(t *testing.T) {
	sc, err := scenarios.Parse("switch.yaml", []byte(`procs: 1
main:
  - go:
      count: 2
      do:
        - cpu: 10us
        - gosched
  - wait: children
`))
	if err != nil {
		t.Fatal(err)
	}
	k := gmp.DefaultCosts()
	k.Schedule, k.ScheduleExit, k.ScheduleYield = 11*time.Nanosecond, 230*time.Nanosecond, 370*time.Nanosecond
	want := map[gmp.Kind]time.Duration{gmp.KindGoBlock: k.Schedule, gmp.KindGoExit: k.ScheduleExit, gmp.KindGoStop: k.ScheduleYield}
	cfg := sc.Config()
	cfg.Costs = k
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var stop gmp.Event
	seen := map[gmp.Kind]int{}
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindGoBlock, gmp.KindGoExit, gmp.KindGoStop:
			stop = e
		case gmp.KindGoStart:
			if stop.Kind != 0 {
				if got := e.T.Sub(stop.T); got != want[stop.Kind] {
					t.Errorf("%v's %v at %v, next start at %v: %v between, want %v", stop.G, stop.Kind, stop.T, e.T, got, want[stop.Kind])
				}
				seen[stop.Kind]++
			}
			stop = gmp.Event{}
		}
	})
	if end := m.Run(); !sc.AsExpected(end) {
		t.Fatalf("run ended with %v: %v", end.Reason, end.Err)
	}
	if seen[gmp.KindGoBlock] == 0 || seen[gmp.KindGoExit] == 0 || seen[gmp.KindGoStop] == 0 {
		t.Errorf("switches seen %v: want one after each of a park, an exit and a Gosched", seen)
	}
}
