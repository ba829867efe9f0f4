// Command cpupace measures how much CPU time a cpu action of a real
// program takes for its nominal duration: each run is a fresh process
// that calibrates cpuwork's loop as a generated program does, then has
// each of -par goroutines, on threads of their own, compute -tasks tasks
// of 20-200µs (burst's), and reads each thread's CPU time (getrusage's
// RUSAGE_THREAD, Linux's) and the clock around them. The figure is the CPU time
// over the tasks' nominal sum, of the goroutine further off 1: above 1,
// the work took longer than calibrated; each run's line gives the wall
// time's ratio too, longer still where a thread lost its CPU. A generated
// program's cpu action computes the whole microseconds of its duration,
// and the nominal sum counts those.
//
//	go run ./scripts/cpupace            # 10 runs, 2 goroutines of 2500 tasks
//	go run ./scripts/cpupace -par 1 -runs 20
//
// verify runs the model's computations at the pace this measured on the
// project's machine (real/verify's workPace; docs/fidelity.md, "The
// work's pace"), and its note on a makespan where the Ps share the CPUs
// compares the CPU time a real program had with the model's ("The CPU
// time the program had"): this says how much of that is the work itself.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_CPUPACE_RUN"

// rusageThread is getrusage's who for the calling thread (Linux's
// RUSAGE_THREAD), which package syscall does not name.
const rusageThread = 1

func main() {
	runs := probe.RunsFlag()
	par := flag.Int("par", 2, "how many goroutines compute at once, each on a thread and P of its own (1 to 8)")
	tasks := flag.Int("tasks", 2500, "how many tasks each goroutine computes (1 to 100000)")
	probe.SetUsage("go run ./scripts/cpupace [-runs N] [-par N] [-tasks N]")
	flag.Parse()
	if flag.NArg() != 0 || *par < 1 || *par > 8 || *tasks < 1 || *tasks > 100000 {
		probe.BadUsage()
	}
	args := []string{"-par=" + strconv.Itoa(*par), "-tasks=" + strconv.Itoa(*tasks)}
	got := probe.Fresh("cpupace", runEnv, *runs, args, func() (float64, string) { return once(*par, *tasks) })
	fmt.Printf("CPU time of %d goroutines' tasks over their nominal sum, %s\n", *par, probe.Summarize(got))
}

// once calibrates, runs the tasks and returns the ratio further off 1
// and the run's line.
func once(par, tasks int) (float64, string) {
	runtime.GOMAXPROCS(par)
	cpuwork.Calibrate()
	ratios := make([]float64, par)
	// The wall time over the nominal, which a thread that lost its CPU
	// to another makes longer than the CPU time.
	walls := make([]float64, par)
	// Each goroutine's loop results, kept so that the work is not dropped.
	results := make([]uint64, par)
	var wg sync.WaitGroup
	for w := range par {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			var nominal time.Duration
			var result uint64
			start, err := threadCPU()
			if err != nil {
				probe.Fail("cpupace", err)
			}
			began := time.Now()
			for range tasks {
				d := time.Duration(20+r.Int64N(181)) * time.Microsecond
				nominal += d
				result ^= cpuwork.Alone(int64(cpuwork.PerMicro() * float64(d.Microseconds())))
			}
			took := time.Since(began)
			end, err := threadCPU()
			if err != nil {
				probe.Fail("cpupace", err)
			}
			ratios[w] = float64(end-start) / float64(nominal)
			walls[w] = float64(took) / float64(nominal)
			results[w] = result
		})
	}
	wg.Wait()
	worst := 1.0
	for _, r := range ratios {
		if max(r, 1/r) > max(worst, 1/worst) {
			worst = r
		}
	}
	return worst, fmt.Sprintf("CPU time %.4f, wall time %.4f (load %s; results %x)", ratios, walls, probe.Loadavg(), results[0]&0xff)
}

// threadCPU is the calling thread's CPU time, user and system.
func threadCPU() (time.Duration, error) {
	var u syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &u); err != nil {
		return 0, err
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), nil
}
