// Command coldstart measures how much longer a thread's first work takes
// after it slept than the same work done again at once: four hand-offs
// between two goroutines, about 3µs of computing and, unless -quiet, a
// printed line, on one P, after sleeps of 1ms, 10ms and 100ms, 20 rounds
// each. The line goes to standard error, which each run shares with this
// program: a pipe, as schedlab real reads a program's output, when the
// caller makes it one (below). Each run is a fresh process and prints the
// median first and again times at each sleep; the summary is of the
// median first time after 100ms.
//
//	go run ./scripts/coldstart 2>&1 | grep -v '^line$'   # 10 runs
//	go run ./scripts/coldstart -quiet                     # without the line
//
// docs/fidelity.md (Noise) has what it found and what the model does not
// do with it.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_COLDSTART_RUN"

// sleeps are how long the thread sleeps before each first work.
var sleeps = []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}

const rounds = 20

// workRounds is how many rounds of cpuwork's loop the work computes:
// about 3µs on an AMD EPYC.
const workRounds = 2000

func main() {
	runs := probe.RunsFlag()
	quiet := flag.Bool("quiet", false, "leave out the printed line")
	probe.SetUsage("go run ./scripts/coldstart [-runs N] [-quiet]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	got := probe.Fresh("coldstart", runEnv, *runs, []string{fmt.Sprintf("-quiet=%v", *quiet)}, func() (float64, string) { return once(*quiet) })
	fmt.Printf("first work after 100ms asleep (µs), %s\n", probe.Summarize(got))
}

// once measures every sleep's rounds and returns the median first time
// after the longest sleep, in microseconds.
func once(quiet bool) (float64, string) {
	runtime.GOMAXPROCS(1)
	// Standard output is for the figure, which the parent reads.
	line := func() {
		if !quiet {
			fmt.Fprintln(os.Stderr, "line")
		}
	}
	var parts []string
	var last float64
	for _, d := range sleeps {
		var first, again []float64
		for range rounds {
			time.Sleep(d)
			first = append(first, us(work(line)))
			again = append(again, us(work(line)))
		}
		f, a := probe.Summarize(first).Middle, probe.Summarize(again).Middle
		parts = append(parts, fmt.Sprintf("after %v: %.1fµs (again %.1fµs)", d, f, a))
		last = f
	}
	return last, strings.Join(parts, ", ")
}

// work times four hand-offs, the computing and the line.
func work(line func()) time.Duration {
	t := time.Now()
	done := make(chan struct{})
	for range 4 {
		go func() { done <- struct{}{} }()
		<-done
	}
	runtime.KeepAlive(cpuwork.Alone(workRounds))
	line()
	return time.Since(t)
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
