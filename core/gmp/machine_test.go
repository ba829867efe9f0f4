package gmp_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

// machineRun is one run of a machine case: its events and how much of
// the time its threads could run they waited for a CPU.
type machineRun struct {
	events  []gmp.Event
	waited  float64 // percent
	endedAt sim.Time
}

func runMachineCase(t *testing.T, name string, seed uint64, cpus, load int) machineRun {
	t.Helper()
	file := filepath.Join("testdata", "machine", name+".yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Seed, cfg.Noise, cfg.CPUs, cfg.Load = seed, true, cpus, load
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var r machineRun
	m.SetSink(func(e gmp.Event) { r.events = append(r.events, e) })
	if end := m.Run(); end.Err != nil {
		t.Fatalf("%s seed %d: %v", name, seed, end.Err)
	}
	ran, waited := m.CPUTimes()
	if ran+waited > 0 {
		r.waited = 100 * float64(waited) / float64(ran+waited)
	}
	r.endedAt = m.Now()
	return r
}

// firstWakeup is the time from main's first go statement to the first
// child starting, in µs.
func firstWakeup(r machineRun) float64 {
	var from sim.Time = -1
	for _, e := range r.events {
		if e.Kind == gmp.KindGoCreate && from < 0 {
			from = e.T
		}
		if e.Kind == gmp.KindGoStart && e.G != 1 {
			return float64(e.T-from) / 1e3
		}
	}
	return -1
}

// fanIn is the share of receives that switch producer, in percent, and
// the longest run of receives from one producer. Every transfer on an
// unbuffered channel readies the side that waited: the consumer (G1),
// woken by a producer, or a producer the consumer took from.
func fanIn(r machineRun) (float64, float64) {
	var from []gmp.GID
	for _, e := range r.events {
		if e.Rule != gmp.RuleReadyChan {
			continue
		}
		switch {
		case e.G == 1:
			from = append(from, e.Waker())
		case e.Waker() == 1:
			from = append(from, e.G)
		}
	}
	switches, run, longest := 0, 0, 0
	for i, g := range from {
		if i > 0 && g != from[i-1] {
			switches++
			run = 0
		}
		run++
		longest = max(longest, run)
	}
	return 100 * float64(switches) / float64(len(from)-1), float64(longest)
}

// goschedSpread is the spread of the four goroutines' finish times as a
// share of the run, in percent.
func goschedSpread(r machineRun) float64 {
	var ends []sim.Time
	for _, e := range r.events {
		if e.Kind == gmp.KindGoExit && e.G != 1 {
			ends = append(ends, e.T)
		}
	}
	lo, hi := slices.Min(ends), slices.Max(ends)
	return 100 * float64(hi-lo) / float64(hi)
}

// medianSleep is the median of main's 20ms sleeps, from the park to main
// running again, in ms.
func medianSleep(r machineRun) float64 {
	var took []float64
	var parked sim.Time = -1
	for _, e := range r.events {
		if e.G != 1 {
			continue
		}
		switch {
		case e.Kind == gmp.KindGoBlock && e.Reason == gmp.ReasonSleep:
			parked = e.T
		case e.Kind == gmp.KindGoStart && parked >= 0:
			took = append(took, float64(e.T-parked)/float64(time.Millisecond))
			parked = -1
		}
	}
	slices.Sort(took)
	return took[len(took)/2]
}

// A machine figure is one number a pattern of scripts/underload measures,
// taken from the model's events, with the real figure's spread. Busy: as
// scripts/underload measured it, 72 runs with the load average at 7-15.
// Quiet: every quiet measurement there is, pooled: issue 27's, and
// go run ./scripts/underload -runs 10 NAME at a load average of 0.5
// (2026-11-26: first wake-up 37-127µs, fan-in switches 61.7-99.85%,
// longest run 2-193, Gosched spread 0.19-9.6%, every median sleep
// 20.14ms); the first wake-up's also go run ./scripts/firstwake -runs 100
// at load 1.5 (12-5034µs, median 66µs; the thief that steals at once, as
// the model's does, is 40 of the 100); the Gosched storm's also two more
// series of go run ./scripts/underload -runs 10 gosched-storm, 2026-11-26
// with nothing else running (its own runs lift the load average to 1.5-2.4):
// spread 0.048-4.07% and 0.34-10.73%, lowest where the program's threads
// waited least for a CPU (waited% 0.2-0.4: 0.048-0.68%). A figure the model misses carries
// why; the test holds it outside, so that whoever brings it inside is told
// to drop the reason.
type machineFigure struct {
	what        string
	of          func(machineRun) float64
	quiet, busy [2]float64
	quietGap    string
	busyGap     string
}

// A machine case is a pattern: its scenario in testdata/machine, its
// figures, and the share of their runnable time the real program's
// threads waited for a CPU, median of 36 busy runs (scripts/underload's
// waited%), to which the model's load is matched.
type machineCase struct {
	name    string
	waited  float64
	figures []machineFigure
}

var machineCases = []machineCase{
	{"first-wakeup", 88.8, []machineFigure{{
		what: "µs from the first go to the first child starting", of: firstWakeup,
		quiet: [2]float64{12.06, 5034}, busy: [2]float64{46.7, 38750},
	}}},
	{"fan-in", 80.3, []machineFigure{{
		// busy: 0.9-83.4 in 36 runs, and 0.65-47.07 (median 0.95) in 36
		// more, go run ./scripts/underload -runs 36 fan-in beside nine
		// busy shell loops, waited% 78-85 (median 81): pooled.
		what: "% of receives that switch producer", of: func(r machineRun) float64 { sw, _ := fanIn(r); return sw },
		quiet: [2]float64{61.7, 99.85}, busy: [2]float64{0.65, 83.4},
	}, {
		what: "longest run of receives from one producer", of: func(r machineRun) float64 { _, lr := fanIn(r); return lr },
		quiet: [2]float64{2, 193}, busy: [2]float64{88, 460},
	}}},
	{"gosched-storm", 80.2, []machineFigure{{
		what: "% of the run between the first and the last to finish", of: goschedSpread,
		quiet: [2]float64{0.048, 10.73}, busy: [2]float64{0.24, 47.6},
	}}},
	{"sleepers", 86.2, []machineFigure{{
		what: "median ms a 20ms sleep lasts", of: medianSleep,
		quiet: [2]float64{20.12, 20.19}, busy: [2]float64{20.14, 66.1},
	}}},
}

func inside(v float64, r [2]float64) bool { return v >= r[0] && v <= r[1] }

// figureRange runs a case over noise seeds 1-10 and gives each figure's
// lowest and highest value.
func figureRange(t *testing.T, c machineCase, cpus, load int) (out [][2]float64, waited []float64) {
	out = make([][2]float64, len(c.figures))
	for seed := uint64(1); seed <= 10; seed++ {
		r := runMachineCase(t, c.name, seed, cpus, load)
		waited = append(waited, r.waited)
		for i, f := range c.figures {
			v := f.of(r)
			if seed == 1 || v < out[i][0] {
				out[i][0] = v
			}
			if seed == 1 || v > out[i][1] {
				out[i][1] = v
			}
		}
	}
	return out, waited
}

// checkFigures holds each figure's range over the seeds inside the real
// one, or outside it for a figure that says why it misses.
func checkFigures(t *testing.T, c machineCase, got [][2]float64, regime string, real func(machineFigure) ([2]float64, string)) {
	t.Helper()
	for i, f := range c.figures {
		want, gap := real(f)
		if want == [2]float64{} {
			t.Logf("%s, %s: model %.4g–%.4g, no real %s figure", c.name, f.what, got[i][0], got[i][1], regime)
			continue
		}
		in := inside(got[i][0], want) && inside(got[i][1], want)
		t.Logf("%s, %s: model %.4g–%.4g, real %s %.4g–%.4g", c.name, f.what, got[i][0], got[i][1], regime, want[0], want[1])
		switch {
		case gap == "" && !in:
			t.Errorf("%s, %s: the model gives %.4g–%.4g over seeds 1-10, outside the real %s %.4g–%.4g",
				c.name, f.what, got[i][0], got[i][1], regime, want[0], want[1])
		case gap != "" && in:
			t.Errorf("%s, %s: the model now gives %.4g–%.4g, inside the real %s %.4g–%.4g: drop the reason it missed (%s)",
				c.name, f.what, got[i][0], got[i][1], regime, want[0], want[1], gap)
		case gap != "":
			t.Logf("  misses: %s", gap)
		}
	}
}

// The default model, every M on a CPU of its own, against the real
// figures on a quiet machine (issue 27): the model has the runtime's
// mechanism for each pattern, and nothing else runs.
func TestMachineCasesQuiet(t *testing.T) {
	for _, c := range machineCases {
		got, _ := figureRange(t, c, 0, 0)
		checkFigures(t, c, got, "quiet", func(f machineFigure) ([2]float64, string) { return f.quiet, f.quietGap })
	}
}

// On 2 CPUs beside a load matched to the busy measurement, the model's
// figures fall inside the spread measured on the busy machine, where
// without the CPUs they fall outside it. The load is not chosen for the
// figures: it is the one whose threads make the model's threads wait for
// a CPU the share of their runnable time the real program's waited (its
// threads' schedstat, scripts/underload), seed 1 deciding.
func TestMachineCasesBusy(t *testing.T) {
	for _, c := range machineCases {
		load, best := 0, -1.0
		for l := 0; l <= 16; l++ {
			w := runMachineCase(t, c.name, 1, 2, l).waited
			if d := max(w-c.waited, c.waited-w); best < 0 || d < best {
				load, best = l, d
			}
		}
		got, waited := figureRange(t, c, 2, load)
		slices.Sort(waited)
		t.Logf("%s: load %d makes the model's threads wait %.1f%% of their runnable time (median), the real ones %.1f%%",
			c.name, load, waited[len(waited)/2], c.waited)
		checkFigures(t, c, got, "busy", func(f machineFigure) ([2]float64, string) { return f.busy, f.busyGap })
		// Where the busy spread is apart from the quiet one, the model
		// without CPUs is outside it: the CPUs and the load make the
		// difference.
		before, _ := figureRange(t, c, 0, 0)
		for i, f := range c.figures {
			apart := f.quiet == [2]float64{} || f.busy[0] > f.quiet[1] || f.busy[1] < f.quiet[0]
			if apart && inside(before[i][0], f.busy) && inside(before[i][1], f.busy) {
				t.Errorf("%s, %s: the model without CPUs is inside the busy spread already (%.4g–%.4g)", c.name, f.what, before[i][0], before[i][1])
			}
			t.Logf("%s, %s: without CPUs the model gives %.4g–%.4g", c.name, f.what, before[i][0], before[i][1])
		}
	}
}
