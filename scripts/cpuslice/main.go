// Command cpuslice measures how this machine's kernel shares its CPUs
// among more busy threads of one Go program than it has CPUs, the case of
// verify's scenarios with more Ps than CPUs (burst, burst-queue,
// sem-heavy, waitgroup-fanout: 4 or 8 Ps on 2 CPUs). Each run is a fresh
// process: -procs goroutines (default 4), each locked to a thread of its
// own, compute without a call for -for (default 200ms); each thread's
// /proc/self/task/TID/schedstat before and after gives its time on a CPU,
// its time runnable but waiting for one, and how many times it got one.
// The figures are, over the threads of the run, the mean time a thread ran
// each time it got a CPU (its slice) and the mean time it waited each time.
//
//	go run ./scripts/cpuslice [-runs 10] [-procs 4] [-for 200ms]
//
// The model's CPUs (core/gmp/cpus.go) give a busy thread beside another
// the CPU a tick (4ms) at a time: EEVDF's base slice, checked at the
// tick. schedstat counts every time a thread got a CPU, so the brief
// turns of the program's other threads (sysmon, waking on a busy CPU)
// split a busy thread's turn and bring the mean down to about 2ms; a
// kernel scheduler trace (perf sched record, then perf script) shows the
// turns from one busy thread to another, about 4ms on this machine. It
// prints one line a run, the load average before and after, and the
// medians.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

func main() {
	runs := probe.RunsFlag()
	procs := flag.Int("procs", 4, "busy threads (and GOMAXPROCS)")
	dur := flag.Duration("for", 200*time.Millisecond, "how long each thread computes")
	child := flag.Bool("child", false, "run one measurement (internal)")
	flag.Parse()
	if *child {
		measure(*procs, *dur)
		return
	}
	fmt.Printf("load average before: %s\n", probe.Loadavg())
	var slices, waits []float64
	for i := 1; i <= *runs; i++ {
		cmd := exec.Command(os.Args[0], "-child", "-procs", strconv.Itoa(*procs), "-for", dur.String())
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(*procs))
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "run", i, err)
			os.Exit(1)
		}
		var s, w float64
		fmt.Sscanf(string(out), "%g %g", &s, &w)
		slices, waits = append(slices, s), append(waits, w)
		fmt.Printf("run %d: slice %.2fms, wait %.2fms\n", i, s, w)
	}
	fmt.Printf("load average after: %s\n", probe.Loadavg())
	sl, wt := probe.Summarize(slices), probe.Summarize(waits)
	fmt.Printf("%d threads on %d CPUs, %d runs: slice median %.2fms (%.2f–%.2f), wait median %.2fms (%.2f–%.2f)\n",
		*procs, runtime.NumCPU(), *runs, sl.Middle, sl.Low, sl.High, wt.Middle, wt.Low, wt.High)
}

// measure runs procs call-free loops on threads of their own and prints
// the mean slice and wait per CPU turn, in ms.
func measure(procs int, dur time.Duration) {
	type stat struct{ on, wait, turns float64 }
	before, after := make([]stat, procs), make([]stat, procs)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			tid := syscall.Gettid()
			<-start
			before[i] = read(tid)
			end := time.Now().Add(dur)
			x := 1
			for time.Now().Before(end) {
				for j := 0; j < 1<<14; j++ {
					x = x*1664525 + 1013904223
				}
			}
			after[i] = read(tid)
			if x == 0 {
				fmt.Fprintln(os.Stderr, x)
			}
		}()
	}
	time.Sleep(10 * time.Millisecond)
	close(start)
	wg.Wait()
	var on, wait, turns float64
	for i := range procs {
		on += after[i].on - before[i].on
		wait += after[i].wait - before[i].wait
		turns += after[i].turns - before[i].turns
	}
	if turns == 0 {
		turns = 1
	}
	fmt.Printf("%g %g\n", on/turns/1e6, wait/turns/1e6)
}

func read(tid int) (s struct{ on, wait, turns float64 }) {
	b, err := os.ReadFile(filepath.Join("/proc/self/task", strconv.Itoa(tid), "schedstat"))
	if err != nil {
		return s
	}
	f := strings.Fields(string(b))
	if len(f) == 3 {
		s.on, _ = strconv.ParseFloat(f[0], 64)
		s.wait, _ = strconv.ParseFloat(f[1], 64)
		s.turns, _ = strconv.ParseFloat(f[2], 64)
	}
	return s
}
