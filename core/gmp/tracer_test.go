package gmp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// runTraced runs src with Config.Tracer, handing each event to f, and
// returns the machine after its run.
func runTraced(t *testing.T, src string, f func(e *gmp.Event)) (*gmp.Machine, gmp.End) {
	t.Helper()
	sc := parse(t, src)
	cfg := sc.Config()
	cfg.Tracer = true
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	m.SetSink(func(e gmp.Event) { f(&e) })
	return m, m.Run()
}

// The tracer's reader starts runnable in P0's ring, as runtime/trace.Start
// leaves it: it runs when main first blocks, computes a few microseconds,
// sleeps 100ms, and so on for as long as the program runs. No go statement
// of the scenario makes it, and main's return ends the run with it asleep.
// The writer waits for a full buffer and, in a program this quiet, never
// runs.
func TestTracerReaderWakesEvery100ms(t *testing.T) {
	var starts []sim.Time
	var reader gmp.GID
	m, end := runTraced(t, "procs: 1\nmain:\n  - sleep: 350ms\n", func(e *gmp.Event) {
		switch e.Kind {
		case gmp.KindGoCreate:
			t.Errorf("the reader is nobody's goroutine, but an event creates G%d", e.G)
		case gmp.KindGoStart:
			if e.G != 1 {
				if reader != gmp.NoG && e.G != reader {
					t.Errorf("G%d started beside main and G%d", e.G, reader)
				}
				reader = e.G
				starts = append(starts, e.T)
			}
		}
	})
	if end.Reason != gmp.MainReturned {
		t.Fatalf("the run ended %v, want main's return", end.Reason)
	}
	if first, n := m.TracerGs(); reader != first || n != 2 {
		t.Errorf("the goroutine that ran beside main is G%d; TracerGs says G%d and %d more", reader, first, n-1)
	}
	if len(starts) != 4 {
		t.Fatalf("the reader ran %d times in 350ms, want 4 (at main's first block, then every 100ms): %v", len(starts), starts)
	}
	if starts[0] > sim.Time(0).Add(time.Microsecond) {
		t.Errorf("the reader first ran at %v, want as main blocked at once", starts[0])
	}
	for i, at := range starts[1:] {
		due := starts[0].Add(time.Duration(i+1) * 100 * time.Millisecond)
		// Each wake-up is at least its 100ms after the last sleep began,
		// and late by no more than a netpoll round (epoll's milliseconds).
		if at < due || at > due.Add(time.Duration(i+1)*2*time.Millisecond) {
			t.Errorf("wake-up %d at %v, want shortly after %v", i+1, at, due)
		}
	}
}

// As in the runtime, a traced program that deadlocks is not reported:
// the reader's timer is pending, so the program runs on, the reader
// waking every 100ms, until the run's limit.
func TestTracerReaderKeepsADeadlockRunning(t *testing.T) {
	starts := 0
	_, end := runTraced(t, "procs: 2\nuntil: 1s\nchans: {c: 0}\nmain:\n  - recv: c\n", func(e *gmp.Event) {
		if e.Kind == gmp.KindGoStart && e.G != 1 {
			starts++
		}
	})
	if end.Reason != gmp.UntilReached {
		t.Fatalf("the run ended %v, want it to run on to until", end.Reason)
	}
	if starts != 10 {
		t.Errorf("the reader ran %d times in 1s, want 10: at the start, then 9 wake-ups (its sleeps and wake-ups are a little over 100ms each)", starts)
	}
}

// Without Config.Tracer there is no reader.
func TestNoTracerByDefault(t *testing.T) {
	sc := parse(t, "procs: 1\nmain:\n  - sleep: 350ms\n")
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	if g, n := m.TracerGs(); g != gmp.NoG || n != 0 {
		t.Errorf("TracerGs is G%d and %d on an untraced run", g, n)
	}
}

// A traced ping-pong fills a trace buffer every 11,545 events, and the
// scheduler runs the trace's writer first, with a new time slice, before
// anything else: sysmon never sees a slice reach 10ms, and the pair beside
// a hog on one P (hogAndPingPong) is never preempted, as in the real traced
// runs (52 writes and no preempted slice in 100ms, docs/fidelity.md), where
// untraced the model preempts it.
func TestTraceWriterRunsFirstWithANewSlice(t *testing.T) {
	writes, preempted := 0, 0
	var writer gmp.GID
	src := hogAndPingPong100ms(t)
	m, _ := runTraced(t, src, func(e *gmp.Event) {
		switch {
		case e.Kind == gmp.KindGoStart && e.Rule == gmp.RuleTraceReader:
			writes++
			writer = e.G
		case e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted:
			preempted++
		}
	})
	if first, n := m.TracerGs(); writer != first+1 || n != 2 {
		t.Errorf("the writer is G%d; TracerGs says G%d and %d more", writer, first, n-1)
	}
	if writes < 20 || writes > 80 {
		t.Errorf("the writer ran %d times in 100ms of ping-pong, want tens (the real runs: 52)", writes)
	}
	if preempted != 0 {
		t.Errorf("traced, %d slices preempted, want none: the writer's starts begin new slices", preempted)
	}
	untraced := 0
	runEach(t, src, 1, false, func(e *gmp.Event) {
		if e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted {
			untraced++
		}
	})
	if untraced == 0 {
		t.Error("untraced, no slice preempted: the test shows nothing")
	}
}

