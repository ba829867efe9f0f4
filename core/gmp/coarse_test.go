package gmp_test

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// antsStarted is the range of workers ants v2.12.1 started for the
// workload of the built-in purge-coarse (a pool of 8, 20ms expiry, 10
// rounds of 8 × 1ms of work, 8ms apart), measured on this 2-CPU machine
// under load 9.9–14.7, in 50 runs, each a fresh process:
//
//	go run ./scripts/antspurge -runs 10    # 40–71, load 14.05 → 14.68
//	go run ./scripts/antspurge -runs 20    # 38–76, load 9.87 → 10.68
//	go run ./scripts/antspurge -runs 20    # 35–78, load 14.27 → 13.77
//
// The machine was never quiet while this was measured; its fastest runs,
// which took about as long as the model's run (under 130ms), started 35–48.
const antsStartedMin, antsStartedMax = 35, 78

// ants stamps idle workers with a clock that moves every 500ms and purges
// on a ticker every expiry, so a tick stops workers used a moment ago and
// the next round starts new ones (issue 27). With the pool's coarse clock
// the model starts as many workers as ants did, on every noise seed; with
// the exact clock it keeps its 8.
func TestCoarseClockStartsAsManyWorkersAsAnts(t *testing.T) {
	sc, err := scenarios.Load("purge-coarse")
	if err != nil {
		t.Fatal(err)
	}
	started := func(seed uint64, coarse bool) int {
		prog := sc.Program()
		prog.Pools = slices.Clone(prog.Pools)
		prog.Pools[0].CoarseClock = coarse
		cfg := sc.Config()
		cfg.Seed, cfg.Noise = seed, true
		m, err := gmp.New(cfg, prog)
		if err != nil {
			t.Fatal(err)
		}
		m.Run()
		if end := m.End(); end.Err != nil {
			t.Fatalf("seed %d: %v", seed, end.Err)
		}
		return m.Pools()[0].Stats.WorkersStarted
	}
	for seed := uint64(1); seed <= 10; seed++ {
		coarse, exact := started(seed, true), started(seed, false)
		t.Logf("seed %d: %d workers started with the coarse clock, %d with the exact one", seed, coarse, exact)
		if coarse < antsStartedMin || coarse > antsStartedMax {
			t.Errorf("seed %d: the coarse clock starts %d workers, outside ants' %d–%d", seed, coarse, antsStartedMin, antsStartedMax)
		}
		if exact != 8 {
			t.Errorf("seed %d: the exact clock starts %d workers, want 8: no worker idles for 20ms", seed, exact)
		}
	}
}
