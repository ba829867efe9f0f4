package calibrate

import (
	"time"
	_ "unsafe" // go:linkname
)

// mutex_spin, format 9's figure: one round of a goroutine spinning on a
// held sync.Mutex, the runtime's own sync.runtime_doSpin (procyield of
// active_spin_cnt, 30, PAUSE instructions on amd64, YIELD on arm64). How
// long a PAUSE takes is the CPU's: about 10 cycles on older Intel cores,
// about 140 on Skylake's, and 0.71µs for 30 on the AMD EPYC the model's
// default was measured on, where this project's second machine (an Intel
// Xeon at 2.5GHz) takes 137ns. A spinner gives up after four rounds, so
// the figure decides whether it outlasts a holder's critical section or
// parks (core/gmp mutex.go), and a model timed with another CPU's spin
// pairs goroutines the real program does not. It sets the model's Spin,
// its median: a loop of instructions, which nothing makes late but the
// interruptions its batches leave out.

// doSpin is the runtime's sync.runtime_doSpin, which sync.Mutex calls to
// spin. The runtime keeps it reachable by go:linkname and its signature
// fixed for the packages that pull it (its comment, go.dev/issue/67401);
// the empty mutexspin.s lets the declaration go without a body.
//
//go:linkname doSpin sync.runtime_doSpin
func doSpin()

const (
	// spinBatch is how many rounds one sample times: a round is a few
	// hundred nanoseconds, near the clock's own cost to read.
	spinBatch = 100
	// maxSpinSamples bounds the figure's samples: 500 take under 50ms
	// on the slowest PAUSE.
	maxSpinSamples = 500
)

// mutexSpin times n batches of spinBatch rounds and returns each batch's
// time a round.
func mutexSpin(n int) []float64 {
	samples := make([]float64, 0, n)
	for range n {
		t0 := time.Now()
		for range spinBatch {
			doSpin()
		}
		samples = append(samples, float64(time.Since(t0))/spinBatch)
	}
	return samples
}
