package gmp

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// A steal of a running P's runnext after runqgrab's usleep(3) says how long
// the thief slept: the wait it was put to sleep for, not another draw.
// With noise every usleep is late by a different amount, so a second draw
// would name a wait that never happened; the thief's previous event is the
// moment it went to sleep, less the schedule's own small costs.
func TestRunnextStealSaysTheBackoffItSlept(t *testing.T) {
	prog := mainOnly(goN(1, cpu(time.Millisecond)), cpu(5*time.Millisecond), waitKids())
	checked := 0
	for seed := uint64(1); seed <= 20; seed++ {
		events, _, _ := runProg(t, Config{Procs: 2, Seed: seed, Noise: true}, prog)
		lastOfM := map[MID]sim.Time{}
		for _, e := range events {
			if e.Rule == RuleRunqstealNext && e.BackedOff() {
				slept := time.Duration(e.T - lastOfM[e.M])
				if e.Backoff() > slept || slept-e.Backoff() > time.Microsecond {
					t.Fatalf("seed %d: %v's steal says a back-off of %v, but it slept %v since its last event", seed, e.M, e.Backoff(), slept)
				}
				checked++
			}
			if e.M != NoM {
				lastOfM[e.M] = e.T
			}
		}
	}
	if checked == 0 {
		t.Fatal("no steal after a back-off in 20 seeds: the program no longer makes one")
	}
}
