package gmp

// A warm start (Config.WarmStart) is the runtime as it is when main.main
// starts, rather than the bare machine New otherwise builds. By then
// runtime.main has run the runtime's own goroutines (forcegc's helper, the
// background sweeper and scavenger, the package inits), and each go
// statement among them called wakep, so the process already has threads
// parked on the idle list, and main's P has started a few time slices.
// The goroutines themselves are parked for the whole of a short program
// (forcegc's wakes every two minutes) and the model leaves them out, so
// that the scenario's goroutines keep their numbers from G2.
//
// Measured on this project's 2-CPU Linux machine with go1.26 by
// scripts/puzzles (docs/puzzles.md has the figures): /proc/self/status
// counts 3 or 4 threads at main.main's start with GOMAXPROCS=1, 4 or 5
// with 2, 5 with 4 and 4 to 7 with 8: main's, sysmon's and one to three
// idle ones. With GOMAXPROCS=1 from the start, main.main begins in
// schedtick 6 on every run (60 of 60), read from when the 1-in-61 check
// picks main back up (go run ./scripts/puzzles schedtick).
//
// What it changes: the first wakep wakes a parked thread (Costs.WakeM)
// instead of creating one (Costs.NewM), and the fairness check's ticks
// come 5 sooner. It is off by default: every built-in's golden trace is
// of the bare start, and a run with it is another run.

// warmSchedtick is P0's schedtick when main.main starts, main's own
// slice included.
const warmSchedtick = 6

// warmIdleMs is how many idle threads the process has when main.main
// starts with procs Ps.
func warmIdleMs(procs int) int { return min(procs, 3) }

// warmStart parks the runtime's idle threads and advances P0's
// schedtick, before main starts.
func (s *Machine) warmStart() {
	for range warmIdleMs(len(s.ps)) {
		s.mput(s.newM(MIdle))
	}
	s.ps[0].Schedtick = warmSchedtick - 1
}
