// Command untraced measures, on the real runtime and without runtime/trace,
// the three patterns core/gmp/doc.go compares the model with. schedlab verify
// measures real runs under runtime/trace, and in two of these patterns the
// tracer's own goroutines change what is measured (doc.go says how); these
// probes count what they need from inside the program instead.
//
//	go run ./scripts/untraced hog-pingpong   # the hog's share of 300ms on 1 P
//	go run ./scripts/untraced timer-bursts   # preemption requests in 60 bursts
//	go run ./scripts/untraced pingpong-2p    # migrations of a pair in 50ms on 2 Ps
//	go run ./scripts/untraced -runs 30 timer-bursts
//
// Each run is a fresh process (the program runs itself again), so that no
// goroutine of one run outlives it into the next. It prints one line a run
// and then the median and range.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	_ "unsafe" // procPin

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv names the probe a child process runs once.
const runEnv = "SCHEDLAB_UNTRACED_RUN"

// A pattern runs once and returns the figure it measures, with
// a line that says what it saw.
type pattern struct {
	what string // the figure, as the summary names it
	run  func() (float64, string)
}

var probes = map[string]pattern{
	"hog-pingpong": {"the hog's share of the CPU (%)", hogPingPong},
	"timer-bursts": {"preemption requests in 60 bursts", timerBursts},
	"pingpong-2p":  {"migrations of the pair in 50ms", pingPongTwoPs},
}

func main() {
	runs := probe.RunsFlag()
	probe.SetUsage("go run ./scripts/untraced [-runs N] hog-pingpong|timer-bursts|pingpong-2p")
	flag.Parse()
	name, p := probe.Pick("untraced", "probe", probes)
	if os.Getenv(runEnv) == name {
		probe.Report(p.run())
		return
	}
	probe.CheckRuns("untraced", *runs)
	r := probe.NewRunner("untraced", runEnv)
	var got []float64
	for i := range *runs {
		v, line := r.Run(i+1, []string{name}, name)
		fmt.Printf("run %d: %s\n", i+1, line)
		got = append(got, v)
	}
	fmt.Printf("%s, %s, %s\n", name, p.what, probe.Summarize(got))
}

// hogPingPong: on 1 P, a goroutine computes while two bounce a token over
// unbuffered channels, for 300ms. The hog counts its own iterations, so its
// share needs no trace. Preemption requests are not counted here: the
// goroutine that receives a signal for signal.Notify would itself start new
// time slices on the only P, which is the effect being measured.
func hogPingPong() (float64, string) {
	runtime.GOMAXPROCS(1)
	cpuwork.Calibrate()
	const span = 300 * time.Millisecond
	var hogIters, hops atomic.Int64
	ping, pong := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		const chunk = 1 << 10
		for {
			cpuwork.Spin(chunk)
			hogIters.Add(chunk)
		}
	}()
	go func() {
		for {
			<-ping
			pong <- struct{}{}
		}
	}()
	done := time.After(span)
	for {
		select {
		case <-done:
			took := time.Since(start)
			share := 100 * float64(hogIters.Load()) / cpuwork.PerMicro() / float64(took.Microseconds())
			return share, fmt.Sprintf("the hog ran %.1f%% of %v; the pair made %d round trips", share, took.Round(time.Millisecond), hops.Load())
		default:
		}
		for range 100 {
			ping <- struct{}{}
			<-pong
		}
		hops.Add(100)
	}
}

// timerBursts: on 1 P, sleep 20ms and then compute for 9ms, sixty times.
// Every asynchronous preemption request is a SIGURG (preemptM), which
// signal.Notify also delivers to the program. The runtime coalesces a
// signal that arrives again before the program has taken the first, which
// here would take two requests within one burst: sysmon's second look
// comes 10ms after its first, longer than a burst.
func timerBursts() (float64, string) {
	runtime.GOMAXPROCS(1)
	cpuwork.Calibrate() // before counting: it runs 20ms, long enough to be preempted itself
	urg := make(chan os.Signal, 1024)
	signal.Notify(urg, syscall.SIGURG)
	for range 60 {
		time.Sleep(20 * time.Millisecond)
		cpuwork.Compute(9 * time.Millisecond)
	}
	signal.Stop(urg)
	n := len(urg)
	return float64(n), fmt.Sprintf("%d preemption requests in 60 bursts", n)
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

// pingPongTwoPs: on 2 Ps, two goroutines bounce a token for 50ms; main
// reads its P after every round trip, and a change is a migration of the
// pair (the partner always runs where main readied it).
func pingPongTwoPs() (float64, string) {
	runtime.GOMAXPROCS(2)
	const span = 50 * time.Millisecond
	ping, pong := make(chan struct{}), make(chan struct{})
	go func() {
		for range ping {
			pong <- struct{}{}
		}
	}()
	hops, moves := 0, 0
	last := currentP()
	deadline := time.Now().Add(span)
	for time.Now().Before(deadline) {
		for range 1000 {
			ping <- struct{}{}
			<-pong
			if p := currentP(); p != last {
				moves++
				last = p
			}
			hops += 2
		}
	}
	close(ping)
	return float64(moves), fmt.Sprintf("%d migrations in %d hops (%.3f%%)", moves, hops, 100*float64(moves)/float64(hops))
}
