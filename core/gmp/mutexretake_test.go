package gmp_test

import (
	"slices"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// The share of a contended mutex's acquisitions made by the goroutine
// that held it last, in issue 24's workload (the built-in mutex-retake:
// 8 goroutines on 2 Ps, each 100 × lock, 10µs, unlock, 10µs), with noise
// over seeds 1–10, held to the real runtime's.
//
// scripts/mutexretake measures the real share (each run a fresh process)
// on this project's 2-CPU AMD EPYC virtual machine:
//
//   - quiet (load average 0.5-0.8), 90 runs in four series: medians 16.2%
//     (30 runs), 20.5% (10), 23.4% (30) and 24.3% (20), the runs ranging
//     from 5.8% to 98.8%; issue 24's quiet machine, 10 runs: median 34%,
//     range 18-76%. A series at a load average of 1.8 (30 runs) had a
//     median of 65.2%, range 6.3-98%: a little load already moves it;
//   - with the program's threads given the CPUs (chrt -f 1, so that other
//     processes cannot preempt them, and the kernel drops their timer
//     slack), 30 runs: median 6.0–6.9%, range 1.9–16.5%;
//   - busy (load 6–17): median about 98%, range 93–99%.
//
// What makes a re-take: two goroutines, one on each P, pass the mutex back
// and forth by spinning (no re-take) until a stall of the holder's CPU
// (noise.go: the tick and other interrupts, 14µs about every 2.9ms,
// measured by scripts/cpustall) outlasts the other's four spinning rounds.
// The spinner parks, its P goes idle, and the holder takes the mutex again
// each round until the idle P steals the waiter Unlock woke into the
// holder's runnext (runqgrab's usleep(3), 68–88µs with the timer slack
// and the thread's wake-up).
// Without the stalls the model's pairs broke only when a goroutine ended,
// and its share was 7.6–17.8% (median 12.6%), under the real quiet one.
// A busy machine's 98% comes from threads waiting for a CPU, which the
// model does not have.
//
// The model's median must fall among the real quiet series' medians
// (16.2–34%) and each seed within the quiet runs' range (5.8–98.8%).
func TestMutexRetakeShare(t *testing.T) {
	shares := retakeShares(t, gmp.DefaultCosts())
	median := (shares[4] + shares[5]) / 2
	lo, hi := shares[0], shares[9]
	t.Logf("the model over seeds 1–10: median %.1f%%, range %.1f–%.1f%%", median, lo, hi)
	if median < 16.2 || median > 34 {
		t.Errorf("the model's median re-take share over seeds 1–10 is %.1f%%, outside the real quiet medians 16.2–34%%", median)
	}
	if lo < 5.8 || hi > 98.8 {
		t.Errorf("the model's re-take share over seeds 1–10 is %.1f–%.1f%%, outside the real quiet 5.8–98.8%%", lo, hi)
	}
}

// retakeShares runs mutex-retake, with its noise, over seeds 1–10 with
// costs, and returns each seed's share of the acquisitions, after the
// first, made by the previous holder, in ascending order.
func retakeShares(t *testing.T, costs gmp.Costs) []float64 {
	t.Helper()
	sc, err := scenarios.Load("mutex-retake")
	if err != nil {
		t.Fatal(err)
	}
	var shares []float64
	for seed := uint64(1); seed <= 10; seed++ {
		cfg := sc.Config()
		cfg.Seed = seed
		cfg.Costs = costs
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
		shares = append(shares, share)
	}
	slices.Sort(shares)
	return shares
}

// A round of spinning is thirty PAUSE instructions, and how long a PAUSE
// takes is the CPU's: 0.71µs a round on the AMD EPYC the test above was
// measured on, 137ns on an Intel Xeon at 2.5GHz (calibrate's mutex_spin,
// 500 samples, p10 to p90 137–196ns). A spinner gives up after four
// rounds, so on the Xeon it gives up before the holder's 10µs of work
// outside is over, parks, and the holder takes the mutex again more
// often: go run ./scripts/mutexretake on the Xeon, quiet (load 1.0–1.2),
// gave medians of 40.6%, 37.2% and 39.7% in three series of ten runs,
// from 11.8% to 97.4% in all, where the EPYC's quiet medians were
// 16.2–34%. With the Xeon's spin the model's median must rise above the
// EPYC's medians, and each seed stay within the Xeon's runs. It comes
// out at 46%, above the Xeon's medians by 6 points: the shift is the
// spin's, the rest of the model was measured on the EPYC.
func TestMutexRetakeShareFollowsTheSpin(t *testing.T) {
	costs := gmp.DefaultCosts()
	costs.Spin = 137 * time.Nanosecond
	shares := retakeShares(t, costs)
	median := (shares[4] + shares[5]) / 2
	t.Logf("the model with a 137ns spin over seeds 1–10: median %.1f%%, range %.1f–%.1f%%", median, shares[0], shares[9])
	if median <= 34 {
		t.Errorf("with the Xeon's spin the model's median re-take share is %.1f%%, not above the EPYC's real medians (16.2–34%%)", median)
	}
	if shares[0] < 11.8 || shares[9] > 97.4 {
		t.Errorf("with the Xeon's spin the model's re-take share is %.1f–%.1f%%, outside the Xeon's real 11.8–97.4%%", shares[0], shares[9])
	}
}
