package gmp_test

import (
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

// The tracer's reader sleeps 100ms, computes a few microseconds, and
// sleeps again, for as long as the program runs; no go statement makes
// it, and main's return ends the run with it asleep.
func TestTracerReaderWakesEvery100ms(t *testing.T) {
	var starts []sim.Time
	var reader gmp.GID
	m, end := runTraced(t, "procs: 1\nmain:\n  - sleep: 350ms\n", func(e *gmp.Event) {
		switch e.Kind {
		case gmp.KindGoCreate:
			t.Errorf("the reader is nobody's goroutine, but an event creates G%d", e.G)
		case gmp.KindGoStart:
			if e.G != 1 {
				reader = e.G
				starts = append(starts, e.T)
			}
		}
	})
	if end.Reason != gmp.MainReturned {
		t.Fatalf("the run ended %v, want main's return", end.Reason)
	}
	if reader != m.TracerG() || reader == gmp.NoG {
		t.Errorf("the goroutine that ran beside main is G%d, TracerG says G%d", reader, m.TracerG())
	}
	if len(starts) != 3 {
		t.Fatalf("the reader ran %d times in 350ms, want 3: %v", len(starts), starts)
	}
	for i, at := range starts {
		due := sim.Time(0).Add(time.Duration(i+1) * 100 * time.Millisecond)
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
	if starts != 9 {
		t.Errorf("the reader ran %d times in 1s, want 9 (its sleeps and wake-ups are a little over 100ms each)", starts)
	}
}

// Without Config.Tracer there is no reader.
func TestNoTracerByDefault(t *testing.T) {
	sc := parse(t, "procs: 1\nmain:\n  - sleep: 350ms\n")
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	if g := m.TracerG(); g != gmp.NoG {
		t.Errorf("TracerG is G%d on an untraced run", g)
	}
}
