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
// Each run is a fresh process (the program runs itself again). It prints
// a line a run, the machine's load average before and after, and the
// median and range. The model's counterpart is the built-in scenario
// mutex-retake (core/gmp's TestMutexRetakeShare holds its range over
// seeds 1–10 with --noise).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
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
	probe.SetUsage("go run ./scripts/mutexretake [-runs N]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	if os.Getenv(runEnv) == "1" {
		probe.Report(once())
		return
	}
	probe.CheckRuns("mutexretake", *runs)
	r := probe.NewRunner("mutexretake", runEnv)
	fmt.Printf("load before: %s\n", probe.Loadavg())
	var got []float64
	for i := range *runs {
		v, line := r.Run(i+1, nil, "1")
		fmt.Printf("run %d: %s\n", i+1, line)
		got = append(got, v)
	}
	fmt.Printf("load after: %s\n", probe.Loadavg())
	fmt.Printf("re-takes by the previous holder (%%), %s\n", probe.Summarize(got).MeanMedian())
}

// once runs the workload and returns the re-take share in percent.
func once() (float64, string) {
	runtime.GOMAXPROCS(2)
	cpuwork.Calibrate()
	var (
		mu       sync.Mutex
		last     = -1
		retakes  int
		acquired int
		wg       sync.WaitGroup
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
				cpuwork.Compute(hold)
				mu.Unlock()
				cpuwork.Compute(outside)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	share := 100 * float64(retakes) / float64(acquired-1)
	return share, fmt.Sprintf("%d of %d acquisitions by the previous holder (%.1f%%) in %v",
		retakes, acquired-1, share, took.Round(10*time.Microsecond))
}
