// Command mutexretake measures, on the real runtime, how often a contended
// sync.Mutex is taken again by the goroutine that held it last: 8
// goroutines on GOMAXPROCS=2, each 100 times Lock, 10µs of work, Unlock,
// 10µs of work (issue 24's workload). The figure is the share of the
// acquisitions, after the first, made by the previous holder; each
// goroutine reads, under the lock, who took it before.
//
//	go run ./scripts/mutexretake            # 10 runs
//	go run ./scripts/mutexretake -runs 20
//
//	go run ./scripts/mutexretake -detail    # and where the re-takes were
//
// Each run is a fresh process (the program runs itself again). It prints
// a line a run, the machine's load average before and after, and the
// median and range. With -detail each run's line also gives the share
// before the first goroutine finished its rounds (while all eight
// contend) and that stretch's streaks: runs of acquisitions by one
// goroutine, with their length and when they began. A streak of about 5
// is one Unlock's waiter sitting in the unlocker's runnext until the
// idle P steals it after runqgrab's usleep(3); much longer ones mean the
// other P's thread did not run at all. The model's counterpart is the built-in scenario
// mutex-retake (core/gmp's TestMutexRetakeShare holds its range over
// seeds 1–10 with --noise).
package main

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process that runs the workload once.
const runEnv = "SCHEDLAB_MUTEXRETAKE_RUN"

const (
	goroutines = 8
	rounds     = 100
	hold       = 10 * time.Microsecond
	outside    = 10 * time.Microsecond
)

func main() {
	runs := probe.RunsFlag()
	detail := flag.Bool("detail", false, "also print the share while all goroutines contend, and its streaks")
	probe.SetUsage("go run ./scripts/mutexretake [-runs N] [-detail]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	var args []string
	if *detail {
		args = []string{"-detail"}
	}
	got := probe.Fresh("mutexretake", runEnv, *runs, args, func() (float64, string) { return once(*detail) })
	fmt.Printf("re-takes by the previous holder (%%), %s\n", probe.Summarize(got).MeanMedian())
}

// once runs the workload and returns the re-take share in percent.
func once(detail bool) (float64, string) {
	runtime.GOMAXPROCS(2)
	cpuwork.Calibrate()
	var (
		mu       sync.Mutex
		last     = -1
		retakes  int
		acquired int
		wg       sync.WaitGroup
		// Who took the mutex and when, in order; written under it.
		holders = make([]int, 0, goroutines*rounds)
		at      = make([]time.Duration, 0, goroutines*rounds)
	)
	start := time.Now()
	for id := range goroutines {
		wg.Go(func() {
			for range rounds {
				mu.Lock()
				if last == id {
					retakes++
				}
				last = id
				acquired++
				if detail {
					holders = append(holders, id)
					at = append(at, time.Since(start))
				}
				cpuwork.Compute(hold)
				mu.Unlock()
				cpuwork.Compute(outside)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	share := 100 * float64(retakes) / float64(acquired-1)
	line := fmt.Sprintf("%d of %d acquisitions by the previous holder (%.1f%%) in %v",
		retakes, acquired-1, share, took.Round(10*time.Microsecond))
	if detail {
		line += "; " + contended(holders, at)
	}
	return share, line
}

// contended sums up the acquisitions made while every goroutine was still
// running (before the first finished its rounds: after that, a P can run
// out of goroutines and the last ones re-take for want of rivals): how
// many were re-takes, and the streaks of two or more acquisitions by one
// goroutine, each as length@start.
func contended(holders []int, at []time.Duration) string {
	count := make(map[int]int)
	end := len(holders)
	for i, h := range holders {
		count[h]++
		if count[h] == rounds {
			end = i + 1
			break
		}
	}
	retakes := 0
	var streaks []string
	for i := 1; i <= end; i++ {
		if i < end && holders[i] == holders[i-1] {
			retakes++
			continue
		}
		n := 1
		for n < i && holders[i-1-n] == holders[i-1] {
			n++
		}
		if n >= 2 {
			streaks = append(streaks, fmt.Sprintf("%d@%.2fms", n, float64(at[i-n])/float64(time.Millisecond)))
		}
	}
	share := 0.0
	if end > 1 {
		share = 100 * float64(retakes) / float64(end-1)
	}
	return fmt.Sprintf("while all contend: %d of %d (%.1f%%), streaks [%s]", retakes, max(end-1, 0), share, strings.Join(streaks, " "))
}
