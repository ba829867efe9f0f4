// Command readywait measures how long goroutines wait between being made
// runnable (created, woken, preempted) and starting, in real traces and in
// the model's runs of the same scenario (as verify runs it), for the
// scenario's main and for its other goroutines apart: where a verify
// report has the model faster or slower, it says whether the difference is
// in the waits, and whose. It also gives how long after blocking in a
// sleep each goroutine was woken (the sleep included), the running slices
// of the goroutines other than main under and over 50µs (a cpu action's
// slice or not: a real slice over its action's length is time the thread
// spent off its CPU, or runtime work the model does not charge), and on
// which P main ran after each wake-up (the waker's, or stolen).
//
// The real traces are those schedlab real --emit DIR keeps (DIR/run-*.trace).
//
//	go run ./scripts/readywait [-seeds 10] NAME TRACE...
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/real/verify"
)

type waits struct{ main, other []time.Duration }

type acc struct {
	since map[int64]time.Duration
	slept map[int64]time.Duration
	w     waits
	// late is how long after it blocked each sleeping goroutine was
	// woken (the sleep's own length included).
	late []time.Duration
	// readyP is the P main was made runnable on; same and other count
	// its starts on that P and on another (stolen).
	readyP      map[int64]int64
	same, other int
	// running holds when each goroutine started; short and long are its
	// running slices under and over 50µs (a cpu action's, or not).
	running     map[int64]time.Duration
	short, long []time.Duration
}

func (a *acc) event(t time.Duration, kind string, g, p int64, sleep bool) {
	if kind == "go-block" && sleep {
		a.slept[g] = t
	}
	switch kind {
	case "go-start":
		a.running[g] = t
	case "go-block", "go-stop", "go-exit":
		if s, ok := a.running[g]; ok && g != 1 {
			if d := t - s; d < 50*time.Microsecond {
				a.short = append(a.short, d)
			} else {
				a.long = append(a.long, d)
			}
		}
		delete(a.running, g)
	}
	if g == 1 && kind == "go-unblock" {
		a.readyP[g] = p
	}
	if g == 1 && kind == "go-start" {
		if rp, ok := a.readyP[g]; ok {
			if rp == p {
				a.same++
			} else {
				a.other++
			}
			delete(a.readyP, g)
		}
	}
	if kind == "go-unblock" {
		if s, ok := a.slept[g]; ok {
			a.late = append(a.late, t-s)
			delete(a.slept, g)
		}
	}
	switch kind {
	case "go-create", "go-unblock", "go-stop":
		a.since[g] = t
	case "go-start":
		if s, ok := a.since[g]; ok {
			if g == 1 {
				a.w.main = append(a.w.main, t-s)
			} else {
				a.w.other = append(a.w.other, t-s)
			}
			delete(a.since, g)
		}
	}
}

func q(d []time.Duration) string {
	if len(d) == 0 {
		return "none"
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	at := func(f float64) time.Duration { return d[int(f*float64(len(d)-1))] }
	return fmt.Sprintf("n %d, p10 %v, median %v, p90 %v, max %v, total %v", len(d), at(.1), at(.5), at(.9), d[len(d)-1], sum)
}

func main() {
	seeds := flag.Int("seeds", 10, "model seeds 1 to this")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: readywait NAME TRACE...")
		os.Exit(2)
	}
	sc, err := scenarios.Load(flag.Arg(0))
	check(err)
	k, err := calibrate.DefaultTracedCosts()
	check(err)
	cfg := verify.ModelConfig(sc, k, runtime.NumCPU())
	model := acc{since: map[int64]time.Duration{}, slept: map[int64]time.Duration{}, readyP: map[int64]int64{}, running: map[int64]time.Duration{}}
	for s := 1; s <= *seeds; s++ {
		c := cfg
		c.Seed = uint64(s)
		m, err := gmp.New(c, sc.Program())
		check(err)
		m.SetSink(func(e gmp.Event) {
			model.event(e.T.D(), e.Kind.String(), int64(e.G), int64(e.P), e.Kind == gmp.KindGoBlock && e.Reason == gmp.ReasonSleep)
		})
		m.Run()
	}
	fmt.Printf("model (seeds 1-%d) main:  %s\nmodel others: %s\nmodel sleeps: %s\n", *seeds, q(model.w.main), q(model.w.other), q(model.late))
	fmt.Printf("model slices <50µs: %s\nmodel slices >=50µs: %s\n", q(model.short), q(model.long))
	fmt.Printf("model: main woken started on the waker's P %d times, on another %d\n", model.same, model.other)
	real := acc{since: map[int64]time.Duration{}, slept: map[int64]time.Duration{}, readyP: map[int64]int64{}, running: map[int64]time.Duration{}}
	for _, f := range flag.Args()[1:] {
		r, err := os.Open(f)
		check(err)
		_, err = rtrace.ReadWith(r, rtrace.Options{Scenario: true}, func(e rtrace.Event) {
			if e.G >= 0 {
				real.event(e.T, e.Kind, e.G, e.P, e.Kind == "go-block" && e.Reason == "sleep")
			}
		})
		r.Close()
		check(err)
	}
	fmt.Printf("real (%d traces) main:  %s\nreal others: %s\nreal sleeps: %s\n", flag.NArg()-1, q(real.w.main), q(real.w.other), q(real.late))
	fmt.Printf("real slices <50µs: %s\nreal slices >=50µs: %s\n", q(real.short), q(real.long))
	fmt.Printf("real: main woken started on the waker's P %d times, on another %d\n", real.same, real.other)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
