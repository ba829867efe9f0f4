// Command freshgo measures what the go statements of a fresh process
// cost: on one P, main makes 300 goroutines that block (none runs before
// the last is made, as in the built-in overflow), each go statement timed
// with the clock. A fresh process has no dead goroutine's descriptor to
// reuse, so each allocates one and its stack, and the runtime's memory
// for them grows as it goes. With -trace the process writes a runtime
// trace to a file, as schedlab real's programs do.
//
//	go run ./scripts/freshgo            # 10 runs, each a fresh process
//	go run ./scripts/freshgo -trace     # traced, into a file
//	go run ./scripts/freshgo -runs 20 -n 12
//
// Each run prints the mean time a go statement took, the median one, the
// first, and the pauses: how many statements took over 2µs and how long
// they took in all. The summary is of the runs' means, in µs. The model
// charges a go statement that allocates Costs.Newproc and Costs.NewG
// (calibrate's go_create and go_create_fresh, the latter in calibrate's
// own process, whose memory earlier figures have grown); docs/fidelity.md
// (A second machine) sets the two beside each other.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_FRESHGO_RUN"

// pause is the least time a go statement takes to count as a pause: the
// others take well under a microsecond.
const pause = 2 * time.Microsecond

func main() {
	runs := probe.RunsFlag()
	n := flag.Int("n", 300, "how many go statements a run times (1 to 100000)")
	traced := flag.Bool("trace", false, "write a runtime trace to a file in a temporary folder while measuring")
	probe.SetUsage("go run ./scripts/freshgo [-runs N] [-n COUNT] [-trace]")
	flag.Parse()
	if flag.NArg() != 0 || *n < 1 || *n > 100_000 {
		probe.BadUsage()
	}
	args := []string{fmt.Sprintf("-n=%d", *n), fmt.Sprintf("-trace=%v", *traced)}
	got := probe.Fresh("freshgo", runEnv, *runs, args, func() (float64, string) { return once(*n, *traced) })
	fmt.Printf("mean go statement (µs), %s\n", probe.Summarize(got))
}

// once times n go statements in this process and returns their mean, in
// microseconds, and the run's line.
func once(n int, traced bool) (float64, string) {
	runtime.GOMAXPROCS(1)
	if traced {
		dir, err := os.MkdirTemp("", "freshgo")
		if err != nil {
			probe.Fail("freshgo", err)
		}
		defer os.RemoveAll(dir)
		stop, err := probe.Trace(filepath.Join(dir, "trace.out"))
		if err != nil {
			probe.Fail("freshgo", err)
		}
		defer stop()
	}
	block := make(chan struct{})
	took := make([]time.Duration, n)
	last := time.Now()
	for i := range took {
		go func() { <-block }()
		now := time.Now()
		took[i], last = now.Sub(last), now
	}
	close(block)
	var total, paused time.Duration
	pauses := 0
	for _, d := range took {
		total += d
		if d > pause {
			pauses++
			paused += d
		}
	}
	first := took[0]
	slices.Sort(took)
	mean := float64(total) / float64(n) / 1e3
	return mean, fmt.Sprintf("%d go statements: mean %.2fµs, median %.2fµs, first %.2fµs; %d over %v, %.0fµs in all",
		n, mean, float64(took[n/2])/1e3, float64(first)/1e3, pauses, pause, float64(paused)/1e3)
}
