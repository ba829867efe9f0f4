// Command firstwake measures the first wake-up on 4 Ps: main creates 16
// goroutines (each computes 1ms) and then computes 5ms itself, and the
// figure is the time from just before the first go statement to the first
// child's first instruction. main keeps its P, so that child runs on a P
// another thread had to be woken for (wakep) and had to steal from.
//
//	go run ./scripts/firstwake                 # 10 runs, each a fresh process
//	go run ./scripts/firstwake -runs 20 -warm  # idle threads made first
//	go run ./scripts/firstwake -trace          # split the wake-up with runtime/trace
//	go run ./scripts/firstwake -pipewake       # a parked thread's wake-up, after 20ms idle and hot
//
// It also counts the threads the process has when main.main starts
// (/proc/self/task), to see whether the runtime has idle threads to wake
// there or must create one. -warm first runs 8 goroutines on every P and
// sleeps 20ms, so that threads exist, parked, before the measurement.
// -trace writes a runtime trace of the measurement and splits the figure at
// the moment the woken thread takes its P (its ProcStart): before it, the
// thread's wake-up or creation, and the OS getting it a CPU; after it,
// the thief's search and steal.
//
// -pipewake measures instead what waking one parked thread costs here: a
// thread blocked reading a pipe is woken by a write, 40 times after 20ms
// of quiet (its CPU idle meanwhile, as the runtime's idle threads are at
// the first go statement) and 40 times back to back; the figure is the
// median of the quiet ones, and the line gives both medians.
//
// It prints one line a run, the machine's load (/proc/loadavg) before and
// after the series, and the median and range.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	_ "unsafe" // procPin

	xtrace "golang.org/x/exp/trace"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_FIRSTWAKE_RUN"

// threadsAtStart is how many threads the process had when main.main
// began, read before anything else.
var threadsAtStart = countThreads()

func main() {
	runs := probe.RunsFlag()
	warm := flag.Bool("warm", false, "run goroutines on every P and sleep 20ms before measuring, so that idle threads exist")
	traced := flag.Bool("trace", false, "trace the measurement and split it at the woken thread's ProcStart")
	pipeWake := flag.Bool("pipewake", false, "measure a parked thread's wake-up through a pipe instead")
	probe.SetUsage("go run ./scripts/firstwake [-runs N] [-warm] [-trace] | [-runs N] -pipewake")
	flag.Parse()
	if flag.NArg() != 0 || *runs < 1 || (*pipeWake && (*warm || *traced)) {
		probe.BadUsage()
	}
	if os.Getenv(runEnv) != "" {
		run := func() (float64, string, error) { return runOnce(*warm, os.Getenv(runEnv)) }
		if *pipeWake {
			run = pipeWakes
		}
		v, line, err := run()
		if err != nil {
			probe.Fail("firstwake", err)
		}
		probe.Report(v, line)
		return
	}
	r := probe.NewRunner("firstwake", runEnv)
	dir, err := os.MkdirTemp("", "firstwake")
	if err != nil {
		probe.Fail("firstwake", err)
	}
	defer os.RemoveAll(dir)
	fmt.Printf("load before: %s\n", probe.Loadavg())
	var got []float64
	for i := range *runs {
		out := "-" // no trace
		if *traced {
			out = fmt.Sprintf("%s/run%d.trace", dir, i+1)
		}
		v, line := r.Run(i+1, os.Args[1:], out)
		if *traced {
			split, err := splitTrace(out)
			if err != nil {
				probe.Fail("firstwake", fmt.Errorf("run %d: %v", i+1, err))
			}
			line += "; traced: " + split
		}
		fmt.Printf("run %d: %s\n", i+1, line)
		got = append(got, v)
	}
	fmt.Printf("load after: %s\n", probe.Loadavg())
	what := "first wake-up on 4 Ps (µs)"
	if *pipeWake {
		what = "a parked thread's wake-up after 20ms idle (µs, median of 40)"
	}
	fmt.Printf("%s, %s\n", what, probe.Summarize(got))
}

// countThreads is how many threads the process has, or -1.
func countThreads() int {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return -1
	}
	return len(entries)
}

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// currentP is the id of the P the calling goroutine runs on.
func currentP() int {
	p := procPin()
	procUnpin()
	return p
}

