package gmp_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// preemptRounds has main, on 2 Ps, make a goroutine and compute, time
// after time: the other P's M parks while main computes on, and each go
// statement's wakep wakes it.
const preemptRounds = `procs: 2
main:
  - loop:
      times: 300
      do:
        - go: {do: [{cpu: 20us}]}
        - cpu: 200us
`

// With a WakePreempt and noise, a woken M takes its waker's CPU with the
// share's chance and starts within After to After+Spread, and its sentence
// says whose CPU it takes; otherwise it starts after WakeM, at least, as
// before, and nothing is told. Without noise, or with the share at 0, no
// wake-up takes a CPU.
func TestWakePreemptStartsAWokenMAtOnce(t *testing.T) {
	const wakeM = 50 * time.Microsecond
	w := gmp.WakePreempt{Share: 0.6, After: 4 * time.Microsecond, Spread: 4 * time.Microsecond}
	d := gmp.NewDescriber(&gmp.Program{})
	for _, c := range []struct {
		name  string
		w     gmp.WakePreempt
		noise bool
		// lo and hi bound the share of wake-ups that take a CPU.
		lo, hi float64
	}{
		{"set", w, true, 0.5, 0.7},
		// Now and then a preemption signal's handling wakes an M, which
		// the model runs in no M's step: like Costs.IdleWake, the chance
		// is for a wake-up that an M's step makes.
		{"always", gmp.WakePreempt{Share: 1, After: 4 * time.Microsecond}, true, 0.99, 1},
		{"no noise", w, false, 0, 0},
		{"no share", gmp.WakePreempt{}, true, 0, 0},
	} {
		sc := parse(t, preemptRounds)
		cfg := sc.Config()
		cfg.Seed, cfg.Noise = 1, c.noise
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.WakeM = wakeM
		cfg.Costs.WakePreempt = c.w
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var wakes, taken int
		woke := map[gmp.MID]gmp.Event{}
		creator := gmp.NoM // the M of the last go statement
		m.SetSink(func(e gmp.Event) {
			if e.Kind == gmp.KindGoCreate {
				creator = e.M
			}
			switch e.Rule {
			case gmp.RuleWakep:
				if e.NewM() {
					return
				}
				wakes++
				woke[e.M] = e
				told := strings.Contains(d.Describe(e), "takes that CPU at once")
				if on := e.TakesCPUOf(); on != gmp.NoM {
					taken++
					if on != creator {
						t.Errorf("%s: the woken %v takes %v's CPU, want %v's, whose go statement woke it", c.name, e.M, on, creator)
					}
					if !told {
						t.Errorf("%s: a wake-up that takes a CPU is not told so: %q", c.name, d.Describe(e))
					}
				} else if told {
					t.Errorf("%s: a wake-up told to take a CPU takes none: %q", c.name, d.Describe(e))
				}
			case gmp.RuleAcquirep:
				we, ok := woke[e.M]
				if !ok {
					return
				}
				delete(woke, e.M)
				after := e.T.D() - we.T.D()
				if we.TakesCPUOf() != gmp.NoM {
					if lo, hi := c.w.After, c.w.After+c.w.Spread; after < lo || after > hi {
						t.Errorf("%s: a woken M that takes a CPU starts %v after its wake-up, want %v to %v", c.name, after, lo, hi)
					}
				} else if after < wakeM {
					t.Errorf("%s: a woken M starts %v after its wake-up, before WakeM's %v", c.name, after, wakeM)
				}
			}
		})
		if end := m.Run(); end.Err != nil {
			t.Fatal(end.Err)
		}
		if wakes < 100 {
			t.Fatalf("%s: %d wake-ups of a parked M: the program does not exercise them", c.name, wakes)
		}
		if share := float64(taken) / float64(wakes); share < c.lo || share > c.hi {
			t.Errorf("%s: %d of %d wake-ups took a CPU (%.2f), want %.2f to %.2f", c.name, taken, wakes, share, c.lo, c.hi)
		}
	}
}

