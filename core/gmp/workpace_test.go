package gmp_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// A computation takes WorkPace times its written time: exactly without
// noise, and on average the pace times the noise's mean with it. Zero and
// 1 are the written time, and a pace no machine has is refused.
func TestWorkPaceStretchesComputations(t *testing.T) {
	endOf := func(pace float64, noise bool, seed uint64) time.Duration {
		sc := parse(t, "procs: 1\nmain: [{cpu: 10ms}]\n")
		cfg := sc.Config()
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.WorkPace = pace
		cfg.Noise, cfg.Seed = noise, seed
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		m.Run()
		return m.Now().D()
	}
	written := endOf(0, false, 1)
	if one := endOf(1, false, 1); one != written {
		t.Errorf("a pace of 1 ends at %v, the written time at %v", one, written)
	}
	if got, want := endOf(1.02, false, 1)-written, 200*time.Microsecond; got != want {
		t.Errorf("a pace of 1.02 adds %v to 10ms of work, want %v", got, want)
	}
	// With noise, over seeds, the mean is the pace times the noise's mean.
	overhead := written - 10*time.Millisecond // main's start and exit
	var sum float64
	const seeds = 200
	for seed := uint64(1); seed <= seeds; seed++ {
		sum += float64(endOf(1.01, true, seed) - overhead)
	}
	mean := sum / seeds / float64(10*time.Millisecond)
	if want := 1.01 * gmp.NoiseWorkMean(); math.Abs(mean-want) > 0.002 {
		t.Errorf("with noise, 10ms of work at a pace of 1.01 took %.4f of it on average, want %.4f", mean, want)
	}
	for _, bad := range []float64{-0.5, 2.5, math.NaN()} {
		sc := parse(t, "procs: 1\nmain: [{cpu: 1ms}]\n")
		cfg := sc.Config()
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.WorkPace = bad
		if _, err := gmp.New(cfg, sc.Program()); err == nil || !strings.Contains(err.Error(), "the work's pace") {
			t.Errorf("a pace of %v: %v", bad, err)
		}
	}
}
