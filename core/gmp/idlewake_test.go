package gmp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// idleRounds is scripts/wakeafteridle's program: on 2 Ps, main sleeps,
// makes a goroutine and computes, so that the other P's M parks while
// main sleeps and the go statement's wakep wakes it.
const idleRounds = `procs: 2
main:
  - loop:
      times: 200
      do:
        - sleep: %s
        - go: {do: [{cpu: 100us}]}
        - cpu: 5ms
`

// wakeups runs idleRounds after idle with the points given and noise as
// given, and returns each wake-up of a parked M by startm, how long after
// it the M acquired its P, and the times at which a thread left its CPU
// (an M parked, or blocked in netpoll).
func wakeups(t *testing.T, idle string, points gmp.IdleWake, noise bool) (wakes []gmp.Event, started []time.Duration, freed map[time.Duration]bool) {
	t.Helper()
	sc := parse(t, strings.Replace(idleRounds, "%s", idle, 1))
	cfg := sc.Config()
	cfg.Seed, cfg.Noise = 1, noise
	cfg.Costs = gmp.DefaultCosts()
	cfg.Costs.IdleWake = points
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	woke := map[gmp.MID]int{}
	freed = map[time.Duration]bool{}
	m.SetSink(func(e gmp.Event) {
		switch e.Rule {
		case gmp.RuleWakep:
			if !e.NewM() {
				woke[e.M] = len(wakes)
				wakes = append(wakes, e)
				started = append(started, -1)
			}
		case gmp.RuleAcquirep:
			if i, ok := woke[e.M]; ok {
				started[i] = e.T.D() - wakes[i].T.D()
				delete(woke, e.M)
			}
		case gmp.RuleStopm, gmp.RuleNetpollBlock:
			freed[e.T.D()] = true
		}
	})
	if end := m.Run(); end.Err != nil {
		t.Fatal(end.Err)
	}
	if len(wakes) < 100 {
		t.Fatalf("%d wake-ups of a parked M: the program does not exercise them", len(wakes))
	}
	return wakes, started, freed
}

// A thread parked at least a point's idle time starts late with the
// point's chance, by a time within its bounds, unless the thread that
// woke it leaves its CPU first, and its sentence says so; parked less, or
// without noise, it starts as before.
func TestIdleWakeStartsALongParkedMLate(t *testing.T) {
	k := gmp.DefaultCosts()
	points := gmp.IdleWake{
		{After: 3 * time.Millisecond, Share: 0.3, Min: 500 * time.Microsecond, Max: time.Millisecond},
		{After: 6 * time.Millisecond, Share: 0.7, Min: time.Millisecond, Max: 3 * time.Millisecond},
	}
	// pointOf is the index of the point for a park of parked, -1 for none.
	pointOf := func(parked time.Duration) int {
		switch {
		case parked >= points[1].After:
			return 1
		case parked >= points[0].After:
			return 0
		}
		return -1
	}
	d := gmp.NewDescriber(&gmp.Program{})
	var byPoint [2]struct{ wakes, lates int }
	cut := 0
	for _, c := range []struct {
		idle  string
		noise bool
	}{{"1ms", true}, {"4ms", true}, {"8ms", true}, {"8ms", false}} {
		wakes, started, freed := wakeups(t, c.idle, points, c.noise)
		for i, e := range wakes {
			late, pi := e.IdleWakeLate(), pointOf(e.ParkedFor())
			if c.noise && pi >= 0 {
				byPoint[pi].wakes++
			}
			if late == 0 {
				if s := d.Describe(e); strings.Contains(s, "up to") {
					t.Errorf("idle %s: a wake-up on time is told late: %q", c.idle, s)
				}
				continue
			}
			if !c.noise {
				t.Errorf("idle %s: a wake-up %v late without noise", c.idle, late)
			}
			if pi < 0 {
				t.Errorf("idle %s: late after a park of %v, shorter than the first point's %v", c.idle, e.ParkedFor(), points[0].After)
				continue
			}
			byPoint[pi].lates++
			if p := points[pi]; late < p.Min || late > p.Max {
				t.Errorf("idle %s: a wake-up %v late after a park of %v, want %v to %v", c.idle, late, e.ParkedFor(), p.Min, p.Max)
			}
			// The M acquires its P after the wake-up's own time and the
			// lateness (WakeM, without noise's jitter, at least), or at
			// once when the thread that woke it leaves its CPU: within
			// the wake-up's own time, or as a thread parks or blocks.
			switch at := started[i]; {
			case at >= late+k.WakeM:
			case at <= 5*k.WakeM || freed[e.T.D()+at]:
				cut++
			default:
				t.Errorf("idle %s: the M started %v after wakep, %v late, with no thread leaving its CPU then", c.idle, at, late)
			}
			s := d.Describe(e)
			for _, want := range []string{"for up to " + late.String(), "parked " + e.ParkedFor().String(), "scheduler tick"} {
				if !strings.Contains(s, want) {
					t.Errorf("idle %s: the sentence %q does not say %q", c.idle, s, want)
				}
			}
		}
	}
	for i, b := range byPoint {
		if b.wakes < 50 {
			t.Fatalf("point %d: %d wake-ups after such a park: the runs do not exercise it", i+1, b.wakes)
		}
		share := float64(b.lates) / float64(b.wakes)
		if want := points[i].Share; share < want-0.15 || share > want+0.15 {
			t.Errorf("point %d: %d of %d wake-ups late (%.2f), want about %.2f", i+1, b.lates, b.wakes, share, want)
		}
	}
	if cut == 0 {
		t.Error("no late wake-up was cut short by its waker's thread leaving the CPU: the runs do not exercise it")
	}
}

