package gmp

import (
	"fmt"
	"math"
	"time"
)

// A park's switch costs more after long user code. The switch is the idle
// P a trace shows from a goroutine's block to the next goroutine's start:
// gopark's mcall, park_m, schedule and findRunnable. User code between
// two switches takes their code and data out of the CPU's caches, and
// the next switch runs from memory. scripts/switchwork times it in a
// traced ping-pong on one P whose sides compute a given time between
// hops, each run a fresh process; on the AMD EPYC (28 November, medians
// of the runs' means) it took 122ns after no work, 185ns after 13µs and
// 535ns after 1ms at one pace, 79ns, 102ns and 283ns at a faster one:
// the gap grows about as the square root of the work, by 0.08 to 0.1 of
// the gap at none for every √µs (real/calibrate's parkGapGrowth has the
// figures). The real runs' own switches agree where the work is nil:
// pingpong-2p's and hog-pingpong's hops, back to back, take 99-106ns
// (the medians of 300 runs each, S1-S6), where calibrate's probe, which
// computes about 13µs a hop, measures 188ns.
//
// A ParkGrowth holds that shape, and Costs.Schedule the gap at one
// amount of work, the probe's: the model charges a park's switch after w
// of user code Schedule × (Zero + PerRootMicro·√w) / (Zero +
// PerRootMicro·√At), w and At in µs, so that the profile's gap holds
// where it was measured. The zero ParkGrowth grows nothing: every park
// costs Schedule, as in the defaults and every run but verify's.

// ParkGrowth is how a park's switch grows with the user code its thread
// ran since its last switch: Zero at none, PerRootMicro more for every
// square root of a microsecond, both as measured beside each other, and
// At the work before the switches that Costs.Schedule was timed after.
type ParkGrowth struct {
	Zero, PerRootMicro, At time.Duration
}

// set says whether w holds a measurement.
func (w *ParkGrowth) set() bool { return *w != ParkGrowth{} }

// validate says what is wrong with w, if anything.
func (w *ParkGrowth) validate() error {
	if !w.set() {
		return nil
	}
	if w.Zero <= 0 || w.PerRootMicro < 0 || w.At <= 0 {
		return fmt.Errorf("park growth: want a positive gap at no work and work it was timed after, and a growth of at least 0, got %v, %v and %v", w.Zero, w.At, w.PerRootMicro)
	}
	return nil
}

// ParkGap is the switch after a park whose thread ran worked of user
// code since its last switch. The conversions keep each product rounded,
// so that no machine fuses them and a run stays the same everywhere.
func (k *Costs) ParkGap(worked time.Duration) time.Duration {
	w := &k.ParkGrowth
	if !w.set() {
		return k.Schedule
	}
	shape := func(d time.Duration) float64 {
		return float64(w.Zero) + float64(float64(w.PerRootMicro)*math.Sqrt(float64(d)/float64(time.Microsecond)))
	}
	return time.Duration(math.Round(float64(float64(k.Schedule)*shape(worked)) / shape(w.At)))
}
