package gmp_test

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// The share of a contended mutex's acquisitions made by the goroutine
// that held it last, in issue 24's workload (the built-in mutex-retake:
// 8 goroutines on 2 Ps, each 100 × lock, 10µs, unlock, 10µs), with noise
// over seeds 1–10, held to the real runtime's.
//
// scripts/mutexretake measures the real share (each run a fresh process):
//
//   - with the program's threads given the CPUs (chrt -f 1, so other
//     processes cannot preempt them; the kernel then also drops their
//     timer slack), 30 runs at load 14.6: median 6.9%, range 2.1–15.0%;
//   - issue 24's quiet machine, 10 runs: median 34%, range 18–76%;
//   - on this project's busy 2-core machine at normal priority: at load
//     6.5, 10 runs, median 98.3%, range 97.9–99.0%; at load 17, 20 runs,
//     median 98.6%, range 93.0–99.1% (issue 24: 94–99% at load 13–20).
//
// The model's machine has its CPUs to itself: its share must fall within
// the real shares measured so, 2.1–76%. What makes it: a pair of
// goroutines passes the mutex back and forth by spinning (no re-take),
// and when the pair breaks, the waiter Unlock wakes sits in the
// unlocker's runnext until the other P steals it after a back-off the
// timer slack stretches, while the unlocker takes the mutex again each
// round. A busy machine's 98% comes from threads waiting for a CPU, which
// the model does not have.
func TestMutexRetakeShare(t *testing.T) {
	sc, err := scenarios.Load("mutex-retake")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 100.0, 0.0
	for seed := uint64(1); seed <= 10; seed++ {
		cfg := sc.Config()
		cfg.Seed = seed
		if !cfg.Noise {
			t.Fatal("mutex-retake runs without noise")
		}
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		if end := m.Run(); end.Reason != gmp.MainReturned {
			t.Fatalf("seed %d: %v %v", seed, end.Reason, end.Err)
		}
		st := m.Mutexes()[0].Stats
		if st.Acquired != 800 {
			t.Fatalf("seed %d: %d acquisitions, want 800", seed, st.Acquired)
		}
		share := 100 * float64(st.Retaken) / float64(st.Acquired-1)
		t.Logf("seed %d: %d of %d acquisitions by the previous holder (%.1f%%); %d spins, %d parks, %d handoffs",
			seed, st.Retaken, st.Acquired-1, share, st.Spins, st.Queued, st.Handoffs)
		lo, hi = min(lo, share), max(hi, share)
	}
	t.Logf("the model over seeds 1–10: %.1f–%.1f%%", lo, hi)
	if lo < 2.1 || hi > 76 {
		t.Errorf("the model's re-take share over seeds 1–10 is %.1f–%.1f%%, outside the real 2.1–76%%", lo, hi)
	}
}
