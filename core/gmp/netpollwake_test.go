package gmp

import (
	"testing"
	"time"
)

// The M blocked in epoll_wait returns NetpollWake after a read's fd is
// ready, and with noise up to NetpollJitter later, the measured spread a
// profile gives it (calibrate's netpoll_wake), not a multiple of the
// wake-up.
func TestThePollerWakesWithinItsJitter(t *testing.T) {
	prog := Program{Main: []Op{netread(time.Millisecond)}}
	k := DefaultCosts()
	k.NetpollWake, k.NetpollJitter = 26*time.Microsecond, 3*time.Microsecond
	var lates []time.Duration
	for _, noise := range []bool{false, true} {
		for seed := uint64(1); seed <= 30; seed++ {
			events, end, _ := runProg(t, Config{Procs: 1, Seed: seed, Noise: noise, Costs: k}, prog)
			if end.Reason != MainReturned {
				t.Fatalf("ended with %v", end.Reason)
			}
			var ready, back time.Duration = -1, -1
			for _, e := range events {
				switch {
				case e.Rule == RuleNetReady && ready < 0:
					ready = e.T.D()
				case e.Rule == RuleNetpollReturn && ready >= 0 && back < 0:
					back = e.T.D()
				}
			}
			if ready < 0 || back < 0 {
				t.Fatalf("seed %d: no ready fd or no poller's return", seed)
			}
			late := back - ready
			hi := k.NetpollWake
			if noise {
				hi += k.NetpollJitter
				lates = append(lates, late)
			}
			if late < k.NetpollWake || late > hi {
				t.Errorf("noise %v seed %d: the poller returned %v after the fd was ready, want %v to %v", noise, seed, late, k.NetpollWake, hi)
			}
		}
	}
	distinct := map[time.Duration]bool{}
	for _, l := range lates {
		distinct[l] = true
	}
	if len(distinct) < 5 {
		t.Errorf("with noise the poller's lateness took %d values over 30 seeds, want it drawn: %v", len(distinct), lates)
	}
}
