package cpuwork

import "time"

// Calibrate measures the spin loop; call it once before Compute or
// PerMicro.
func Calibrate() { calibrate() }

// Compute keeps the CPU busy for about d.
func Compute(d time.Duration) { compute(d) }

// Spin runs n iterations of the loop and returns the result so far, which
// keeps the compiler from dropping the work.
func Spin(n int64) uint64 {
	sink += spin(n)
	return sink
}

// PerMicro is how many iterations of the loop take a microsecond, as
// Calibrate measured.
func PerMicro() float64 { return spinPerMicro }

// Alone runs n iterations of the loop and returns their result, with
// nothing shared touched: for goroutines that compute at the same time,
// each keeping its own result, where Spin's running total would be a
// data race.
func Alone(n int64) uint64 { return spin(n) }
