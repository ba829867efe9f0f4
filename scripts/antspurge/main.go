// Command antspurge measures how many workers a pool starts for a workload
// that keeps it busy in short rounds: a pool of 8 with a 20ms expiry, 10
// rounds of 8 tasks of 1ms of computation, each round waited for and
// followed by a pause (the built-in purge-coarse is the same program).
//
//	go run ./scripts/antspurge                 # ants v2.12.1, 10 runs
//	go run ./scripts/antspurge -pool pool      # package pool, the system clock
//	go run ./scripts/antspurge -pool coarse    # package pool, WithCoarseClock
//	go run ./scripts/antspurge -runs 20 -gap 8ms
//
// ants stamps a worker going idle with a time its own goroutine refreshes
// every 500ms, and its purge ticks every expiry comparing those stamps with
// time.Now; in a program younger than 500ms every stamp is the pool's
// creation, so each tick stops every idle worker, however recently used.
// Workers are counted as distinct goroutines that ran a task (ants keeps
// no count of the workers it started).
//
// Each run is a fresh process (the program runs itself again), so that no
// pool, timer or goroutine of one run outlives it into the next. It prints
// one line a run, the machine's load (/proc/loadavg) before and after the
// series, and the median and range.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/panjf2000/ants/v2"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv names the pool a child process runs the workload on once.
const runEnv = "SCHEDLAB_ANTSPURGE_RUN"

// The workload, as the built-in purge-coarse writes it.
const (
	size   = 8
	expiry = 20 * time.Millisecond
	rounds = 10
	tasks  = 8
	work   = time.Millisecond
)

var pools = map[string]bool{"ants": true, "pool": true, "coarse": true}

func main() {
	runs := probe.RunsFlag()
	which := flag.String("pool", "ants", "the pool: ants, pool (package pool) or coarse (package pool, WithCoarseClock)")
	gap := flag.Duration("gap", 8*time.Millisecond, "the pause after each round")
	procs := flag.Int("procs", 2, "GOMAXPROCS")
	probe.SetUsage("go run ./scripts/antspurge [-runs N] [-pool ants|pool|coarse] [-gap D] [-procs N]")
	flag.Parse()
	if flag.NArg() != 0 || !pools[*which] || *runs < 1 || *gap < 0 || *procs < 1 {
		probe.BadUsage()
	}
	if os.Getenv(runEnv) != "" {
		runtime.GOMAXPROCS(*procs)
		n, line := runOnce(*which, *gap)
		probe.Report(float64(n), line)
		return
	}
	got := probe.NewRunner("antspurge", runEnv).Series(*runs, os.Args[1:])
	// Counts of workers stay below 10⁴, where %.4g would print them as %d does.
	fmt.Printf("%s, workers started, %s\n", *which, probe.Summarize(got))
}

// submitter is what the workload needs of a pool.
type submitter interface {
	Submit(func()) error
}

// runOnce runs the workload on a new pool and returns how many workers ran
// a task, and a line that says what it saw.
func runOnce(which string, gap time.Duration) (int, string) {
	cpuwork.Calibrate()
	var (
		p       submitter
		release func()
		started func() int
	)
	var mu sync.Mutex
	seen := map[uint64]bool{}
	switch which {
	case "ants":
		a, err := ants.NewPool(size, ants.WithExpiryDuration(expiry))
		if err != nil {
			panic(err)
		}
		p, release = a, a.Release
		started = func() int { return len(seen) }
	default:
		opts := []pool.Option{pool.WithExpiry(expiry)}
		if which == "coarse" {
			opts = append(opts, pool.WithCoarseClock(true))
		}
		q, err := pool.New(size, opts...)
		if err != nil {
			panic(err)
		}
		p, release = q, q.Release
		started = func() int { return int(q.Stats().WorkersStarted) }
	}
	begin := time.Now()
	var wg sync.WaitGroup
	for range rounds {
		wg.Add(tasks)
		for range tasks {
			err := p.Submit(func() {
				id := goid()
				mu.Lock()
				seen[id] = true
				mu.Unlock()
				cpuwork.Compute(work)
				wg.Done()
			})
			if err != nil {
				panic(err)
			}
		}
		wg.Wait()
		time.Sleep(gap)
	}
	took := time.Since(begin)
	n := started()
	release()
	return n, fmt.Sprintf("%d workers ran the %d tasks (%d goroutines seen) in %v", n, rounds*tasks, len(seen), took.Round(100*time.Microsecond))
}

// goid is the calling goroutine's id, read from its stack trace's header
// ("goroutine 18 [running]:"): ids are never reused, so each worker has one.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	b, _, _ = bytes.Cut(b, []byte(" "))
	n, _ := strconv.ParseUint(string(b), 10, 64)
	return n
}
