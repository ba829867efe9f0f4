// Command wakeafteridle measures how soon an idle P starts work after the
// whole program has been idle: on 2 Ps, main sleeps for -idle, then makes
// one goroutine and computes 5ms, and the figure is the time from just
// before the go statement to the goroutine's first instruction. main keeps
// its P while it computes, so the goroutine runs on the other P, whose
// thread the go statement's wakep woke; a start at 5ms or later means no
// other P took it before main's computation ended.
//
//	go run ./scripts/wakeafteridle               # 10 runs of 100 rounds, idle 8ms
//	go run ./scripts/wakeafteridle -idle 1ms     # the same after 1ms idle
//	go run ./scripts/wakeafteridle -runs 3 -rounds 200
//
// Each run is a fresh process; its line gives the start's p10, median, p90
// and maximum over the rounds and how many started more than 0.5ms late,
// and its figure is that share in percent. The series gives the machine's
// load before and after it.
//
// What it found on this project's machine (2 vCPUs, Linux 6.18): after
// 1–2ms idle, 1 round in 200 started late (median 0.1ms); after 3ms, 23%;
// after 8ms, about 74% (median 1.5ms, p90 3.3ms, never past 5ms). perf
// sched record of the 8ms series shows why: the woken thread is put in
// the run queue of the CPU it last ran on, which is main's, and waits
// there for main's thread to be switched out at a scheduler tick (every
// 4ms, HZ=250), while the other CPU is idle or, at the moment of the wake,
// runs something else for a few microseconds (sysmon, woken at the same
// timer as main; another of the program's threads; the machine's own
// processes). The model's CPUs wake such a thread on the idle CPU at
// once: docs/fidelity.md has what that does to verify's figures.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_WAKEAFTERIDLE_RUN"

const (
	prog = "wakeafteridle"
	// late is how late a start counts as late, as calibrate's
	// wake_after_idle counts it: a woken thread that gets a CPU of its own
	// starts the goroutine within about 0.1ms here.
	late = calibrate.IdleWakeLateAfter
)

func main() {
	runs := probe.RunsFlag()
	rounds := flag.Int("rounds", 100, "rounds per run: sleep, go, compute")
	idle := flag.Duration("idle", 8*time.Millisecond, "how long the program sleeps before each round's go statement")
	probe.SetUsage("wakeafteridle [-runs N] [-rounds N] [-idle D]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	probe.CheckRuns(prog, *runs)
	if *rounds < 1 || *idle < 0 || *idle > time.Second {
		fmt.Fprintf(os.Stderr, "%s: -rounds must be at least 1 and -idle between 0 and 1s\n", prog)
		os.Exit(2)
	}
	if os.Getenv(runEnv) != "" {
		measure(*rounds, *idle)
		return
	}
	shares := probe.NewRunner(prog, runEnv).Series(*runs, os.Args[1:])
	fmt.Printf("rounds started late (%%, after %v idle), %s\n", *idle, probe.Summarize(shares))
}

// measure is one run: rounds rounds after idle, reported to the parent.
func measure(rounds int, idle time.Duration) {
	runtime.GOMAXPROCS(2)
	starts := make([]time.Duration, 0, rounds)
	for range rounds {
		// calibrate's round: sleep, go, compute 5ms.
		starts = append(starts, calibrate.RoundAfterIdle(idle))
	}
	slices.Sort(starts)
	n, lates := len(starts), 0
	for _, d := range starts {
		if d > late {
			lates++
		}
	}
	share := 100 * float64(lates) / float64(n)
	probe.Report(share, fmt.Sprintf("%d rounds: start p10 %v, median %v, p90 %v, max %v; %d later than %v",
		n, us(starts[n/10]), us(starts[n/2]), us(starts[n*9/10]), us(starts[n-1]), lates, late))
}

// us rounds d to a microsecond for the line.
func us(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
