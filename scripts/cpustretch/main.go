// Command cpustretch measures how much longer than written a scenario's cpu
// action runs on the real runtime: the loop the generated programs run
// (real/prog/cpuwork), calibrated as they calibrate it, then timed with the
// clock for actions of 10µs, 100µs, 1ms and 9ms, 100ms of each, on one P,
// under runtime/trace as verify's real runs are (-traced=false: without).
// Each run is a fresh process, calibrated afresh, and prints the mean
// stretch of each length (the time taken over the time written, less one,
// every interruption included) and, in brackets, the median one (the
// interruptions left out). The summary is of each run's mean stretch over
// all four lengths.
//
// With -beside, a second goroutine computes on a second P throughout the
// timing (not the calibration, which a generated program runs alone), so
// that both CPUs of a 2-CPU machine are busy, as in a scenario whose
// goroutines compute on two Ps at once.
//
//	go run ./scripts/cpustretch            # 10 runs
//	go run ./scripts/cpustretch -beside    # with the other CPU busy
//
// The model's noise (core/gmp noise.go) stretches a computation by a
// uniform share and stalls it now and then; docs/fidelity.md (Noise) sets
// its mean beside what this measures.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_CPUSTRETCH_RUN"

// lengths are the cpu actions timed, each over a total of each.
var lengths = []time.Duration{10 * time.Microsecond, 100 * time.Microsecond, time.Millisecond, 9 * time.Millisecond}

const each = 100 * time.Millisecond

func main() {
	runs := probe.RunsFlag()
	traced := flag.Bool("traced", true, "time the actions under runtime/trace, as verify's real runs run")
	beside := flag.Bool("beside", false, "compute on a second P meanwhile")
	probe.SetUsage("go run ./scripts/cpustretch [-runs N] [-traced=false] [-beside]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	args := []string{fmt.Sprintf("-traced=%v", *traced), fmt.Sprintf("-beside=%v", *beside)}
	got := probe.Fresh("cpustretch", runEnv, *runs, args, func() (float64, string) {
		v, line, err := once(*traced, *beside)
		if err != nil {
			probe.Fail("cpustretch", err)
		}
		return v, line
	})
	fmt.Printf("mean stretch of a cpu action, %% over all four lengths: %s\n", probe.Summarize(got).MeanMedian())
}

// once calibrates, times the four lengths, beside a second P's
// computing if beside, and returns the mean stretch over all of them, in
// per cent.
func once(traced, beside bool) (float64, string, error) {
	runtime.GOMAXPROCS(1)
	cpuwork.Calibrate()
	if beside {
		runtime.GOMAXPROCS(2)
		var stop atomic.Bool
		defer stop.Store(true)
		go func() {
			for !stop.Load() {
				cpuwork.Compute(time.Millisecond)
			}
		}()
	}
	if traced {
		dir, err := os.MkdirTemp("", "cpustretch")
		if err != nil {
			return 0, "", err
		}
		defer os.RemoveAll(dir)
		stop, err := probe.Trace(filepath.Join(dir, "trace.out"))
		if err != nil {
			return 0, "", err
		}
		defer stop()
	}
	var parts []string
	var took, written time.Duration
	for _, d := range lengths {
		var times []time.Duration
		var sum time.Duration
		for range int(each / d) {
			t := time.Now()
			cpuwork.Compute(d)
			dt := time.Since(t)
			times = append(times, dt)
			sum += dt
		}
		slices.Sort(times)
		n := time.Duration(len(times))
		parts = append(parts, fmt.Sprintf("%v %+.2f%% (%+.2f%%)", d, stretch(sum, n*d), stretch(times[len(times)/2], d)))
		took += sum
		written += n * d
	}
	all := stretch(took, written)
	return all, fmt.Sprintf("%+.2f%%: %s", all, strings.Join(parts, ", ")), nil
}

// stretch is how much longer than d took is, in per cent.
func stretch(took, d time.Duration) float64 {
	return 100 * (float64(took)/float64(d) - 1)
}
