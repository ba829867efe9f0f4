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
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
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
	runs := flag.Int("runs", 10, "how many runs, each a fresh process")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./scripts/mutexretake [-runs N]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	if os.Getenv(runEnv) == "1" {
		share, line := once()
		fmt.Printf("%g\t%s\n", share, line)
		return
	}
	if *runs < 1 {
		fmt.Fprintln(os.Stderr, "mutexretake: -runs must be at least 1")
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutexretake:", err)
		os.Exit(1)
	}
	fmt.Printf("load before: %s\n", loadavg())
	var got []float64
	for i := range *runs {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), runEnv+"=1")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexretake: run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		value, line, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexretake: run %d printed %q\n", i+1, out)
			os.Exit(1)
		}
		fmt.Printf("run %d: %s\n", i+1, line)
		got = append(got, v)
	}
	fmt.Printf("load after: %s\n", loadavg())
	slices.Sort(got)
	fmt.Printf("re-takes by the previous holder (%%), %d runs: median %.4g, range %.4g–%.4g\n",
		len(got), median(got), got[0], got[len(got)-1])
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

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// loadavg is the first three fields of /proc/loadavg, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
