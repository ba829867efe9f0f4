// Command switchwork times the idle P a runtime trace shows from a
// goroutine's park to the next goroutine's start, as calibrate's
// traced_park_gap does, after a given amount of computing on each side:
// the switch's cost grows with the work before it, as the work takes the
// scheduler's code and data out of the CPU's caches.
//
//	go run ./scripts/switchwork 0                  # 10 runs of 300 hops
//	go run ./scripts/switchwork -runs 10 -n 1000 150us
//
// Each run is a fresh process on one P, traced into a file as schedlab
// real's programs are, making n hops of a ping-pong through unbuffered
// channels; each side computes for the duration given (cpuwork's loop,
// calibrated first) between its waits. Each run prints how many gaps its
// trace shows, their mean and median, the first three, and the mean after
// the twentieth; the summary is of the runs' means, in ns. calibrate's
// own probe computes about 13µs (docs/fidelity.md, "Switches after
// work").
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_SWITCHWORK_RUN"

// settled is how many gaps a run's later mean leaves out: the first
// switches of a fresh process are slower than the rest.
const settled = 20

// maxWork bounds the work between two hops: past it a run of the default
// 300 hops takes more than a few seconds.
const maxWork = 10 * time.Millisecond

func main() {
	runs := probe.RunsFlag()
	n := probe.SwitchesFlag("hops")
	probe.SetUsage("go run ./scripts/switchwork [-runs N] [-n HOPS] WORK")
	flag.Parse()
	probe.CheckSwitches("switchwork", *n)
	if flag.NArg() != 1 {
		probe.BadUsage()
	}
	work, err := parseWork(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "switchwork:", err)
		probe.BadUsage()
	}
	args := []string{"-n=" + strconv.Itoa(*n), work.String()}
	got := probe.Fresh("switchwork", runEnv, *runs, args, func() (float64, string) { return once(work, *n) })
	fmt.Printf("mean gap after a park, %v of work a hop (ns), %s\n", work, probe.Summarize(got))
}

// parseWork reads the work a hop computes: a Go duration, or 0.
func parseWork(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("work %q: want a duration such as 0, 10us or 1ms", s)
	}
	if d < 0 || d > maxWork {
		return 0, fmt.Errorf("work %v must be from 0 to %v", d, maxWork)
	}
	return d, nil
}

// once makes n hops computing work each on one P while the process
// traces into a file, and returns the mean park gap the trace shows, in
// ns, and the run's line.
func once(work time.Duration, n int) (float64, string) {
	cpuwork.Calibrate()
	iters := int64(cpuwork.PerMicro() * float64(work) / float64(time.Microsecond))
	return probe.TracedGaps("switchwork", "park", settled, func() { calibrate.PingPong(n, iters) })
}
