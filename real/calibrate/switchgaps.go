package calibrate

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/real/rtrace"
)

// The traced switch gaps (traced_park_gap, traced_exit_gap,
// traced_yield_gap): the idle P a trace shows from a goroutine's stop to
// the next goroutine's start, timed here in calibrate's own process.
// scripts/freshgaps times the same switches in fresh processes.

// gapBatch is how many switches one sample of a gap figure averages: a
// trace's clock moves in steps of 64ns on Linux (nanotime/64), so a
// single gap reads 0, 64 or 128ns; the mean of a batch of them, taken
// where the steps fall at random, reads the gap to a few nanoseconds.
const gapBatch = 16

// maxGapSamples bounds the gap figures' samples: their trace is held in
// memory, a few hundred bytes a sample.
const maxGapSamples = 2000

// switchGaps traces work, on one P, into memory, and returns the idle P
// the trace shows between a goroutine's stop of the kind given and the
// next goroutine's start (GapsOf): n samples, each the mean of gapBatch
// such gaps in a row. work makes at least (n+warm(n))*gapBatch switches of
// the kind. Nothing if the program is traced already.
func switchGaps(n int, kind string, work func(switches int)) []float64 {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		return nil
	}
	work((n + warm(n)) * gapBatch)
	trace.Stop()
	gaps, err := GapsOf(&buf, kind)
	if err != nil {
		return nil
	}
	samples := make([]float64, 0, n)
	for i := warm(n) * gapBatch; i+gapBatch <= len(gaps) && len(samples) < n; i += gapBatch {
		var sum float64
		for _, g := range gaps[i : i+gapBatch] {
			sum += g
		}
		samples = append(samples, sum/gapBatch)
	}
	return samples
}

// SwitchKinds are the kinds of switch whose gaps calibrate times, each by
// the event that stops the goroutine before it (the model's names, as
// package rtrace reads them): a park (go-block), an exit (go-exit), a
// runtime.Gosched (go-stop).
var SwitchKinds = map[string]string{"park": "go-block", "exit": "go-exit", "yield": "go-stop"}

// GapsOf reads a runtime trace of a program on one P and returns, in the
// trace's order, each idle P between a goroutine's stop of the kind given
// (one of SwitchKinds) and the next goroutine's start, in nanoseconds:
// the switch as the trace stamps it, which verify's model leaves between
// the same two events. A system call or a P's stop between the two makes
// no gap.
func GapsOf(r io.Reader, kind string) ([]float64, error) {
	stop, ok := SwitchKinds[kind]
	if !ok {
		return nil, fmt.Errorf("no kind of switch %q", kind)
	}
	var gaps []float64
	var stopped time.Duration
	between := false
	_, err := rtrace.Read(r, func(e rtrace.Event) {
		switch e.Kind {
		case "go-start":
			if between {
				gaps = append(gaps, float64(e.T-stopped))
			}
			between = false
		case "go-block", "go-exit", "go-stop":
			stopped, between = e.T, e.Kind == stop
		case "syscall-enter", "proc-stop":
			between = false
		}
	})
	return gaps, err
}

// Switches makes at least n switches of the kind given (one of
// SwitchKinds) with calibrate's probes, on the Ps the program has: on one
// P each is one of the gaps GapsOf reads.
func Switches(kind string, n int) error {
	switch kind {
	case "park":
		parkSwitches(n)
	case "exit":
		exitSwitches(n)
	case "yield":
		yieldSwitches(n)
	default:
		return fmt.Errorf("no kind of switch %q", kind)
	}
	return nil
}

// parkSwitches is a ping-pong through unbuffered channels on one P, each
// side computing a little before it waits for the other: each hop parks
// one goroutine and starts the other. Without the work the gap depended
// on the state the process was in, not on the machine: 76-80ns in a small
// fresh process, 80ns or 120-124ns in calibrate's, one or the other for a
// whole run (three runs of schedlab calibrate in a row: 120, 80, 124),
// while the traces of real runs of pingpong, hog-pingpong and pingpong-2p
// show 86-130ns (median 93-112ns each over 70 runs). With the work, as a
// scenario's goroutines compute between their waits, 96-104ns in every
// run.
func parkSwitches(switches int) { PingPong(switches, switchWork) }

// PingPong makes at least switches hops of a ping-pong through unbuffered
// channels, each side computing work iterations of cpuwork's loop before
// it sends to the other: on one P each hop parks one goroutine and starts
// the other. scripts/switchwork varies the work.
func PingPong(switches int, work int64) {
	ping, pong := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		var x uint64
		for range ping {
			x += cpuwork.Alone(work)
			pong <- struct{}{}
		}
		kept.Add(x)
		close(done)
	}()
	var x uint64
	for range switches/2 + 1 {
		ping <- struct{}{}
		x += cpuwork.Alone(work)
		<-pong
	}
	close(ping)
	<-done
	kept.Add(x)
}

// exitSwitches starts goroutines that compute a little and end, a
// hundred at a time on one P: each exit is followed by the next one's
// start. A scenario's goroutine exits after its work, which has taken the
// exit's path out of the caches: goroutines that ended at once measured
// 84-96ns here, where the exits in the traces of real runs of overflow,
// freelist and fairness61 (goroutines of 10-50µs) took 109-148ns (p10-p90
// of 210 runs, median 118ns), and these 104-116ns.
func exitSwitches(switches int) {
	var wg sync.WaitGroup
	for left := switches; left > 0; left -= 100 {
		wg.Add(100)
		for range 100 {
			go func() {
				kept.Add(cpuwork.Alone(switchWork))
				wg.Done()
			}()
		}
		wg.Wait()
	}
}

// switchWork is how many iterations of cpuwork's loop a goroutine of
// parkSwitches or exitSwitches computes before it waits or ends: about
// 11µs on an AMD EPYC, a constant so that every profile times the same
// switches.
const switchWork = 1 << 13

// kept keeps the switch probes' results, so that their work is not
// dropped.
var kept atomic.Uint64

// yieldSwitches has two goroutines call runtime.Gosched in turn on one
// P: each call stops one and starts the other.
func yieldSwitches(switches int) {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			for range switches/2 + 1 {
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
}
