package gmp_test

import (
	"slices"
	"strings"
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
	seen := map[gmp.Kind]int{}
	for _, sw := range switchesOf(t, sc, k) {
		if sw.gap != want[sw.stop.Kind] {
			t.Errorf("%v's %v at %v: %v to the next start, want %v", sw.stop.G, sw.stop.Kind, sw.stop.T, sw.gap, want[sw.stop.Kind])
		}
		seen[sw.stop.Kind]++
	}
	if seen[gmp.KindGoBlock] == 0 || seen[gmp.KindGoExit] == 0 || seen[gmp.KindGoStop] == 0 {
		t.Errorf("switches seen %v: want one after each of a park, an exit and a Gosched", seen)
	}
}

// switchGap is a goroutine's stop and the time from it to the next start
// on its P.
type switchGap struct {
	stop gmp.Event
	gap  time.Duration
}

// switchesOf runs sc, a program on one P, with costs k, and returns every
// park, exit and Gosched that the next start followed, with the time
// between the two: the switch as a trace stamps it.
func switchesOf(t *testing.T, sc *scenarios.Scenario, k gmp.Costs) []switchGap {
	t.Helper()
	cfg := sc.Config()
	cfg.Costs = k
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var stop gmp.Event
	var gaps []switchGap
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindGoBlock, gmp.KindGoExit, gmp.KindGoStop:
			stop = e
		case gmp.KindGoStart:
			if stop.Kind != 0 {
				gaps = append(gaps, switchGap{stop, e.T.Sub(stop.T)})
			}
			stop = gmp.Event{}
		}
	})
	if end := m.Run(); !sc.AsExpected(end) {
		t.Fatalf("run ended with %v: %v", end.Reason, end.Err)
	}
	return gaps
}

// A park's switch grows with the user code its thread ran since its last
// switch (Costs.ParkGrowth): Schedule holds after At of work, and the
// shape scales it to other amounts. Here Schedule is 140ns after 16µs;
// Zero 100ns and 10ns a square root of a µs make that 140ns, so the
// switch after a park is 100ns after no work and 200ns after 100µs. Main
// computes 100µs before each of its ping's parks and 16µs before its
// wait's, its partner nothing before its pong's; an exit keeps
// ScheduleExit, however long the work before it.
func TestAParksSwitchGrowsWithTheWorkBeforeIt(t *testing.T) {
	sc, err := scenarios.Parse("parkgap.yaml", []byte(`procs: 1
chans: {ping: 0, pong: 0}
main:
  - go:
      do:
        - loop:
            times: 3
            do:
              - recv: ping
              - send: pong
        - cpu: 50us
  - loop:
      times: 3
      do:
        - cpu: 100us
        - send: ping
        - recv: pong
  - cpu: 16us
  - wait: children
`))
	if err != nil {
		t.Fatal(err)
	}
	ns := time.Nanosecond
	k := gmp.DefaultCosts()
	k.Schedule, k.ScheduleExit = 140*ns, 230*ns
	k.ParkGrowth = gmp.ParkGrowth{Zero: 100 * ns, PerRootMicro: 10 * ns, At: 16 * time.Microsecond}
	for work, want := range map[time.Duration]time.Duration{0: 100 * ns, 16 * time.Microsecond: 140 * ns, 100 * time.Microsecond: 200 * ns} {
		if got := k.ParkGap(work); got != want {
			t.Errorf("ParkGap(%v) = %v, want %v", work, got, want)
		}
	}
	got := map[string][]time.Duration{}
	for _, sw := range switchesOf(t, sc, k) {
		key := sw.stop.G.String() + " " + sw.stop.Kind.String()
		got[key] = append(got[key], sw.gap)
	}
	want := map[string][]time.Duration{
		"G1 go-block": {200 * ns, 200 * ns, 200 * ns, 140 * ns},
		"G2 go-block": {100 * ns, 100 * ns, 100 * ns},
		"G2 go-exit":  {230 * ns},
	}
	for key, w := range want {
		if !slices.Equal(got[key], w) {
			t.Errorf("switches after %s: %v, want %v", key, got[key], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("switches %v, want only %v", got, want)
	}

	k.ParkGrowth = gmp.ParkGrowth{}
	if got := k.ParkGap(time.Millisecond); got != k.Schedule {
		t.Errorf("without a growth, the switch after a millisecond's work is %v, want Schedule's %v", got, k.Schedule)
	}
	for _, bad := range []gmp.ParkGrowth{{Zero: 0, PerRootMicro: 10, At: time.Microsecond}, {Zero: 100, PerRootMicro: -1, At: time.Microsecond}, {Zero: 100, PerRootMicro: 10}} {
		c := gmp.Config{Procs: 1, Costs: gmp.DefaultCosts()}
		c.Costs.ParkGrowth = bad
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "park growth") {
			t.Errorf("a growth of %+v: %v, want an error naming the park growth", bad, err)
		}
	}
}
