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
//	go run ./scripts/firstwake -procs 1        # one P: no go statement wakes a thread
//	go run ./scripts/firstwake -slack 1        # every thread's timer slack 1ns instead of 50µs
//
// Each run also gives how long main's first go statement took and the
// median of the other fifteen: the first one's wakep wakes a parked thread
// (futexwakeup), the others find an M spinning and wake none, so with
// -procs 1 (no idle P, no wake) beside the default the difference is what
// the wake costs the waker. -slack sets every thread's timer slack
// (/proc/self/task/*/timerslack_ns): a thief that finds only main's
// runnext sleeps in runqgrab's usleep(3), which the kernel's 50µs slack
// lengthens, so runs with -slack 1 beside the default show how often, and
// how much, that sleep is in the figure.
//
// It also counts the threads the process has when main.main starts
// (/proc/self/task), to see whether the runtime has idle threads to wake
// there or must create one. -warm first runs 8 goroutines on every P and
// sleeps 20ms, so that threads exist, parked, before the measurement.
// -trace writes a runtime trace of the measurement and splits the figure at
// the moment the woken thread takes its P (its ProcStart): before it, the
// thread's wake-up or creation, and the OS getting it a CPU; after it,
// the thief's search and steal. It also gives when main's second go came,
// how many go statements came before the ProcStart, and which of them the
// first child to run was. Tracing slows every go statement (the tracer
// records each with its stack), so a traced run's thief finds main's
// runnext alone far more often than an untraced one's.
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
	"io/fs"
	"os"
	"runtime"
	"runtime/trace"
	"slices"
	"strings"
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
	slack := flag.Int("slack", -1, "set every thread's timer slack to this many ns before measuring (-1: leave the kernel's 50µs)")
	procs := flag.Int("procs", 4, "GOMAXPROCS for the measurement (1: no idle P, so no go statement wakes a thread)")
	probe.SetUsage("go run ./scripts/firstwake [-runs N] [-warm] [-trace] | [-runs N] -pipewake")
	flag.Parse()
	if flag.NArg() != 0 || *runs < 1 || *procs < 1 || (*pipeWake && (*warm || *traced)) {
		probe.BadUsage()
	}
	if os.Getenv(runEnv) != "" {
		run := func() (float64, string, error) { return runOnce(*procs, *slack, *warm, os.Getenv(runEnv)) }
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

// setTimerSlack sets the timer slack of every thread of the process to ns
// (threads made later inherit it from the one that makes them): with it
// near 0, a usleep in the runtime (runqgrab's usleep(3) among them) lasts
// about what it asks, so the figure with and without it tells how much of
// it is the slack.
func setTimerSlack(ns int) error {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, e := range entries {
		// The file is only in a thread's own /proc/TID (not under
		// task/); a thread that has exited since the listing is no
		// matter.
		err := os.WriteFile("/proc/"+e.Name()+"/timerslack_ns", []byte(fmt.Sprint(ns)), 0)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// timerSlack is the calling thread's timer slack, which a process
// inherits from whoever started it: a shell left at 1ns would shorten
// every run's sleeps unseen.
func timerSlack() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/timerslack_ns", syscall.Gettid()))
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b)) + "ns"
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

// runOnce measures once on procs Ps; traceFile is where to write the
// trace, or "-".
func runOnce(procs, slack int, warm bool, traceFile string) (float64, string, error) {
	runtime.GOMAXPROCS(procs)
	if slack >= 0 {
		if err := setTimerSlack(slack); err != nil {
			return 0, "", err
		}
	}
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
		stop, err := probe.Trace(traceFile)
		if err != nil {
			return 0, "", err
		}
		defer stop()
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
		// firstGo is which go statement (1-16) made the first child to
		// run: 1 is main's runnext taken whole, 8 the last of half of a
		// full ring (15 behind runnext), as runqsteal takes them.
		firstGo atomic.Int64
	)
	// gone is when each go statement returned: the first one's wakep
	// wakes a thread, the others find no idle P or a spinning M and
	// wake nothing, so the first's excess over the rest is the waker's
	// share of the wake-up.
	var gone [16]time.Duration
	t0 := time.Now()
	for i := range 16 {
		wg.Add(1)
		go func() {
			if first.CompareAndSwap(0, int64(time.Since(t0))+1) {
				firstP.Store(int64(currentP()))
				firstCPU.Store(int64(currentCPU()))
				firstGo.Store(int64(i + 1))
			}
			spin(time.Millisecond)
			wg.Done()
		}()
		gone[i] = time.Since(t0)
	}
	spin(5 * time.Millisecond)
	wg.Wait()
	us := float64(first.Load()-1) / 1e3
	var each []float64
	for i := 1; i < len(gone); i++ {
		each = append(each, float64(gone[i]-gone[i-1])/1e3)
	}
	slices.Sort(each)
	return us, fmt.Sprintf("first child (go #%d) after %.1fµs on P%d, CPU %d (main on P%d, CPU %d); %d threads at main.main, %d before the first go; "+
		"main's first go took %.1fµs, the others median %.2fµs; timer slack %s",
		firstGo.Load(), us, firstP.Load(), firstCPU.Load(), mainP, mainCPU, threadsAtStart, threads, float64(gone[0])/1e3, each[len(each)/2], timerSlack()), nil
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
	// created are main's go statements (their GoCreate times) in order;
	// before is how many of them came before the thief's ProcStart, and
	// firstIdx which of them the first child to run was.
	var created []xtrace.Time
	var createdG []xtrace.GoID
	before, firstIdx := -1, -1
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
					before = len(created)
				}
			case xtrace.ResourceGoroutine:
				from, to := st.Goroutine()
				if from == xtrace.GoNotExist && to == xtrace.GoRunnable && ev.Goroutine() == mainG && len(created) < 16 {
					created = append(created, ev.Time())
					createdG = append(createdG, st.Resource.Goroutine())
				}
				if childStart == 0 && to == xtrace.GoRunning && st.Resource.Goroutine() != mainG {
					childStart = ev.Time()
					firstIdx = slices.Index(createdG, st.Resource.Goroutine())
				}
			}
		}
	}
	if t0 == 0 || procStart == 0 || childStart == 0 {
		return "", fmt.Errorf("%s: no log, ProcStart or child start after the first go", file)
	}
	if len(created) < 2 {
		return "", fmt.Errorf("%s: fewer than two go statements traced", file)
	}
	// The second go's time says how long main's first go (its wakep's
	// futex wake included) kept main; the count before ProcStart, what
	// the thief could find in main's run queue when it took its P.
	return fmt.Sprintf("go → another P's ProcStart %.1fµs, → first child %.1fµs; 2nd go at %.1fµs, %d gos before the ProcStart, first child is go #%d",
		float64(procStart-t0)/1e3, float64(childStart-t0)/1e3, float64(created[1]-t0)/1e3, before, firstIdx+1), nil
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
