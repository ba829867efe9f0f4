// Package cpuwork is the computation behind a scenario's cpu action when it
// runs for real. realprog copies this file's declarations, from the marker
// comment on, into every generated program that computes (as source text:
// a generated program is a module of its own), and scripts/untraced calls
// them through export.go, so that "9ms of work" is the same loop, calibrated
// the same way, in both.
package cpuwork

import "time"

// The generated programs' helpers start here.

// spinPerMicro is how many spin iterations take a microsecond here.
var spinPerMicro float64

// sink keeps spin's result, so that the compiler keeps the loop.
var sink uint64

//go:noinline
func spin(n int64) uint64 {
	x := uint64(n) | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// calibrate measures spin before the trace starts.
func calibrate() { spinPerMicro = calibrateWith(time.Now) }

// calibrateWith times chunks of spin for 20ms of the clock now and
// returns how many iterations take a microsecond: the median chunk's
// speed. A chunk during which the kernel ran another thread on the CPU
// (on a shared machine, every few milliseconds) took longer than the loop
// does, and over all 20ms those pauses made the work of a cpu action run
// short; the median chunk ran undisturbed, as calibrate's cpu_work figure
// times it.
func calibrateWith(now func() time.Time) float64 {
	const chunk = 1 << 14
	var took []time.Duration
	start := now()
	for t := start; t.Sub(start) < 20*time.Millisecond; {
		sink += spin(chunk)
		next := now()
		took = append(took, next.Sub(t))
		t = next
	}
	// An insertion sort, to keep a generated program's imports as they
	// are: a thousand or so samples.
	for i := 1; i < len(took); i++ {
		for j := i; j > 0 && took[j] < took[j-1]; j-- {
			took[j], took[j-1] = took[j-1], took[j]
		}
	}
	median := took[len(took)/2]
	if median <= 0 {
		// A clock too coarse to time a chunk: the speed over them all.
		var all time.Duration
		for _, d := range took {
			all += d
		}
		median = max(all/time.Duration(len(took)), time.Nanosecond)
	}
	return chunk / (float64(median) / float64(time.Microsecond))
}

// compute keeps a CPU busy for about d in plain user code, which the
// runtime may preempt anywhere (asynchronous preemption).
func compute(d time.Duration) {
	sink += spin(int64(spinPerMicro * float64(d.Microseconds())))
}
