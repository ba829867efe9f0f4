package gmp

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// testPack is a table whose rows and columns are easy to read between.
func testPack() WakePack {
	ms := time.Millisecond
	return WakePack{
		Utils:  [3]float64{0.25, 0.5, 1},
		Sleeps: [3]time.Duration{ms, 2 * ms, 4 * ms},
		Beside: [3][3]float64{{1, 1, 1}, {0.5, 0.5, 0.5}, {0.8, 0.4, 0}},
		Away:   [3][3]float64{{0.8, 0.6, 0.4}, {0, 0, 0}, {0, 0, 0}},
	}
}

// The chance is the table's at its points, linear between them, and the
// nearest point's beyond them.
func TestWakePackChance(t *testing.T) {
	w := testPack()
	ms := time.Millisecond
	for _, c := range []struct {
		beside bool
		util   float64
		slept  time.Duration
		want   float64
	}{
		{true, 1, ms, 0.8},
		{true, 1, 3 * ms, 0.2},
		{true, 1, 10 * ms, 0},
		{true, 1, ms / 10, 0.8},
		{true, 0.75, ms, 0.65},
		{true, 0.1, 4 * ms, 1},
		{false, 0.375, 1500 * time.Microsecond, 0.35},
		{false, 0, 0, 0.8},
		{false, 1, ms, 0},
	} {
		if got := w.chance(c.beside, c.util, c.slept); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("beside %v, util %v, slept %v: %v, want %v", c.beside, c.util, c.slept, got, c.want)
		}
	}
}

// A table out of order or with a chance that is no chance is refused
// with the rest of a configuration's mistakes; the zero table is none.
func TestWakePackValidate(t *testing.T) {
	good := testPack()
	if err := (&Config{Procs: 1, Costs: Costs{WakePack: good}}).Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (&Config{Procs: 1}).Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*WakePack)
		want string
	}{
		{"utilisations out of order", func(w *WakePack) { w.Utils[1] = 0.2 }, "the utilisations must rise within (0, 1]"},
		{"a utilisation above 1", func(w *WakePack) { w.Utils[2] = 1.5 }, "the utilisations must rise within (0, 1]"},
		{"no utilisation", func(w *WakePack) { w.Utils[0] = 0 }, "the utilisations must rise within (0, 1]"},
		{"sleeps out of order", func(w *WakePack) { w.Sleeps[2] = w.Sleeps[1] }, "the sleeps must be positive and rise"},
		{"a chance above 1", func(w *WakePack) { w.Beside[1][2] = 1.5 }, "a chance must be from 0 to 1, got 1.5"},
		{"a chance that is no number", func(w *WakePack) { w.Away[0][0] = math.NaN() }, "a chance must be from 0 to 1, got NaN"},
	} {
		w := testPack()
		c.edit(&w)
		err := (&Config{Procs: 1, Costs: Costs{WakePack: w}}).Validate()
		if err == nil || !strings.Contains(err.Error(), "wake pack: "+c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// A CPU's utilisation rises halfway to full in a half-life of running
// and falls by half in one of idling.
func TestCPUUtilisation(t *testing.T) {
	q := cpuRQ{curr: 0}
	var start sim.Time
	q.touchUtil(start)
	q.touchUtil(start.Add(utilHalfLife))
	if math.Abs(q.util-0.5) > 1e-12 {
		t.Fatalf("after a half-life running: %v, want 0.5", q.util)
	}
	q.curr = cpuIdle
	q.touchUtil(start.Add(2 * utilHalfLife))
	if math.Abs(q.util-0.25) > 1e-12 {
		t.Fatalf("then a half-life idle: %v, want 0.25", q.util)
	}
}
