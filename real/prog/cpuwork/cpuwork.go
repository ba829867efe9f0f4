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
func calibrate() {
	const chunk = 1 << 14
	start, iters := time.Now(), int64(0)
	for time.Since(start) < 20*time.Millisecond {
		sink += spin(chunk)
		iters += chunk
	}
	spinPerMicro = float64(iters) / float64(time.Since(start).Microseconds())
}

// compute keeps a CPU busy for about d in plain user code, which the
// runtime may preempt anywhere (asynchronous preemption).
func compute(d time.Duration) {
	sink += spin(int64(spinPerMicro * float64(d.Microseconds())))
}
