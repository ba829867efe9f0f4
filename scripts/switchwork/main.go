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
	"path/filepath"
	"runtime"
	"slices"
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
	n := flag.Int("n", 300, "how many hops a run makes (50 to 100000)")
	probe.SetUsage("go run ./scripts/switchwork [-runs N] [-n HOPS] WORK")
	flag.Parse()
	if *n < 50 || *n > 100_000 {
		fmt.Fprintln(os.Stderr, "switchwork: -n must be from 50 to 100000")
		probe.BadUsage()
	}
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
	runtime.GOMAXPROCS(1)
	cpuwork.Calibrate()
	iters := int64(cpuwork.PerMicro() * float64(work) / float64(time.Microsecond))
	dir, err := os.MkdirTemp("", "switchwork")
	if err != nil {
		probe.Fail("switchwork", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "trace.out")
	stop, err := probe.Trace(path)
	if err != nil {
		probe.Fail("switchwork", err)
	}
	kept := pingPong(n, iters)
	stop()
	f, err := os.Open(path)
	if err != nil {
		probe.Fail("switchwork", err)
	}
	defer f.Close()
	gaps, err := calibrate.GapsOf(f, "park")
	if err != nil {
		probe.Fail("switchwork", err)
	}
	if len(gaps) <= settled {
		probe.Fail("switchwork", fmt.Errorf("the trace shows %d gaps after a park, too few to time", len(gaps)))
	}
	mean := func(v []float64) float64 {
		var sum float64
		for _, g := range v {
			sum += g
		}
		return sum / float64(len(v))
	}
	all := mean(gaps)
	sorted := slices.Sorted(slices.Values(gaps))
	return all, fmt.Sprintf("%d gaps: mean %.0fns, median %.0fns, the first three %.0f, %.0f and %.0fns, after the %dth %.0fns (checksum %d)",
		len(gaps), all, sorted[len(sorted)/2], gaps[0], gaps[1], gaps[2], settled, mean(gaps[settled:]), kept%10)
}

// pingPong makes n hops through two unbuffered channels, each side
// computing iters of cpuwork's loop before it sends, and returns the
// work's result so that it is not dropped.
func pingPong(n int, iters int64) uint64 {
	ping, pong := make(chan struct{}), make(chan struct{})
	done := make(chan uint64)
	go func() {
		var x uint64
		for range ping {
			x += cpuwork.Alone(iters)
			pong <- struct{}{}
		}
		done <- x
	}()
	var x uint64
	for range n/2 + 1 {
		ping <- struct{}{}
		x += cpuwork.Alone(iters)
		<-pong
	}
	close(ping)
	return x + <-done
}