// Without points, the model draws nothing more: a noisy run is the run it
// was, event for event, whatever else the costs say.
func TestIdleWakeWithoutPointsChangesNothing(t *testing.T) {
	none, _, _ := wakeups(t, "8ms", gmp.IdleWake{}, true)
	zero, _, _ := wakeups(t, "8ms", gmp.IdleWake{{After: 3 * time.Millisecond, Share: 0, Min: time.Millisecond, Max: time.Millisecond}}, true)
	if len(none) != len(zero) {
		t.Fatalf("%d wake-ups without points, %d with a point of share 0", len(none), len(zero))
	}
	for i := range none {
		if none[i].T != zero[i].T || none[i].IdleWakeLate() != 0 || zero[i].IdleWakeLate() != 0 {
			t.Fatalf("wake-up %d: at %v without points, %v with a point of share 0", i, none[i].T, zero[i].T)
		}
	}
}

// Points a profile could hold wrongly are refused with what is wrong.
func TestIdleWakeValidation(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		points gmp.IdleWake
		want   string
	}{
		{gmp.IdleWake{{After: 4 * ms, Share: 0.5, Min: ms, Max: 2 * ms}, {After: 2 * ms, Share: 0.5, Min: ms, Max: 2 * ms}}, "point 2: its idle time 2ms must be positive and after the one before"},
		{gmp.IdleWake{{After: 4 * ms, Share: 1.5, Min: ms, Max: 2 * ms}}, "point 1: its share must be from 0 to 1, got 1.5"},
		{gmp.IdleWake{{After: 4 * ms, Share: 0.5, Min: 2 * ms, Max: ms}}, "point 1: want 0 ≤ min ≤ max, got 2ms and 1ms"},
		{gmp.IdleWake{{}, {After: 4 * ms, Share: 0.5, Min: ms, Max: 2 * ms}}, "point 2 follows an unused one"},
		{gmp.IdleWake{{Share: 0.5}}, "point 1 has no idle time but a lateness"},
		{gmp.IdleWake{{After: -ms}}, "point 1: its idle time -1ms must be positive"},
	} {
		k := gmp.DefaultCosts()
		k.IdleWake = c.points
		err := (&gmp.Config{Procs: 1, Costs: k}).Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error with %q", c.points, err, c.want)
		}
	}
	k := gmp.DefaultCosts()
	k.IdleWake = gmp.IdleWake{{After: 3 * time.Millisecond, Share: 0.3, Min: 0, Max: 4 * time.Millisecond}}
	if err := (&gmp.Config{Procs: 1, Costs: k}).Validate(); err != nil {
		t.Errorf("good points refused: %v", err)
	}
}
