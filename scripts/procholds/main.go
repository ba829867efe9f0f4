// Command procholds says how a scenario's idle Ps are taken up and given
// back, in real runs' traces and in the model's runs as verify makes them
// (this machine's profile, traced costs, verify's configuration): how
// long a P started with nothing to run was held before it stopped again
// (its thread looked and found nothing, at once or after runqgrab's
// usleep back-offs) or before it ran a goroutine that had been on another
// P (a steal); and how soon after a P stopped one was started again. The
// last look findRunnable takes after giving its P back can find work and
// take a P at once, a few hundred nanoseconds on; a parked thread woken
// for one takes microseconds or more.
//
// Where verify says the model starts Ps more often than the real runs
// (its note on P migrations), this says which of these differs.
//
//	schedlab real pingpong-2p --runs 10 --emit DIR
//	go run ./scripts/procholds [-seeds 10] pingpong-2p DIR/run-*.trace
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/real/verify"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// buckets bounds the classes a duration falls in: below the first,
// below the second, …, and at or past the last.
type buckets []time.Duration

// holdBuckets part a P's holds: a look that found nothing (under 5µs),
// one usleep back-off (50–130µs: usleep(3) with the timer slack), more.
var holdBuckets = buckets{5 * time.Microsecond, 50 * time.Microsecond, 130 * time.Microsecond}

// gapBuckets part the gaps from a P's stop to the next start: the last
// look's (under 2µs), a woken thread's (microseconds on), longer.
var gapBuckets = buckets{2 * time.Microsecond, 10 * time.Microsecond, 30 * time.Microsecond, 100 * time.Microsecond}

func (b buckets) count(d []time.Duration) []int {
	n := make([]int, len(b)+1)
	for _, x := range d {
		n[probe.Bucket(b, x)]++
	}
	return n
}

func (b buckets) line(d []time.Duration) string {
	n := b.count(d)
	parts := probe.BucketNames(b, time.Duration.String)
	for i, c := range n {
		parts[i] += fmt.Sprintf(" %d", c)
	}
	return strings.Join(parts, ", ")
}

// tally follows one run's events at a time (begin starts the next).
type tally struct {
	runs, starts int
	// idle are the holds that ended with nothing run; stole the holds
	// that ended when a goroutine last run on another P started.
	idle, stole []time.Duration
	// gaps are the times from a P's stop to the next P's start; quick
	// those of them under gapBuckets[0].
	gaps, quick []time.Duration

	// moved counts the goroutines that started on a P other than their
	// last; kept those of them on a P that had run a goroutine since its
	// last start, but none for over keptFor: its thread kept it that long
	// without running anything, as two threads that take turns on one
	// CPU by the kernel's ticks, each holding its P, do.
	moved, kept int

	since    map[int64]time.Duration // a P's start, while nothing ran on it
	lastP    map[int64]int64         // the P each goroutine last ran on
	lastStop time.Duration           // -1: no stop since the last start
	ran      map[int64]bool          // a P ran a goroutine since its start
	lastRun  map[int64]time.Duration // when a P last started a goroutine
}

// keptFor is how long a P kept by its thread ran nothing before a
// goroutine moved onto it, for tally.kept: a turn's length is a tick or
// a base slice, and a usleep back-off a tenth of a millisecond.
const keptFor = time.Millisecond

func newTally() *tally { return &tally{} }

func (t *tally) begin() {
	t.runs++
	t.since = map[int64]time.Duration{}
	t.lastP = map[int64]int64{}
	t.lastStop = -1
	t.ran = map[int64]bool{}
	t.lastRun = map[int64]time.Duration{}
}

// procStart is P p's start at at; running marks a P already running when
// the trace began, which is no start.
func (t *tally) procStart(at time.Duration, p int64, running bool) {
	if running {
		return
	}
	t.starts++
	t.ran[p] = false
	t.since[p] = at
	if t.lastStop >= 0 {
		g := at - t.lastStop
		t.gaps = append(t.gaps, g)
		if g < gapBuckets[0] {
			t.quick = append(t.quick, g)
		}
	}
	t.lastStop = -1
}

func (t *tally) procStop(at time.Duration, p int64) {
	if s, ok := t.since[p]; ok {
		t.idle = append(t.idle, at-s)
		delete(t.since, p)
	}
	t.lastStop = at
}

