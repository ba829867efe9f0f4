package gmp

import (
	"fmt"
	"math"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Some kernels pack woken threads onto a busy CPU on purpose. Upstream
// Linux puts a thread that a thread on another CPU wakes on an idle CPU
// when there is one (select_idle_sibling), its last one first. The kernel
// of this project's machine, a virtual machine's guest booted with
// sched_vcpu_pack, often puts it beside its waker instead, so that the
// other virtual CPU can stay idle: scripts/vcpupack measures how often,
// by where the thread last ran, how long it slept and how busy the
// waker's CPU is (docs/fidelity.md, "Room on the waker's CPU", has the
// figures). A CPU with room draws the threads its threads wake, wherever
// they last ran and however long they slept; a CPU busy three quarters
// of the time or more draws none, and the chance falls from nearly all
// to none between 60 and 75%. This is how a program's threads come to
// crowd onto one CPU while the other idles. The kernel's measure of room is the CPU's utilisation, an
// average of the time it ran something that decays by half every 32ms
// (PELT's util_avg), which the CPU model keeps for each CPU when a
// WakePack is set (cpuRQ.util).
//
// A WakePack holds such a measurement, which schedlab calibrate takes
// (wake_pack). With one, a thread that a running thread wakes (a futex
// wake-up: startm, netpollBreak) is put on the waker's CPU with the
// table's chance, drawn at the wake-up, where Linux places it
// (try_to_wake_up, while the waker is still on its CPU), and otherwise on
// an idle CPU, its last one first. The zero WakePack packs nothing and
// draws nothing: the defaults, and every run without a profile, place as
// upstream Linux does.

// Rows and columns of a WakePack: the waker's CPU's utilisation and the
// woken thread's sleep.
const (
	WakePackUtils  = 3
	WakePackSleeps = 3
)

// WakePack is the chance that the kernel puts a woken thread on its
// waker's CPU, by the utilisation of that CPU (Utils, ascending, from 0 to
// 1) and the time the thread slept (Sleeps, ascending): Beside for a thread
// that last ran on the waker's CPU, Away for one that last ran on another.
// Between the points the chance is interpolated linearly; beyond them it
// is the nearest point's.
type WakePack struct {
	Utils        [WakePackUtils]float64
	Sleeps       [WakePackSleeps]time.Duration
	Beside, Away [WakePackUtils][WakePackSleeps]float64
}

// set says whether w holds a measurement.
func (w *WakePack) set() bool { return *w != WakePack{} }

// validate says what is wrong with w, if anything.
func (w *WakePack) validate() error {
	if !w.set() {
		return nil
	}
	for i, u := range w.Utils {
		if !(u > 0 && u <= 1) || i > 0 && u <= w.Utils[i-1] {
			return fmt.Errorf("wake pack: the utilisations must rise within (0, 1], got %v", w.Utils)
		}
	}
	for j, d := range w.Sleeps {
		if d <= 0 || j > 0 && d <= w.Sleeps[j-1] {
			return fmt.Errorf("wake pack: the sleeps must be positive and rise, got %v", w.Sleeps)
		}
	}
	for _, tab := range [...]*[WakePackUtils][WakePackSleeps]float64{&w.Beside, &w.Away} {
		for _, row := range tab {
			for _, p := range row {
				if !(p >= 0 && p <= 1) {
					return fmt.Errorf("wake pack: a chance must be from 0 to 1, got %v", p)
				}
			}
		}
	}
	return nil
}

// chance is the chance that a thread asleep for slept, which last ran on
// the waker's CPU if beside, is put on that CPU when its utilisation is
// util.
func (w *WakePack) chance(beside bool, util float64, slept time.Duration) float64 {
	tab := &w.Away
	if beside {
		tab = &w.Beside
	}
	var sleeps [WakePackSleeps]float64
	var col [WakePackUtils]float64
	for j, d := range w.Sleeps {
		sleeps[j] = float64(d)
	}
	for i := range col {
		col[i] = between(float64(slept), sleeps[:], tab[i][:])
	}
	return between(util, w.Utils[:], col[:])
}

// between interpolates ys at x along xs (ascending), flat beyond the ends.
func between(x float64, xs, ys []float64) float64 {
	if x <= xs[0] {
		return ys[0]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			f := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + float64(f*(ys[i]-ys[i-1]))
		}
	}
	return ys[len(ys)-1]
}

// utilHalfLife is how long a CPU's utilisation takes to fall by half
// while it idles, or to rise halfway to full while it runs: PELT's
// 32 periods of 1024µs, taken as 32ms.
const utilHalfLife = 32 * time.Millisecond

// touchUtil brings CPU q's utilisation up to now, from what it ran since
// it was last brought up to date. The conversions keep each product
// rounded, so that no machine fuses them and a run stays the same
// everywhere.
func (q *cpuRQ) touchUtil(now sim.Time) {
	dt := now.Sub(q.utilAt)
	if dt <= 0 {
		return
	}
	keep := math.Exp2(-float64(dt) / float64(utilHalfLife))
	busy := 0.0
	if q.curr != cpuIdle {
		busy = 1
	}
	q.util = float64(q.util*keep) + float64(busy*(1-keep))
	q.utilAt = now
}
