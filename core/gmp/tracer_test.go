package gmp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// newTraced is a machine for src with Config.Tracer, not yet run.
func newTraced(t *testing.T, src string) *gmp.Machine {
	t.Helper()
	sc := parse(t, src)
	cfg := sc.Config()
	cfg.Tracer = true
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runTraced runs src with Config.Tracer, handing each event to f, and
// returns the machine after its run.
func runTraced(t *testing.T, src string, f func(e *gmp.Event)) (*gmp.Machine, gmp.End) {
	t.Helper()
	m := newTraced(t, src)
	m.SetSink(func(e gmp.Event) { f(&e) })
	return m, m.Run()
}

// The tracer's reader starts runnable in P0's ring, as runtime/trace.Start
// leaves it: it runs when main first blocks, computes a few microseconds,
// sleeps 100ms, and so on for as long as the program runs. No go statement
// of the scenario makes it, and main's return ends the run with it asleep.
// The writer, in P0's runnext, runs first and writes the trace's header;
// the advancer runs once, then sleeps its second. In a program this quiet
// neither runs again.
func TestTracerReaderWakesEvery100ms(t *testing.T) {
	m := newTraced(t, "procs: 1\nmain:\n  - sleep: 350ms\n")
	first, n := m.TracerGs()
	if n != 3 || first != 2 {
		t.Fatalf("TracerGs says G%d and %d more, want G2 and 2 more, after main", first, n-1)
	}
	var starts []sim.Time
	others := map[gmp.GID]int{}
	m.SetSink(func(e gmp.Event) {
		switch {
		case e.Kind == gmp.KindGoCreate:
			t.Errorf("the tracer's goroutines are nobody's, but an event creates G%d", e.G)
		case e.Kind != gmp.KindGoStart || e.G == 1:
		case e.G == first:
			starts = append(starts, e.T)
		default:
			others[e.G]++
		}
	})
	if end := m.Run(); end.Reason != gmp.MainReturned {
		t.Fatalf("the run ended %v, want main's return", end.Reason)
	}
	if len(others) != 2 || others[first+1] != 1 || others[first+2] != 1 {
		t.Errorf("besides main and the reader, the starts were %v; want the advancer (G%d) and the writer (G%d) once each",
			others, first+1, first+2)
	}
	if len(starts) != 4 {
		t.Fatalf("the reader ran %d times in 350ms, want 4 (at main's first block, then every 100ms): %v", len(starts), starts)
	}
	if starts[0] > sim.Time(0).Add(40*time.Microsecond) {
		t.Errorf("the reader first ran at %v, want as main blocked at once, after the writer's header", starts[0])
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
	starts := map[gmp.GID]int{}
	m, end := runTraced(t, "procs: 2\nuntil: 1s\nchans: {c: 0}\nmain:\n  - recv: c\n", func(e *gmp.Event) {
		if e.Kind == gmp.KindGoStart && e.G != 1 {
			starts[e.G]++
		}
	})
	if end.Reason != gmp.UntilReached {
		t.Fatalf("the run ended %v, want it to run on to until", end.Reason)
	}
	reader, _ := m.TracerGs()
	if starts[reader] != 10 {
		t.Errorf("the reader ran %d times in 1s, want 10: at the start, then 9 wake-ups (its sleeps and wake-ups are a little over 100ms each)", starts[reader])
	}
	// The advancer ran once, its second's sleep ending just after until;
	// the writer, whose header came before the scenario, not at all.
	if len(starts) != 2 || starts[reader+1] != 1 {
		t.Errorf("the goroutines that ran besides main: %v; want the reader and the advancer (G%d) once", starts, reader+1)
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
	if first, n := m.TracerGs(); writer != first+2 || n != 3 {
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
	writer := first + 2
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
// action, leaves the reader and the advancer runnable in P0's ring and the
// writer, the last made, in its runnext; in a program whose until stops
// it, the writer has written its header before the scenario began and
// waits for a full buffer. The go statements wake an idle P's M: the model
// starts so, and that M, spinning on P1, takes the three from P0 while
// main computes, the writer writing the header there.
func TestTraceStartLeavesItsGoroutinesOnP0(t *testing.T) {
	for _, until := range []string{"", "until: 1s\n"} {
		m := newTraced(t, "procs: 2\n"+until+"main:\n  - cpu: 1ms\n")
		reader, _ := m.TracerGs()
		advancer, writer := reader+1, reader+2
		for _, g := range []gmp.GID{reader, advancer} {
			if x := m.G(g); x.Status != gmp.Grunnable || x.Where != (gmp.Loc{Kind: gmp.LocRunq, ID: 0}) {
				t.Errorf("%q: at the start G%d is %v at %v; want runnable in P0's ring", until, g, x.Status, x.Where)
			}
		}
		w := m.G(writer)
		switch {
		case until == "" && (w.Status != gmp.Grunnable || w.Where != (gmp.Loc{Kind: gmp.LocRunnext, ID: 0})):
			t.Errorf("at the start the writer is %v at %v; want runnable in P0's runnext", w.Status, w.Where)
		case until != "" && (w.Status != gmp.Gwaiting || w.Where.Kind != gmp.LocTraceWait):
			t.Errorf("with until, at the start the writer is %v at %v; want waiting for a full buffer", w.Status, w.Where)
		}
		woke := false
		ranOnP1 := map[gmp.GID]bool{}
		var header time.Duration
		var entered sim.Time
		m.SetSink(func(e gmp.Event) {
			switch {
			case e.Kind == gmp.KindMStart && e.T == 0 && e.P == 1:
				woke = true
			case e.Kind == gmp.KindGoStart && e.P == 1:
				ranOnP1[e.G] = true
			case e.Kind == gmp.KindSyscallEnter && e.G == writer:
				entered = e.T
			case e.Kind == gmp.KindSyscallExit && e.G == writer:
				header += e.T.Sub(entered)
			}
		})
		if end := m.Run(); end.Reason != gmp.MainReturned {
			t.Fatalf("%q: the run ended %v", until, end.Reason)
		}
		if !woke || !ranOnP1[reader] || !ranOnP1[advancer] {
			t.Errorf("%q: P1's M started at 0: %v; P1 ran the reader: %v, the advancer: %v; want all", until, woke, ranOnP1[reader], ranOnP1[advancer])
		}
		switch {
		case until == "" && (!ranOnP1[writer] || header < 25*time.Microsecond || header > 30*time.Microsecond):
			t.Errorf("the writer ran on P1: %v, writing for %v; want its header's 25µs write there", ranOnP1[writer], header)
		case until != "" && header != 0:
			t.Errorf("with until, the writer wrote for %v in a run that filled no buffer; want nothing", header)
		}
	}
}

// The advancer wakes every second to cut a generation: it takes its P for
// traceAdvanceDur, and the writer then runs first, with a new time slice,
// to write what it flushed (traceFlushDur), as in the real traces of
// timer-bursts and pingpong-table at 1s: 253-373µs, then a 44-69µs write.
func TestTraceAdvancerCutsAGenerationEverySecond(t *testing.T) {
	type slice struct {
		g      gmp.GID
		from   sim.Time
		length time.Duration
	}
	var cuts, writes []slice
	var advancer, writer gmp.GID
	started := map[gmp.GID]sim.Time{}
	var entered sim.Time
	m, end := runTraced(t, "procs: 1\nmain:\n  - sleep: 2500ms\n", func(e *gmp.Event) {
		switch e.Kind {
		case gmp.KindGoStart:
			started[e.G] = e.T
			if e.Rule == gmp.RuleTraceReader {
				writer = e.G
			}
		case gmp.KindGoBlock:
			if e.T > sim.Time(0).Add(500*time.Millisecond) && e.T.Sub(started[e.G]) > 200*time.Microsecond {
				advancer = e.G
				cuts = append(cuts, slice{e.G, started[e.G], e.T.Sub(started[e.G])})
			}
		case gmp.KindSyscallEnter:
			entered = e.T
		case gmp.KindSyscallExit:
			if e.T > sim.Time(0).Add(500*time.Millisecond) {
				writes = append(writes, slice{e.G, entered, e.T.Sub(entered)})
			}
		}
	})
	if end.Reason != gmp.MainReturned {
		t.Fatalf("the run ended %v", end.Reason)
	}
	first, _ := m.TracerGs()
	if advancer != first+1 || writer != first+2 {
		t.Fatalf("the long slice was G%d's and the writer's start G%d's; want the advancer G%d's and the writer G%d's",
			advancer, writer, first+1, first+2)
	}
	if len(cuts) != 2 || len(writes) != 2 {
		t.Fatalf("in 2.5s, %d cuts and %d writes after the start, want 2 of each (at 1s and 2s): %v %v", len(cuts), len(writes), cuts, writes)
	}
	for i, c := range cuts {
		at := sim.Time(0).Add(time.Duration(i+1) * time.Second)
		if c.from < at || c.from > at.Add(3*time.Millisecond) {
			t.Errorf("cut %d began at %v, want shortly after %v", i+1, c.from, at)
		}
		// The cut, and the advancer's moment before its sleep.
		if c.length < 270*time.Microsecond || c.length > 275*time.Microsecond {
			t.Errorf("cut %d took %v, want about 270µs", i+1, c.length)
		}
		w := writes[i]
		if w.g != writer || w.from < c.from.Add(c.length) || w.length < 45*time.Microsecond || w.length > 50*time.Microsecond {
			t.Errorf("after cut %d, G%d wrote at %v for %v; want the writer, after the cut, about 45µs", i+1, w.g, w.from, w.length)
		}
	}
}

// A real program's main makes runtime/trace.Start's go statements some
// tens of microseconds before its scenario begins, and their wakep wakes
// a thread for the idle P then. With Config.TracerLead the model's
// thread, woken as the run starts, is that far along: it brings its P up
// that much sooner, and at the start at the soonest.
func TestTracerLeadBringsTheWokenThreadSooner(t *testing.T) {
	const src = "procs: 2\nstart: warm\nmain:\n  - go: {count: 4, do: [{cpu: 1ms}]}\n  - wait: children\n"
	firstProcStart := func(lead time.Duration) sim.Time {
		t.Helper()
		sc := parse(t, src)
		cfg := sc.Config()
		cfg.Tracer, cfg.TracerLead = true, lead
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		at := sim.Time(-1)
		m.SetSink(func(e gmp.Event) {
			if e.Kind == gmp.KindProcStart && e.P == 1 && at < 0 {
				at = e.T
			}
		})
		m.Run()
		if at < 0 {
			t.Fatalf("with a lead of %v, P1 never started", lead)
		}
		return at
	}
	without := firstProcStart(0)
	wake := gmp.DefaultCosts().WakeM
	if without != sim.Time(wake) {
		t.Fatalf("without a lead, P1 starts at %v, want a wake-up's %v", without.D(), wake)
	}
	if got := firstProcStart(wake / 2); got != without-sim.Time(wake/2) {
		t.Errorf("with a lead of %v, P1 starts at %v, want %v", wake/2, got.D(), (without - sim.Time(wake/2)).D())
	}
	if got := firstProcStart(gmp.MaxTracerLead); got != 0 {
		t.Errorf("with a lead longer than the wake-up, P1 starts at %v, want the start", got.D())
	}
}

func TestTracerLeadBounded(t *testing.T) {
	for _, cfg := range []gmp.Config{
		{Procs: 2, Tracer: true, TracerLead: -time.Nanosecond},
		{Procs: 2, Tracer: true, TracerLead: gmp.MaxTracerLead + 1},
		{Procs: 2, TracerLead: time.Microsecond},
	} {
		if _, err := gmp.New(cfg, &gmp.Program{Name: "p"}); err == nil || !strings.Contains(err.Error(), "tracer lead") {
			t.Errorf("%+v: got %v, want an error about the tracer lead", cfg, err)
		}
	}
}