func (t *tally) goStart(at time.Duration, g, p int64) {
	if last, ok := t.lastP[g]; ok && last != p {
		t.moved++
		if t.ran[p] && at-t.lastRun[p] > keptFor {
			t.kept++
		}
		if s, ok := t.since[p]; ok {
			t.stole = append(t.stole, at-s)
		}
	}
	t.lastP[g] = p
	t.ran[p] = true
	t.lastRun[p] = at
	delete(t.since, p)
}

func (t *tally) report(w io.Writer, side string) {
	fmt.Fprintf(w, "%s: %d P starts in %d runs, %.1f a run\n", side, t.starts, t.runs, float64(t.starts)/float64(max(t.runs, 1)))
	fmt.Fprintf(w, "  held, then given back with nothing run: %d (%s)\n", len(t.idle), holdBuckets.line(t.idle))
	fmt.Fprintf(w, "  held until a goroutine from another P ran: %d (%s)\n", len(t.stole), holdBuckets.line(t.stole))
	fmt.Fprintf(w, "  goroutines that moved to another P: %d, %d of them onto a P whose thread had kept it, running nothing, for over %v\n", t.moved, t.kept, keptFor)
	fmt.Fprintf(w, "  from a P's stop to the next start: %s\n", gapBuckets.line(t.gaps))
	if len(t.quick) > 0 {
		s := probe.Summarize(t.quick)
		fmt.Fprintf(w, "  the starts under %v after a stop came p10 %v, median %v, p90 %v after it\n", gapBuckets[0], time.Duration(s.P10), time.Duration(s.Middle), time.Duration(s.P90))
	}
}

func main() {
	seeds := flag.Int("seeds", 10, "run the model with seeds 1 to this")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: procholds [-seeds N] NAME TRACE...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || *seeds < 0 {
		flag.Usage()
		os.Exit(2)
	}
	sc, err := scenarios.Load(flag.Arg(0))
	check(err)
	if *seeds > 0 {
		check(model(os.Stdout, sc, *seeds))
	}
	if flag.NArg() > 1 {
		check(real(os.Stdout, flag.Args()[1:]))
	}
}

// model runs sc as verify does, with this machine's profile.
func model(w io.Writer, sc *scenarios.Scenario, seeds int) error {
	k, err := calibrate.DefaultTracedCosts()
	if err != nil {
		return err
	}
	cfg := verify.ModelConfig(sc, k, runtime.NumCPU())
	t := newTally()
	for s := 1; s <= seeds; s++ {
		c := cfg
		c.Seed = uint64(s)
		m, err := gmp.New(c, sc.Program())
		if err != nil {
			return err
		}
		t.begin()
		// The tracer's goroutines are left out, as a scenario's trace
		// leaves out the runtime's own.
		tracer, n := m.TracerGs()
		m.SetSink(func(e gmp.Event) {
			at := e.T.D()
			switch e.Kind {
			case gmp.KindProcStart:
				t.procStart(at, int64(e.P), false)
			case gmp.KindProcStop:
				t.procStop(at, int64(e.P))
			case gmp.KindGoStart:
				if e.G < tracer || e.G >= tracer+gmp.GID(n) {
					t.goStart(at, int64(e.G), int64(e.P))
				}
			}
		})
		m.Run()
	}
	t.report(w, fmt.Sprintf("model (seeds 1-%d)", seeds))
	return nil
}

// real reads the traces of schedlab real --emit.
func real(w io.Writer, paths []string) error {
	t := newTally()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		t.begin()
		_, err = rtrace.ReadWith(f, rtrace.Options{Scenario: true}, func(e rtrace.Event) {
			switch e.Kind {
			case "proc-start":
				t.procStart(e.T, e.P, e.Reason == rtrace.AlreadyRunning)
			case "proc-stop":
				t.procStop(e.T, e.P)
			case "go-start":
				if e.G >= 0 {
					t.goStart(e.T, e.G, e.P)
				}
			}
		})
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	t.report(w, fmt.Sprintf("real (%d traces)", len(paths)))
	return nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "procholds:", err)
		os.Exit(1)
	}
}