// The writer's buffers fill with the events a trace records whether or
// not anything reads the model's events: a traced run with no sink is
// the same run, event for event.
func TestTraceBuffersFillWithoutASink(t *testing.T) {
	sc := parse(t, hogAndPingPong100ms(t))
	cfg := sc.Config()
	cfg.Tracer = true
	cfg.NoCauses = true // else the causes read every event, sink or not
	run := func(sink bool) (int, uint64) {
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		if sink {
			m.SetSink(func(gmp.Event) {})
		}
		m.Run()
		return m.Emitted(), m.Steps()
	}
	e1, s1 := run(true)
	e2, s2 := run(false)
	if e1 != e2 || s1 != s2 {
		t.Errorf("with a sink %d events in %d steps, without %d in %d", e1, s1, e2, s2)
	}
}

// hogAndPingPong100ms is hogAndPingPong for hog-pingpong's 100ms, the
// length the real runs were measured over.
func hogAndPingPong100ms(t *testing.T) string {
	src := strings.Replace(hogAndPingPong, "until: 300ms", "until: 100ms", 1)
	if src == hogAndPingPong {
		t.Fatal("hogAndPingPong no longer says until: 300ms")
	}
	return src
}

// The writer's write is a write, not a scenario's syscall action, which
// verify lengthens by the nanosleep's slack (Costs.SyscallSlack): it
// lasts its 25µs and the syscall's own overhead, whatever that slack.
func TestTraceWriterWriteIsNoNanosleep(t *testing.T) {
	sc := parse(t, hogAndPingPong100ms(t))
	cfg := sc.Config()
	cfg.Tracer = true
	cfg.Costs = gmp.DefaultCosts()
	cfg.Costs.SyscallSlack = time.Millisecond
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	first, _ := m.TracerGs()
	writer := first + 1
	var entered sim.Time = -1
	writes := 0
	m.SetSink(func(e gmp.Event) {
		if e.G != writer {
			return
		}
		switch e.Kind {
		case gmp.KindSyscallEnter:
			entered = e.T
		case gmp.KindSyscallExit:
			writes++
			if d := e.T.Sub(entered); d > 30*time.Microsecond {
				t.Errorf("a write lasted %v, want about 25µs: the syscall action's slack lengthened it", d)
			}
		}
	})
	m.Run()
	if writes == 0 {
		t.Fatal("the writer wrote nothing")
	}
}

// runtime/trace.Start, run by main on P0 just before the scenario's first
// action, leaves the reader runnable in P0's ring and the writer waiting
// for a full buffer, and its go statements wake an idle P's M: the model
// starts so, and that M, spinning on P1, takes the reader from P0's ring
// while main computes.
func TestTraceStartLeavesTheReaderInP0sRing(t *testing.T) {
	sc := parse(t, "procs: 2\nmain:\n  - cpu: 1ms\n")
	cfg := sc.Config()
	cfg.Tracer = true
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	reader, _ := m.TracerGs()
	if r, w := m.G(reader), m.G(reader+1); r.Status != gmp.Grunnable || r.Where.Kind != gmp.LocRunq || r.Where.ID != 0 ||
		w.Status != gmp.Gwaiting || w.Where.Kind != gmp.LocTraceWait {
		t.Errorf("at the start the reader is %v at %v and the writer %v at %v; want runnable in P0's ring, and waiting for a full buffer",
			r.Status, r.Where, w.Status, w.Where)
	}
	woke, stolen := false, false
	m.SetSink(func(e gmp.Event) {
		switch {
		case e.Kind == gmp.KindMStart && e.T == 0 && e.P == 1:
			woke = true
		case e.Kind == gmp.KindGoStart && e.G == reader && e.P == 1:
			stolen = true
		}
	})
	if end := m.Run(); end.Reason != gmp.MainReturned {
		t.Fatalf("the run ended %v", end.Reason)
	}
	if !woke || !stolen {
		t.Errorf("P1's M started at 0: %v; P1 ran the reader: %v; want both", woke, stolen)
	}
}
