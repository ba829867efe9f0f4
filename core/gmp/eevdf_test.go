package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// Four call-free goroutines on 4 Ps and 2 CPUs: each CPU has two busy
// threads, which take turns. On this project's machine (Linux 6.18, whose
// fair class is EEVDF) a thread's turn ended with its base slice, at the
// first tick after it, not with CFS's share of sched_latency: a kernel
// scheduler trace of scripts/cpuslice (perf sched record) found 59 of 77
// turns from one busy thread to another 3.5-4.5ms long, 4.15ms on
// average. (cpuslice's own mean, 1.83-2.11ms over 10 runs, counts the
// brief turns of the program's other threads, which split a busy
// thread's.) The model checks a slice at the 4ms tick only, so a turn is
// one tick, 4ms; with CFS's 6ms slice it was two, 8ms, and the threads
// took turns half as often.
func TestBusyThreadsTakeTurnsOfABaseSlice(t *testing.T) {
	sc, err := scenarios.Parse("hogs.yaml", []byte("procs: 4\nmain:\n  - go: {count: 4, do: [{cpu: 200ms}]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		cfg := sc.Config()
		cfg.Seed, cfg.Noise, cfg.CPUs = seed, true, 2
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		on := map[gmp.MID]time.Duration{}
		var turns []time.Duration
		m.SetSink(func(e gmp.Event) {
			switch e.Kind {
			case gmp.KindCPUOn:
				on[e.M] = e.T.D()
			case gmp.KindCPUOff:
				if from, ok := on[e.M]; ok {
					turns = append(turns, e.T.D()-from)
					delete(on, e.M)
				}
			}
		})
		m.Run()
		if len(turns) < 20 {
			t.Fatalf("seed %d: %d turns on a CPU, want the threads to take turns", seed, len(turns))
		}
		long := 0
		for _, d := range turns {
			if d > 4*time.Millisecond {
				long++
			}
		}
		if long > len(turns)/10 {
			t.Errorf("seed %d: %d of %d turns on a CPU over one 4ms tick, want a base slice's turn, a tick (measured here: 4.15ms on average)", seed, long, len(turns))
		}
	}
}
