// Command puzzles runs, on the real runtime, the programs behind the
// built-in lessons taken from published puzzles, and the two facts about
// the runtime's start that the model's warm start (gmp.Config.WarmStart)
// is set from. Each run is a fresh process (the program runs itself
// again), as a student's go run would be; the parent reads the child's
// standard output, the puzzle's answer, through a pipe, and prints one
// line a run, then how often each answer came, with the machine's load
// before and after.
//
//	go run ./scripts/puzzles threads              # threads when main.main starts
//	go run ./scripts/puzzles -runs 50 print-order  # go P(1); go P(2); P(3) on 2 Ps
//	go run ./scripts/puzzles println-cost          # one fmt.Println into a pipe
//	go run ./scripts/puzzles pingpong              # Advanced Go Concurrency Patterns' table
//	go run ./scripts/puzzles -procs 1 done-flag    # will done! ever print?
//	go run ./scripts/puzzles starved-sleeper       # a 1ms sleep behind a busy loop
//	go run ./scripts/puzzles forever               # for {} on 1 P, then with
//	go run ./scripts/puzzles -cooperative forever  # GODEBUG=asyncpreemptoff=1
//	go run ./scripts/puzzles fairness61            # goroutines run before main resumes
//	go run ./scripts/puzzles -traced fairness61    # the same under runtime/trace
//	go run ./scripts/puzzles schedtick             # schedtick at main.main, no calibration
//	GOMAXPROCS=1 go run ./scripts/puzzles schedtick          # without the resize
//	SCHEDLAB_PUZZLE_SETTLE=1 go run ./scripts/puzzles schedtick  # a 1ms pause after it
//
// docs/puzzles.md has the figures, with the load they were taken at.
//
// A child that has not ended after -timeout is killed, and the run's
// answer is "hung".
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv names the puzzle a child process runs once.
const runEnv = "SCHEDLAB_PUZZLE_RUN"

// A puzzle runs once in a child and writes its answer to standard output.
type puzzle struct {
	what string // what a run's answer is, for the summary
	run  func(procs int)
	// last: the answer is the output's last line (the rest is the
	// puzzle's load on the pipe).
	last bool
}

var puzzles = map[string]puzzle{
	"threads":         {"OS threads when main.main starts (/proc/self/status)", threads, false},
	"print-order":     {"the printed order of go P(1); go P(2); P(3)", printOrder, false},
	"println-cost":    {"µs per fmt.Println into a pipe: the first call, then the median of 1000", printlnCost, true},
	"first-print":     {"µs of a program's first fmt.Println: formatting, then the write; then a second write", firstPrint, true},
	"pingpong":        {"who hits first, and the first six hits", pingPong, false},
	"done-flag":       {"whether done! is printed", doneFlag, false},
	"starved-sleeper": {"ms from the start to the 1ms sleeper's wake-up", starvedSleeper, false},
	"forever":         {"ms until main, asleep for 1ms beside a for {}, prints", forever, false},
	"schedtick":       {"P0's schedtick when main.main starts, read from when the 1-in-61 check picks main", schedtick, false},
	"fairness61":      {"goroutines that finished before main came back from Gosched", fairness61, false},
}

