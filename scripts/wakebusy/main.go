// Command wakebusy measures how late this machine's kernel runs a thread
// that wakes on a CPU where another thread computes: whether the woken
// thread takes the CPU at once (wake-up preemption), or waits for the
// busy thread's slice to end at a scheduler tick, up to 4ms at HZ=250.
// The model's CPUs (core/gmp/cpus.go) let a sleeper preempt at once, and
// sysmon is such a sleeper; EEVDF, which this machine's Linux runs, also
// lets the running thread finish a slice it has just begun (RUN_TO_PARITY),
// so the figures are split by how long before the wake-up the busy thread
// got its CPU back.
//
// Each run is a fresh process: a thread pinned to each CPU computes in
// bursts of 1-6ms, with a 20µs sleep between bursts after which it is
// picked to run again; a thread pinned to CPU 0 sleeps -wakes times, for
// 0.5-3.5ms each, and counts how late each sleep ended.
//
//	go run ./scripts/wakebusy [-runs 10] [-wakes 300]
//
// It prints a line a run, the load average before and after, and the
// runs' share of wake-ups more than 1ms late: a tick's wait, where a
// wake-up that preempts is late by the timer slack alone (about 50µs).
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

const (
	prog     = "wakebusy"
	childEnv = "SCHEDLAB_WAKEBUSY_CHILD"
	// lateWait is how late a wake-up must be to have waited for a tick
	// rather than preempted: far above the timer slack, far below 4ms.
	lateWait = time.Millisecond
)

// justPicked is how soon after the busy thread got its CPU back a wake-up
// counts as inside the slice it began: the kernel's base slice, 0.75ms
// scaled by 1+log2 of the CPUs (up to 8), as Linux scales it (1.5ms on 2).
var justPicked = 750 * time.Microsecond * time.Duration(bits.Len(uint(min(runtime.NumCPU(), 8))))

func main() {
	probe.SetUsage("go run ./scripts/wakebusy [-runs N] [-wakes N]")
	runs := probe.RunsFlag()
	wakes := flag.Int("wakes", 300, "how many wake-ups each run counts")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	probe.CheckRuns(prog, *runs)
	if *wakes < 1 {
		fmt.Fprintf(os.Stderr, "%s: -wakes must be at least 1\n", prog)
		os.Exit(2)
	}
	if os.Getenv(childEnv) != "" {
		measure(*wakes)
		return
	}
	fmt.Printf("load average before: %s\n", probe.Loadavg())
	r := probe.NewRunner(prog, childEnv)
	var shares []float64
	for i := 1; i <= *runs; i++ {
		share, line := r.Run(i, []string{"-wakes", strconv.Itoa(*wakes)}, "1")
		shares = append(shares, share)
		fmt.Printf("run %d: %s\n", i, line)
	}
	fmt.Printf("load average after: %s\n", probe.Loadavg())
	s := probe.Summarize(shares)
	fmt.Printf("%d CPUs, each busy, %d runs of %d wake-ups: more than %v late in %.1f%% of them (median run; %.1f–%.1f%%)\n",
		runtime.NumCPU(), *runs, *wakes, lateWait, s.Median, s.Low, s.High)
}

// pin keeps the calling thread on cpu.
func pin(cpu int) {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		probe.Fail(prog, fmt.Errorf("pinning a thread to CPU %d: %v", cpu, err))
	}
}

// sink keeps the busy loops' results, so that the compiler keeps them.
var sink atomic.Uint64

// measure is one run: it reports the percentage of wake-ups more than
// lateWait late, and a line of medians.
func measure(wakes int) {
	cpus := runtime.NumCPU()
	runtime.GOMAXPROCS(cpus + 2)
	epoch := time.Now()
	var picked atomic.Int64 // when CPU 0's busy thread last got its CPU back
	var stop atomic.Bool
	for cpu := range cpus {
		go func() {
			runtime.LockOSThread()
			pin(cpu)
			rng := rand.New(rand.NewPCG(uint64(cpu), 1))
			pause := syscall.NsecToTimespec(int64(20 * time.Microsecond))
			x := uint64(cpu) | 1
			for !stop.Load() {
				until := time.Since(epoch) + time.Millisecond + time.Duration(rng.Int64N(int64(5*time.Millisecond)))
				for time.Since(epoch) < until {
					for range 2000 {
						x ^= x << 13
						x ^= x >> 7
						x ^= x << 17
					}
				}
				_ = syscall.Nanosleep(&pause, nil)
				if cpu == 0 {
					picked.Store(int64(time.Since(epoch)))
				}
			}
			sink.Add(x)
		}()
	}
	time.Sleep(30 * time.Millisecond) // every busy thread on its CPU
	type wake struct{ since, late time.Duration }
	got := make(chan []wake)
	go func() {
		runtime.LockOSThread()
		pin(0)
		rng := rand.New(rand.NewPCG(7, 7))
		var ws []wake
		for range wakes {
			d := 500*time.Microsecond + time.Duration(rng.Int64N(int64(3*time.Millisecond)))
			ts := syscall.NsecToTimespec(int64(d))
			t0 := time.Since(epoch)
			_ = syscall.Nanosleep(&ts, nil)
			late := time.Since(epoch) - t0 - d
			ws = append(ws, wake{since: t0 + d - time.Duration(picked.Load()), late: late})
		}
		got <- ws
	}()
	ws := <-got
	stop.Store(true)

	var all, soon, later []time.Duration
	for _, w := range ws {
		all = append(all, w.late)
		if w.since >= 0 && w.since < justPicked {
			soon = append(soon, w.late)
		} else {
			later = append(later, w.late)
		}
	}
	share := 100 * float64(countOver(all)) / float64(len(all))
	probe.Report(share, fmt.Sprintf("%s; %s within %v of the busy thread's pick; %s later",
		describe(all), describe(soon), justPicked, describe(later)))
}

func countOver(ds []time.Duration) int {
	n := 0
	for _, d := range ds {
		if d > lateWait {
			n++
		}
	}
	return n
}

// describe says how many wake-ups ds holds, how late the median one was,
// and how many were more than lateWait late.
func describe(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no wake-ups"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return fmt.Sprintf("%d wake-ups (median %v late, %d more than %v)", len(s), s[len(s)/2].Round(time.Microsecond), countOver(s), lateWait)
}
