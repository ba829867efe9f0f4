package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// With noise, a computation is stalled by the CPU's interrupts once every
// 2.9ms of it on average, for 14µs (noise.go), on top of the stretch of up
// to 4%. The stalls are what break a contended mutex's spinning pairs
// (TestMutexRetakeShare). One goroutine locks an uncontended mutex, works
// 10µs and unlocks, 1000 times: the time between two Locks is the work,
// stretched by at most 0.4µs, and the two calls' costs, or that and one
// stall; about one round in 290 is stalled, and without noise none.
func TestComputeStalls(t *testing.T) {
	const src = `procs: 1
mutexes: [mu]
main:
  - loop:
      times: 1000
      do: [{lock: mu}, {cpu: 10us}, {unlock: mu}]
`
	const (
		work  = 10 * time.Microsecond
		calls = 2 * 100 * time.Nanosecond // ChanOp after Lock and after Unlock
		plain = work + work/25 + calls    // the longest round without a stall
		stall = 14 * time.Microsecond
	)
	stalled := func(seed uint64, noise bool) int {
		n := 0
		var last time.Duration = -1
		runEach(t, src, seed, noise, func(e *gmp.Event) {
			if e.Kind != gmp.KindMutexLock {
				return
			}
			at := time.Duration(e.T)
			if last >= 0 {
				switch round := at - last; {
				case round <= plain:
				case round >= work+calls+stall && round <= plain+stall:
					n++
				default:
					t.Errorf("seed %d: a round took %v: neither %v at most nor one %v stall more", seed, round, plain, stall)
				}
			}
			last = at
		})
		return n
	}
	total := 0
	for seed := uint64(1); seed <= 5; seed++ {
		if n := stalled(seed, false); n != 0 {
			t.Errorf("seed %d without noise: %d rounds stalled", seed, n)
		}
		total += stalled(seed, true)
	}
	t.Logf("%d rounds of 5 × 999 stalled", total)
	// 5 × 999 rounds of 10µs, a stall every 2.9ms: about 17.
	if total < 5 || total > 35 {
		t.Errorf("%d rounds stalled over 5 seeds, want about 17", total)
	}
}