func main() {
	runs := probe.RunsFlag()
	procs := flag.Int("procs", 0, "GOMAXPROCS for the puzzles that take it (0: the puzzle's own)")
	cooperative := flag.Bool("cooperative", false, "run with GODEBUG=asyncpreemptoff=1: no asynchronous preemption, as before Go 1.14")
	traced := flag.Bool("traced", false, "run under runtime/trace, as schedlab real does (fairness61)")
	timeout := flag.Duration("timeout", 3*time.Second, "kill a run that takes longer, and count it as hung")
	probe.SetUsage("go run ./scripts/puzzles [flags] " + strings.Join(slices.Sorted(maps.Keys(puzzles)), "|"))
	flag.Parse()
	name, p := probe.Pick("puzzles", "puzzle", puzzles)
	if os.Getenv(runEnv) == name {
		tracing = *traced
		p.run(*procs)
		return
	}
	probe.CheckRuns("puzzles", *runs)
	self := probe.Self("puzzles")
	before := probe.Loadavg()
	count := map[string]int{}
	var order []string
	for i := range *runs {
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		args := []string{"-procs", strconv.Itoa(*procs)}
		if *traced {
			args = append(args, "-traced")
		}
		cmd := exec.CommandContext(ctx, self, append(args, name)...)
		cmd.Env = append(os.Environ(), runEnv+"="+name)
		if *cooperative {
			cmd.Env = append(cmd.Env, "GODEBUG=asyncpreemptoff=1")
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		hung := ctx.Err() != nil
		cancel()
		text := strings.TrimSpace(string(out))
		if p.last {
			text = text[strings.LastIndexByte(text, '\n')+1:]
		}
		answer := strings.Join(strings.Fields(text), " ")
		switch {
		case hung:
			answer = "hung"
		case err != nil:
			fmt.Fprintf(os.Stderr, "puzzles: run %d: %v\n%s", i+1, err, stderr.Bytes())
			os.Exit(1)
		case answer == "":
			answer = "(nothing)"
		}
		fmt.Printf("run %d: %s\n", i+1, answer)
		if count[answer] == 0 {
			order = append(order, answer)
		}
		count[answer]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	fmt.Printf("%s: %s; %d runs, GOMAXPROCS %s, %s, load %s → %s\n", name, p.what, *runs, procsWord(*procs), runtime.Version(), before, probe.Loadavg())
	for _, a := range order {
		fmt.Printf("  %3d× %s\n", count[a], a)
	}
}

func procsWord(n int) string {
	if n == 0 {
		return "the puzzle's"
	}
	return strconv.Itoa(n)
}

// tracing is set in a child run with -traced.
var tracing bool

// startTrace traces the child into a temporary file, as a program
// schedlab real writes traces into its run's file.
func startTrace() func() {
	f, err := os.CreateTemp("", "puzzles-*.trace")
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	return func() {
		trace.Stop()
		f.Close()
		os.Remove(f.Name())
	}
}

func setProcs(procs, dflt int) {
	if procs == 0 {
		procs = dflt
	}
	runtime.GOMAXPROCS(procs)
}

// threads reads the thread count before main.main does anything else: the
// threads runtime.main's own goroutines made by the time it calls main.
func threads(int) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		panic(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			fmt.Println(strings.TrimSpace(v))
			return
		}
	}
	panic("no Threads: line")
}

// printOrder is the puzzle as schedlab real writes its scenario: a
// WaitGroup waits for the two goroutines after main's own print.
func printOrder(procs int) {
	setProcs(procs, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fmt.Println("1") }()
	go func() { defer wg.Done(); fmt.Println("2") }()
	fmt.Println("3")
	wg.Wait()
}

