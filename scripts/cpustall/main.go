// Command cpustall measures how often, and for how long, a CPU busy with
// user code loses it: the timer tick and other interrupts (on a virtual
// machine, with the exits to the hypervisor they cause), and whatever else
// the OS runs there. One goroutine on each of 2 threads (GOMAXPROCS=2)
// reads the clock in a loop for -for (1s unless told); a gap over 5µs
// between two reads is a stall. Each run is a fresh process and prints the
// stalls a second on each CPU and their median, 10th and 90th percentile;
// the summary is of the stalls a second. A run's line also gives the share
// of the CPUs' time the stalls took, and how many a second were longer
// than 200µs (another thread's turn on the CPU, where the rest are
// interrupts), their share, and the longest.
//
//	go run ./scripts/cpustall                               # 10 runs
//	go build -o /tmp/cpustall ./scripts/cpustall && chrt -f 1 /tmp/cpustall
//
// Under chrt -f 1 (as root) the threads are real-time: other processes
// cannot preempt them, and what remains is the kernel's and the
// hypervisor's own. The model's noise (core/gmp noise.go) stalls
// computations at the rate and length measured so.
package main

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_CPUSTALL_RUN"

// minStall is the shortest gap counted: a clock read and the loop take
// well under a microsecond, so longer gaps are time the thread did not
// run.
const minStall = 5 * time.Microsecond

func main() {
	runs := probe.RunsFlag()
	length := flag.Duration("for", time.Second, "how long each run reads the clock")
	probe.SetUsage("go run ./scripts/cpustall [-runs N] [-for D]")
	flag.Parse()
	if flag.NArg() != 0 || *length <= 0 || *length > time.Minute {
		probe.BadUsage()
	}
	got := probe.Fresh("cpustall", runEnv, *runs, []string{"-for", length.String()}, func() (float64, string) { return once(*length) })
	fmt.Printf("stalls a second on each CPU, %s\n", probe.Summarize(got).MeanMedian())
}

// once reads the clock on two threads for d and returns the stalls a
// second on each.
func once(d time.Duration) (float64, string) {
	const cpus = 2
	runtime.GOMAXPROCS(cpus)
	done := make(chan []time.Duration, cpus)
	for range cpus {
		go func() {
			runtime.LockOSThread()
			var stalls []time.Duration
			start := time.Now()
			last := start
			for last.Sub(start) < d {
				now := time.Now()
				if gap := now.Sub(last); gap > minStall {
					stalls = append(stalls, gap)
				}
				last = now
			}
			done <- stalls
		}()
	}
	var all []time.Duration
	for range cpus {
		all = append(all, <-done...)
	}
	rate := float64(len(all)) / cpus / d.Seconds()
	if len(all) == 0 {
		return rate, "no stalls over " + minStall.String()
	}
	slices.Sort(all)
	at := func(q float64) time.Duration { return all[int(q*float64(len(all)-1))].Round(100 * time.Nanosecond) }
	var lost, longLost time.Duration
	long := 0
	for _, g := range all {
		lost += g
		if g > longStall {
			long++
			longLost += g
		}
	}
	share := func(t time.Duration) float64 { return 100 * float64(t) / float64(cpus*d) }
	return rate, fmt.Sprintf("%.0f stalls a second on each CPU, median %v (p10 %v, p90 %v); %.2f%% of the CPUs' time lost; %.1f a second over %v, %.2f%% lost, the longest %v",
		rate, at(0.5), at(0.1), at(0.9), share(lost), float64(long)/cpus/d.Seconds(), longStall, share(longLost), all[len(all)-1].Round(time.Microsecond))
}

// longStall is where a stall is counted long too: past the kernel's
// interrupts, a time slice the OS gave another thread on the CPU.
const longStall = 200 * time.Microsecond
