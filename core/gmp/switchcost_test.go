package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
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
	for _, dispatch := range []time.Duration{0, 97 * time.Nanosecond} {
		t.Run(dispatch.String(), func(t *testing.T) { testSwitchCosts(t, dispatch) })
	}
}

// testSwitchCosts runs TestSwitchCostsFallBetweenStopAndStart with
// Costs.Dispatch, the part of the switch after findRunnable's choice: it
// adds to each of the three.
func testSwitchCosts(t *testing.T, dispatch time.Duration) {
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
	k.Dispatch = dispatch
	want := map[gmp.Kind]time.Duration{gmp.KindGoBlock: k.Schedule + dispatch, gmp.KindGoExit: k.ScheduleExit + dispatch, gmp.KindGoStop: k.ScheduleYield + dispatch}
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

// While Costs.Dispatch passes, the G findRunnable chose has left its
// queue, so a thief finds the runnext empty, and has not started: the M
// holds it as Picked, where the invariant checker looks for it. Execute
// less Dispatch keeps a hop as long as before, so a one-P ping-pong ends
// Dispatch sooner, no more: main's start at 0 is no switch, and takes
// Execute alone. On a modelled CPU the thread computes while it
// dispatches: it is on its CPU or waiting for one, never asleep.
func TestDispatchHoldsThePickedG(t *testing.T) {
	sc, err := scenarios.Parse("pingpong.yaml", []byte(`procs: 1
chans: {ping: 0, pong: 0}
main:
  - go:
      do:
        - loop: {times: 50, do: [{recv: ping}, {send: pong}]}
  - loop: {times: 50, do: [{send: ping}, {recv: pong}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	run := func(dispatch time.Duration, cpus int) (sim.Time, int) {
		k := gmp.DefaultCosts()
		k.Dispatch = dispatch
		k.Execute -= dispatch
		cfg := sc.Config()
		cfg.Costs = k
		cfg.CPUs, cfg.Load = cpus, cpus
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		held := 0
		for m.Step() {
			if err := m.CheckInvariants(); err != nil {
				t.Fatalf("at %v: %v", m.Now(), err)
			}
			mm := m.M(0)
			if mm.Picked == gmp.NoG {
				continue
			}
			held++
			if g := m.G(mm.Picked); g.Where.Kind != gmp.LocPicked {
				t.Fatalf("at %v: %v's picked %v is at %v", m.Now(), mm.ID, g.ID, g.Where)
			}
			if rn := m.P(0).Runnext; rn == mm.Picked {
				t.Fatalf("at %v: the picked %v is still in P0's runnext", m.Now(), rn)
			}
			if _, on := m.ThreadCPU(mm.ID); cpus > 0 && on == gmp.CPUNone {
				t.Fatalf("at %v: %v dispatches %v asleep, off every CPU", m.Now(), mm.ID, mm.Picked)
			}
		}
		if end := m.End(); !sc.AsExpected(end) {
			t.Fatalf("run ended with %v: %v", end.Reason, end.Err)
		}
		return m.Now(), held
	}
	before, none := run(0, 0)
	after, held := run(100*time.Nanosecond, 0)
	if _, held := run(100*time.Nanosecond, 1); held == 0 {
		t.Errorf("on one CPU beside a busy thread, no M held a picked G")
	}
	if none != 0 {
		t.Errorf("without Dispatch an M held a picked G across %d steps", none)
	}
	if held < 100 {
		t.Errorf("with Dispatch an M held a picked G across %d steps, want one per hop (100)", held)
	}
	if want := before.Add(-100 * time.Nanosecond); after != want {
		t.Errorf("the ping-pong ended at %v without Dispatch and %v with it (Execute less as much), want %v", before, after, want)
	}
}