// printlnCost times fmt.Println of a short line into standard output,
// which the parent reads through a pipe; the figures are the last line.
func printlnCost(int) {
	t := time.Now()
	fmt.Println("x")
	first := time.Since(t)
	d := make([]time.Duration, 1000)
	for i := range d {
		t := time.Now()
		fmt.Println("x")
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	fmt.Printf("first %.1fµs, median %.1fµs\n", micro(first), micro(d[len(d)/2]))
}

// firstPrint splits a program's first fmt.Println into its two halves:
// fmt's formatting (its first use in the process) and the write system
// call, and times a second write.
func firstPrint(int) {
	t0 := time.Now()
	line := fmt.Sprintln("x")
	t1 := time.Now()
	os.Stdout.WriteString(line)
	t2 := time.Now()
	os.Stdout.WriteString(line)
	t3 := time.Now()
	fmt.Printf("format %.1fµs, write %.1fµs, second write %.1fµs\n", micro(t1.Sub(t0)), micro(t2.Sub(t1)), micro(t3.Sub(t2)))
}

func micro(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// pingPong is Advanced Go Concurrency Patterns' opening example (Sameer
// Ajmani, Google I/O 2013), with the sleeps as in the talk: two players
// hit a ball over an unbuffered table for a second.
func pingPong(procs int) {
	if procs != 0 {
		runtime.GOMAXPROCS(procs)
	}
	type ball struct{ hits int }
	var mu sync.Mutex
	var seen []string
	player := func(name string, table chan *ball) {
		for {
			b := <-table
			b.hits++
			mu.Lock()
			seen = append(seen, name)
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
			table <- b
		}
	}
	table := make(chan *ball)
	go player("ping", table)
	go player("pong", table)
	table <- new(ball)
	time.Sleep(time.Second)
	<-table
	mu.Lock()
	defer mu.Unlock()
	fmt.Println(strings.Join(seen[:min(6, len(seen))], " "))
}

// doneFlag: a goroutine waits in a call-free loop for a flag and then
// prints; main sets the flag and returns.
func doneFlag(procs int) {
	setProcs(procs, 1)
	var done atomic.Bool
	go func() {
		for !done.Load() {
		}
		fmt.Println("done!")
	}()
	done.Store(true)
}

// starvedSleeper: on 1 P a goroutine sleeps 1ms and sets a flag, while main
// waits for the flag in a loop with no function call.
func starvedSleeper(procs int) {
	setProcs(procs, 1)
	start := time.Now()
	var woke atomic.Int64
	var done atomic.Bool
	go func() {
		time.Sleep(time.Millisecond)
		woke.Store(int64(time.Since(start)))
		done.Store(true)
	}()
	for !done.Load() {
	}
	fmt.Printf("%.0f\n", float64(woke.Load())/float64(time.Millisecond))
}

// forever: on 1 P a goroutine runs for {} while main sleeps 1ms and
// prints. Without asynchronous preemption main never runs again.
func forever(procs int) {
	setProcs(procs, 1)
	start := time.Now()
	go func() {
		//lint:ignore SA5002 the spin is the puzzle: a loop with no call in it
		for {
		}
	}()
	time.Sleep(time.Millisecond)
	fmt.Printf("%.0f\n", float64(time.Since(start))/float64(time.Millisecond))
}

// schedtick reads P0's schedtick at main.main's start without a
// calibration (which runs 20ms and is preempted, advancing it): main
// starts 100 goroutines that spin briefly, yields, and counts those that
// finished when the 1-in-61 check brought it back. The first ran from
// runnext, inheriting main's slice; each other one started a slice, and
// main came back when schedtick reached 61, so schedtick was 62 minus
// the count when main.main started (62-n mod 61, for a count past 61).
func schedtick(int) {
	runtime.GOMAXPROCS(1)
	if os.Getenv("SCHEDLAB_PUZZLE_SETTLE") != "" {
		// An experiment: let whatever the resize left in the global
		// queue run before main starts its goroutines.
		time.Sleep(time.Millisecond)
	}
	if tracing {
		defer startTrace()()
	}
	var finished atomic.Int32
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cpuwork.Spin(20000)
			finished.Add(1)
		}()
	}
	runtime.Gosched()
	n := finished.Load()
	wg.Wait()
	fmt.Println(n)
}

// fairness61 is the built-in of that name: on 1 P main starts 100
// goroutines that compute 50µs each, calls Gosched, and counts the ones
// that finished before it ran again.
func fairness61(int) {
	runtime.GOMAXPROCS(1)
	cpuwork.Calibrate()
	if tracing {
		// After the calibration, as in the program schedlab real writes.
		defer startTrace()()
	}
	var finished atomic.Int32
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cpuwork.Compute(50 * time.Microsecond)
			finished.Add(1)
		}()
	}
	runtime.Gosched()
	n := finished.Load()
	wg.Wait()
	fmt.Println(n)
}