// A WakePreempt's share is a chance and its start a short wait.
func TestWakePreemptRefusesWhatCannotBe(t *testing.T) {
	for _, w := range []gmp.WakePreempt{
		{Share: -0.1},
		{Share: 1.5},
		{Share: math.NaN()},
		{Share: 0.5, After: -time.Microsecond},
		{Share: 0.5, Spread: -time.Microsecond},
		{Share: 0.5, After: 3 * time.Millisecond, Spread: 2 * time.Millisecond},
		{Share: 0.5, Turn: -time.Millisecond},
		{Share: 0.5, Turn: 15 * time.Millisecond, TurnSpread: 10 * time.Millisecond},
	} {
		cfg := gmp.Config{Procs: 2, Costs: gmp.DefaultCosts()}
		cfg.Costs.WakePreempt = w
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "wake preempt") {
			t.Errorf("%+v: %v, want a wake preempt error", w, err)
		}
	}
	cfg := gmp.Config{Procs: 2, Costs: gmp.DefaultCosts()}
	cfg.Costs.WakePreempt = gmp.WakePreempt{Share: 1, After: 4 * time.Millisecond}
	if err := cfg.Validate(); err != nil {
		t.Errorf("a share of 1 and a start of a tick: %v", err)
	}
}

// pingpong2P is a ping-pong pair on two Ps: each hand-off readies the
// partner into runnext and wakes the idle P's thread, which backs off
// and now and then steals the partner.
const pingpong2P = `procs: 2
until: 30ms
chans: {ping: 0, pong: 0}
main:
  - go:
      do:
        - loop:
            times: 1000000
            do:
              - recv: ping
              - send: pong
  - loop:
      times: 1000000
      do:
        - send: ping
        - recv: pong
`

// A thread woken onto its waker's CPU that steals from the waker's P,
// while the waker is in the scheduler without a goroutine, makes the
// waker wait Turn to Turn+TurnSpread: the waker's next event comes that
// much after the stolen goroutine starts. While the waker waits, its P
// held, no idle P's thread looks, and the pair moves less often.
func TestWakePreemptTurnMakesTheWakerWait(t *testing.T) {
	const turn, spread = 2 * time.Millisecond, time.Millisecond
	run := func(w gmp.WakePreempt) (moves, turns, long int) {
		sc := parse(t, pingpong2P)
		cfg := sc.Config()
		cfg.Seed, cfg.Noise, cfg.Check = 1, true, true
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.WakePreempt = w
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var events []gmp.Event
		m.SetSink(func(e gmp.Event) { events = append(events, e) })
		if end := m.Run(); end.Err != nil && end.Reason != gmp.UntilReached {
			t.Fatal(end.Err)
		}
		holder := map[gmp.PID]gmp.MID{} // each P's M, from its acquirep
		lastP := map[gmp.GID]gmp.PID{}
		for i, e := range events {
			if e.Kind == gmp.KindProcStart {
				holder[e.P] = e.M
			}
			if e.Kind != gmp.KindGoStart {
				continue
			}
			if p, ok := lastP[e.G]; ok && p != e.P {
				moves++
			}
			lastP[e.G] = e.P
			if e.Rule != gmp.RuleStolenRun {
				continue
			}
			// The victim P's M: its next event after the steal.
			victim := holder[e.P2]
			if victim == e.M {
				continue
			}
			for _, f := range events[i+1:] {
				if f.M != victim {
					continue
				}
				switch gap := f.T.D() - e.T.D(); {
				case gap >= turn && gap <= turn+spread+time.Millisecond:
					turns++
				case gap > turn+spread+time.Millisecond:
					long++
				}
				break
			}
		}
		return moves, turns, long
	}
	base := gmp.WakePreempt{Share: 0.77, After: 4 * time.Microsecond, Spread: 4 * time.Microsecond}
	movesBefore, turnsBefore, _ := run(base)
	withTurn := base
	withTurn.Turn, withTurn.TurnSpread = turn, spread
	movesAfter, turnsAfter, tooLong := run(withTurn)
	if turnsBefore != 0 {
		t.Errorf("without a turn, %d wakers waited a turn's length after a steal", turnsBefore)
	}
	if turnsAfter == 0 || tooLong != 0 {
		t.Errorf("with a turn, %d wakers waited %v to %v after a steal (want some), %d longer (want none)", turnsAfter, turn, turn+spread, tooLong)
	}
	if movesAfter >= movesBefore {
		t.Errorf("the pair moved %d times with turns, %d without: want fewer with them", movesAfter, movesBefore)
	}
}
