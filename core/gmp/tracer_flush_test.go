package gmp

import (
	"github.com/schedlab/schedlab/core/sim"
	"testing"
	"time"
)

// The advancer's cut of a generation flushes every thread's buffer, full
// or not: the next full buffer takes a whole buffer's events after the
// cut. At the writer's write of the cut, the buffers hold only what came
// since; with the counts kept over the cut they would hold thousands.
func TestTraceAdvanceFlushesEveryBuffer(t *testing.T) {
	// A ping-pong on one P with 50µs of work a side: ~2s, events enough
	// for several buffers before and after the cut at 1s.
	prog := Program{Chans: []ChanDecl{{Name: "c"}},
		Main: []Op{goN(1, loop(20000, recv(0), cpu(50*time.Microsecond))), loop(20000, send(0), cpu(50*time.Microsecond)), waitKids()}}
	m, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts(), Check: true, Tracer: true}, &prog)
	if err != nil {
		t.Fatal(err)
	}
	cuts := 0
	var entered sim.Time
	m.SetSink(func(e Event) {
		if e.G != m.tr.writer {
			return
		}
		switch {
		case e.Kind == KindSyscallEnter:
			entered = e.T
			return
		case e.Kind != KindSyscallExit || e.T.Sub(entered) < traceFlushDur:
			return
		}
		cuts++
		held := 0
		for _, n := range m.tr.buf {
			held += int(n)
		}
		if held > 50 {
			t.Errorf("at %v the writer writes the cut, and the buffers hold %d events: not flushed", e.T, held)
		}
	})
	if end := m.Run(); end.Reason != MainReturned {
		t.Fatalf("the run ended %v", end.Reason)
	}
	if cuts != 1 {
		t.Errorf("%d cuts written in a run of %v, want 1", cuts, m.Now())
	}
}