// spin computes for d, in user code the runtime may preempt anywhere.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// runOnce measures once; traceFile is where to write the trace, or "-".
func runOnce(warm bool, traceFile string) (float64, string, error) {
	runtime.GOMAXPROCS(4)
	if warm {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { spin(time.Millisecond) })
		}
		wg.Wait()
		time.Sleep(20 * time.Millisecond)
	}
	threads := countThreads()
	if traceFile != "-" {
		f, err := os.Create(traceFile)
		if err != nil {
			return 0, "", err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return 0, "", err
		}
		defer trace.Stop()
		// Let the tracer's own start-up settle, as the measured
		// program's threads would be at rest.
		time.Sleep(20 * time.Millisecond)
		trace.Log(context.Background(), "firstwake", "go")
	}
	mainP, mainCPU := currentP(), currentCPU()
	var (
		wg       sync.WaitGroup
		first    atomic.Int64 // nanoseconds from t0, +1 so that 0 means not yet
		firstP   atomic.Int64
		firstCPU atomic.Int64
	)
	t0 := time.Now()
	for range 16 {
		wg.Add(1)
		go func() {
			if first.CompareAndSwap(0, int64(time.Since(t0))+1) {
				firstP.Store(int64(currentP()))
				firstCPU.Store(int64(currentCPU()))
			}
			spin(time.Millisecond)
			wg.Done()
		}()
	}
	spin(5 * time.Millisecond)
	wg.Wait()
	us := float64(first.Load()-1) / 1e3
	return us, fmt.Sprintf("first child after %.1fµs on P%d, CPU %d (main on P%d, CPU %d); %d threads at main.main, %d before the first go",
		us, firstP.Load(), firstCPU.Load(), mainP, mainCPU, threadsAtStart, threads), nil
}

// splitTrace reads a run's trace: from the log before the first go
// statement to the first ProcStart on another P (the woken thread taking
// its P), and from there to the first child's start.
func splitTrace(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := xtrace.NewReader(f)
	if err != nil {
		return "", err
	}
	var t0, procStart, childStart xtrace.Time
	mainProc := xtrace.NoProc
	mainG := xtrace.NoGoroutine
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		switch {
		case t0 == 0:
			if ev.Kind() == xtrace.EventLog && ev.Log().Category == "firstwake" {
				t0, mainProc, mainG = ev.Time(), ev.Proc(), ev.Goroutine()
			}
		case ev.Kind() == xtrace.EventStateTransition:
			st := ev.StateTransition()
			switch st.Resource.Kind {
			case xtrace.ResourceProc:
				if _, to := st.Proc(); procStart == 0 && to == xtrace.ProcRunning && st.Resource.Proc() != mainProc {
					procStart = ev.Time()
				}
			case xtrace.ResourceGoroutine:
				if _, to := st.Goroutine(); childStart == 0 && to == xtrace.GoRunning && st.Resource.Goroutine() != mainG {
					childStart = ev.Time()
				}
			}
		}
	}
	if t0 == 0 || procStart == 0 || childStart == 0 {
		return "", fmt.Errorf("%s: no log, ProcStart or child start after the first go", file)
	}
	return fmt.Sprintf("go → another P's ProcStart %.1fµs, → first child %.1fµs",
		float64(procStart-t0)/1e3, float64(childStart-t0)/1e3), nil
}

// pipeWakes wakes a thread blocked reading a pipe, 40 times after 20ms of
// quiet and 40 times back to back, and returns the quiet median (µs). The
// reader holds its thread (LockOSThread) and answers each byte on a second
// pipe, so the writer never writes before the reader is back in read.
func pipeWakes() (float64, string, error) {
	var to, back [2]int
	if err := syscall.Pipe(to[:]); err != nil {
		return 0, "", err
	}
	if err := syscall.Pipe(back[:]); err != nil {
		return 0, "", err
	}
	const n = 40
	woke := make([]time.Time, 2*n)
	go func() {
		runtime.LockOSThread()
		var b [1]byte
		for i := range woke {
			if _, err := syscall.Read(to[0], b[:]); err != nil {
				return
			}
			woke[i] = time.Now()
			syscall.Write(back[1], b[:])
		}
	}()
	var b [1]byte
	quiet := make([]float64, 0, n)
	hot := make([]float64, 0, n)
	for i := range woke {
		if i < n {
			time.Sleep(20 * time.Millisecond)
		}
		t := time.Now()
		if _, err := syscall.Write(to[1], b[:]); err != nil {
			return 0, "", err
		}
		if _, err := syscall.Read(back[0], b[:]); err != nil {
			return 0, "", err
		}
		d := float64(woke[i].Sub(t)) / 1e3
		if i < n {
			quiet = append(quiet, d)
		} else {
			hot = append(hot, d)
		}
	}
	slices.Sort(quiet)
	slices.Sort(hot)
	return quiet[n/2], fmt.Sprintf("after 20ms idle: median %.1fµs (%.1f–%.1f); back to back: median %.1fµs (%.1f–%.1f)",
		quiet[n/2], quiet[0], quiet[n-1], hot[n/2], hot[0], hot[n-1]), nil
}
