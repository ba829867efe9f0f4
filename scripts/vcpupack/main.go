//go:build linux

// Command vcpupack measures where Linux puts a thread that a busy thread
// wakes while another CPU is idle: on the idle CPU, as upstream Linux's
// select_idle_sibling does, or on the waker's busy CPU, packed beside it.
//
//	go run ./scripts/vcpupack                     # 10 runs, the woken thread last ran on the waker's CPU, asleep 1ms
//	go run ./scripts/vcpupack -prev other -sleep 8ms
//	go run ./scripts/vcpupack -prev other -sleep 8ms -busy 30
//	go run ./scripts/vcpupack -prev other -sleep 2ms -busy 30 -period 10ms
//	go run ./scripts/vcpupack -prev other -sleep 2ms -rounds 1 -settle 0s
//
// Each run is a fresh process, with the runtime's preemption signals
// off, that runs calibrate.PackRounds: a waker computes on the first of
// the two CPUs the process may use, the sleeper runs 50µs on the CPU
// -prev names (the waker's, or the other), then may run on both, sleeps
// in read(2) for -sleep and is woken by the waker's write; getcpu(2) then
// says where the kernel put it, and when it ran. With -busy below 100
// the waker computes only that share of each millisecond (of each
// -period) and sleeps the rest, so that its CPU is partly idle as the
// kernel averages it; each run's line gives the share it computed, the
// timer slack lengthening its sleeps. The waker keeps to its share for
// -settle before the first round (100ms, three of the kernel's 32ms
// half-lives); -rounds 1 -settle 0s asks about a waker that has only
// just begun to compute. schedlab calibrate measures the same cases (its
// wake_pack), with fewer rounds, for the model.
//
// The figure is the share of rounds in which the woken thread ran on the
// waker's CPU; the line gives its median wait there and elsewhere. What it
// found on this project's machine, and why that machine's kernel packs, is
// in docs/fidelity.md ("Packed on a busy CPU" and "Room on the waker's
// CPU").
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

const (
	prog   = "vcpupack"
	runEnv = "SCHEDLAB_VCPUPACK_RUN"
)

func main() {
	runs := probe.RunsFlag()
	rounds := flag.Int("rounds", 100, "rounds per run: run on -prev, sleep, be woken")
	prev := flag.String("prev", "waker", "where the sleeper runs before it sleeps: waker (the waker's CPU) or other (another idle one)")
	sleep := flag.Duration("sleep", time.Millisecond, "how long the sleeper is blocked before the waker wakes it")
	busy := flag.Int("busy", 100, "the share of each period, in percent, that the waker computes; it sleeps the rest and writes only while it computes")
	period := flag.Duration("period", time.Millisecond, "the waker's period of computing and sleeping, 100µs to 1s")
	settle := flag.Duration("settle", 100*time.Millisecond, "how long the waker keeps to its share before the first round, up to 10s")
	probe.SetUsage("vcpupack [-runs N] [-rounds N] [-prev waker|other] [-sleep D] [-busy PERCENT] [-period D] [-settle D]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	if *rounds < 1 || *rounds > 10000 || *sleep < 100*time.Microsecond || *sleep > time.Second {
		fmt.Fprintf(os.Stderr, "%s: -rounds must be 1 to 10000 and -sleep 100µs to 1s\n", prog)
		os.Exit(2)
	}
	duty := calibrate.PackDuty{Busy: *busy, Period: *period, Settle: *settle}
	if err := duty.Check(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: -busy, -period, -settle: %v\n", prog, err)
		os.Exit(2)
	}
	if *prev != "waker" && *prev != "other" {
		fmt.Fprintf(os.Stderr, "%s: -prev must be waker or other, got %q\n", prog, *prev)
		os.Exit(2)
	}
	// The runs run with the runtime's preemption signals off, which
	// PackRounds needs.
	os.Setenv("GODEBUG", "asyncpreemptoff=1")
	shares := probe.Fresh(prog, runEnv, *runs, os.Args[1:], func() (float64, string) {
		w, computed, err := calibrate.PackRounds(*prev == "waker", *sleep, duty, *rounds)
		if err != nil {
			probe.Fail(prog, err)
		}
		if *busy == 100 {
			computed = -1
		}
		return summarize(w, computed)
	})
	where := "the waker's CPU"
	if *prev == "other" {
		where = "another CPU"
	}
	doing := ""
	if *busy < 100 {
		each := "millisecond"
		if *period != time.Millisecond {
			each = period.String()
		}
		doing = fmt.Sprintf(", the waker computing %d%% of each %s", *busy, each)
	}
	if *settle != 100*time.Millisecond {
		doing += fmt.Sprintf(", for %v before the first round", *settle)
	}
	fmt.Printf("woken on the waker's CPU (%%, the sleeper on %s before, asleep %v%s), %s\n", where, *sleep, doing, probe.Summarize(shares))
}

// summarize gives the share of wakes on the waker's CPU, in percent, and
// the run's line; computed, if not negative, is the share of the run the
// waker computed, in percent.
func summarize(w []calibrate.PackRound, computed float64) (float64, string) {
	var packed, spread []time.Duration
	for _, x := range w {
		if x.Packed {
			packed = append(packed, x.Wait)
		} else {
			spread = append(spread, x.Wait)
		}
	}
	share := 100 * float64(len(packed)) / float64(len(w))
	line := fmt.Sprintf("%d rounds: %d on the waker's CPU (wait median %s, max %s), %d elsewhere (median %s)",
		len(w), len(packed), median(packed), maxOf(packed), len(spread), median(spread))
	if computed >= 0 {
		line += fmt.Sprintf("; the waker computed %.0f%% of the run", computed)
	}
	return share, line
}

func median(d []time.Duration) string {
	if len(d) == 0 {
		return "-"
	}
	return time.Duration(probe.Summarize(d).Middle).Round(time.Microsecond).String()
}

func maxOf(d []time.Duration) string {
	if len(d) == 0 {
		return "-"
	}
	return slices.Max(d).Round(time.Microsecond).String()
}
