package bench

import (
	"math"
	"sync/atomic"
	"time"
)

// calibrationTime is how long Calibrate spins: long enough that the clock's
// resolution and one preemption do not matter, short enough to go unnoticed.
const calibrationTime = 50 * time.Millisecond

// spinSink keeps spin's result: a call whose result is dropped could be
// removed, and with it the work a CPU task stands for.
var spinSink atomic.Uint64

// spin runs n iterations of a xorshift generator. It touches no memory, so
// it costs the same in every mode and under the race detector, and its
// result depends on every iteration, so the compiler cannot drop any.
//
//go:noinline
func spin(n int64) uint64 {
	x := uint64(n) | 1
	for i := int64(0); i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// Calibrate measures how many spin iterations this machine runs per
// microsecond on one goroutine, spinning for about d. Call it while the
// machine is otherwise idle: the figure fixes the work of every CPU task.
func Calibrate(d time.Duration) float64 {
	const chunk = 1 << 14
	var iters int64
	start := time.Now()
	elapsed := time.Duration(0)
	for elapsed < d {
		spinSink.Store(spin(chunk))
		iters += chunk
		elapsed = time.Since(start)
	}
	return float64(iters) / (float64(elapsed) / float64(time.Microsecond))
}

// spinIterations is the number of iterations that take d at perMicro
// iterations per microsecond, at least 1.
func spinIterations(perMicro float64, d time.Duration) int64 {
	n := math.Round(perMicro * float64(d) / float64(time.Microsecond))
	if n < 1 {
		return 1
	}
	return int64(n)
}
