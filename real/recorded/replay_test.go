package recorded

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func ev(t int, kind string, g int64, p, m int32) Event {
	k, ok := gmp.ParseKind(kind)
	if !ok {
		panic("no kind " + kind)
	}
	return Event{T: time.Duration(t) * time.Millisecond, Kind: k, G: g, G2: -1, P: p, M: m}
}

func describeKind(events []Event) func(int) string {
	return func(i int) string { return events[i].Kind.String() }
}

func TestStateFollowsTheEvents(t *testing.T) {
	events := []Event{
		ev(0, "proc-start", -1, 0, 0),
		ev(0, "go-start", 1, 0, 0),
		ev(1, "go-create", 2, 0, 0),
		ev(2, "proc-start", -1, 1, 3),
		ev(2, "go-start", 2, 1, 3),
		ev(3, "syscall-enter", 2, 1, 3),
		ev(4, "proc-steal", -1, 1, -1),
		ev(5, "go-block", 1, 0, 0),
		ev(6, "syscall-exit", 2, -1, 3),
		ev(7, "go-start", 2, 0, 0),
		ev(8, "go-exit", 2, 0, 0),
	}
	r := New("test", 2, events, describeKind(events))
	for _, c := range []struct {
		after     int
		procs     []Proc
		running   []int64
		runnable  []int64
		waiting   []int64
		inSyscall []int64
	}{
		{-1, []Proc{{-1, -1, 0}, {-1, -1, 0}}, nil, nil, nil, nil},
		{2, []Proc{{0, 1, 0}, {-1, -1, 0}}, []int64{1}, []int64{2}, nil, nil},
		{4, []Proc{{0, 1, 0}, {3, 2, 2 * time.Millisecond}}, []int64{1, 2}, nil, nil, nil},
		{6, []Proc{{0, 1, 0}, {-1, -1, 2 * time.Millisecond}}, []int64{1}, nil, nil, []int64{2}},
		{8, []Proc{{0, -1, 0}, {-1, -1, 2 * time.Millisecond}}, nil, []int64{2}, []int64{1}, nil},
		{10, []Proc{{0, -1, 7 * time.Millisecond}, {-1, -1, 2 * time.Millisecond}}, nil, nil, []int64{1}, nil},
	} {
		s := r.StateAfter(c.after)
		if !slices.Equal(s.Procs, c.procs) {
			t.Errorf("after event %d: Ps %+v, want %+v", c.after, s.Procs, c.procs)
		}
		for _, x := range []struct {
			st   GState
			want []int64
		}{{GRunning, c.running}, {GRunnable, c.runnable}, {GWaiting, c.waiting}, {GSyscall, c.inSyscall}} {
			if got := s.List(x.st); !slices.Equal(got, x.want) {
				t.Errorf("after event %d: %v %v, want %v", c.after, x.st, got, x.want)
			}
		}
	}
	if s := r.StateAfter(10); s.Count(GDead) != 1 || s.Of(2) != GDead || s.Of(1) != GWaiting || s.Of(3) != 0 {
		t.Errorf("G2's exit is not counted: %d exited, G1 %v, G2 %v, G3 %v", s.Count(GDead), s.Of(1), s.Of(2), s.Of(3))
	}
}

// naive is what a run's kept states must agree with: every goroutine in
// a map, every event replayed from the first.
type naive struct {
	t     time.Duration
	procs []Proc
	gs    map[int64]GState
}

func newNaive(procs int) *naive {
	n := &naive{procs: make([]Proc, procs), gs: map[int64]GState{}}
	for i := range n.procs {
		n.procs[i] = Proc{M: -1, G: -1}
	}
	return n
}

func (n *naive) apply(e Event) {
	n.t = e.T
	var p *Proc
	if e.P >= 0 {
		p = &n.procs[e.P]
	}
	set := func(st GState) {
		if e.G >= 0 {
			n.gs[e.G] = st
		}
	}
	leave := func() {
		if p != nil && p.G == e.G {
			p.G = -1
		}
	}
	switch e.Kind {
	case gmp.KindGoCreate, gmp.KindGoUnblock:
		set(GRunnable)
	case gmp.KindGoStop:
		set(GRunnable)
		leave()
	case gmp.KindGoStart:
		set(GRunning)
		if p != nil {
			p.G, p.Since, p.M = e.G, e.T, int64(e.M)
		}
	case gmp.KindGoBlock:
		set(GWaiting)
		leave()
	case gmp.KindGoExit:
		set(GDead)
		leave()
	case gmp.KindSyscallEnter:
		set(GSyscall)
	case gmp.KindSyscallExit:
		if e.P < 0 {
			set(GRunnable)
			break
		}
		set(GRunning)
		p.G, p.M = e.G, int64(e.M)
	case gmp.KindProcStart:
		if p != nil {
			p.M = int64(e.M)
		}
	case gmp.KindProcStop, gmp.KindProcSteal:
		if p != nil {
			if e.Kind == gmp.KindProcSteal {
				p.G = -1
			}
			p.M = -1
		}
	}
}

// differs says how got, a run's state, differs from the naive replay's.
func (n *naive) differs(got *State) string {
	if got.T != n.t {
		return fmt.Sprintf("time %v, want %v", got.T, n.t)
	}
	if !slices.Equal(got.Procs, n.procs) {
		return fmt.Sprintf("Ps %v, want %v", got.Procs, n.procs)
	}
	want := map[GState][]int64{}
	for g, st := range n.gs {
		want[st] = append(want[st], g)
	}
	for st := GRunnable; st <= GDead; st++ {
		slices.Sort(want[st])
		if got.Count(st) != len(want[st]) {
			return fmt.Sprintf("%d %v, want %d", got.Count(st), st, len(want[st]))
		}
		if l := got.List(st); !slices.Equal(l, want[st]) {
			return fmt.Sprintf("%v: %v, want %v", st, l, want[st])
		}
		if f := got.First(st, 3); !slices.Equal(f, want[st][:min(3, len(want[st]))]) {
			return fmt.Sprintf("first 3 %v: %v, want %v", st, f, want[st][:min(3, len(want[st]))])
		}
	}
	for g, st := range n.gs {
		if got.Of(g) != st {
			return fmt.Sprintf("G%d %v, want %v", g, got.Of(g), st)
		}
		break // one will do: List covered them all
	}
	return ""
}

// TestStateAfterAgreesWithReplayingFromTheStart checks the checkpoints:
// jumping to any event gives the state a replay from the first gives.
func TestStateAfterAgreesWithReplayingFromTheStart(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Until = 60 * time.Millisecond
	run, _, err := FromModel(sc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	events := run.Events
	if len(events) < 3*checkpointEvery {
		t.Fatalf("only %d events: the test needs more than %d", len(events), 3*checkpointEvery)
	}
	r := New("test", cfg.Procs, events, describeKind(events))
	n := newNaive(cfg.Procs)
	if d := n.differs(r.StateAfter(-1)); d != "" {
		t.Fatalf("before the first event: %s", d)
	}
	// Enough events to cross several checkpoints.
	for i, e := range events {
		n.apply(e)
		if i%397 != 0 && i != len(events)-1 {
			continue
		}
		if d := n.differs(r.StateAfter(i)); d != "" {
			t.Fatalf("after event %d the checkpointed state differs from the replayed one: %s", i, d)
		}
	}
}

// synthetic returns a seeded stream of n events over about gs
// goroutines, each kind as likely as the next: the states need not make
// sense for a replay to agree with another. The goroutines' ids are
// sparse and come in as the run goes on, as a trace's do, and one is
// huge.
func synthetic(seed uint64, n, gs, procs int) []Event {
	rng := rand.New(rand.NewPCG(seed, 1))
	kinds := []gmp.Kind{
		gmp.KindGoCreate, gmp.KindGoStart, gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoUnblock, gmp.KindGoExit,
		gmp.KindSyscallEnter, gmp.KindSyscallExit, gmp.KindProcStart, gmp.KindProcStop, gmp.KindProcSteal,
		gmp.KindRunqOverflow, // names a goroutine, changes no state
	}
	events := make([]Event, n)
	for i := range events {
		e := Event{T: time.Duration(i) * time.Microsecond, G: -1, G2: -1, P: int32(rng.IntN(procs+1)) - 1, M: int32(rng.IntN(8))}
		e.Kind = kinds[rng.IntN(len(kinds))]
		if e.Kind < gmp.KindProcStart || e.Kind > gmp.KindProcSteal {
			// Mostly the goroutines of the moment, sometimes any seen.
			hi := max(i*gs/n, 1)
			x := hi - 1 - rng.IntN(min(hi, 64))
			if rng.IntN(8) == 0 {
				x = rng.IntN(hi)
			}
			e.G = int64(x)*1_000_003 + 17
			if x == gs/2 {
				e.G = 1 << 62
			}
		}
		events[i] = e
	}
	return events
}

// TestStateAfterAgreesOnManyGoroutines is the same property over seeded
// random streams with tens of thousands of goroutines, where the kept
// goroutine states are sparse and a seek replays thousands of events.
func TestStateAfterAgreesOnManyGoroutines(t *testing.T) {
	for seed := range uint64(3) {
		const events, gs, procs = 120_000, 40_000, 5
		evs := synthetic(seed, events, gs, procs)
		r := New("test", procs, evs, describeKind(evs))
		if r.gEvery <= checkpointEvery || len(r.gMarks) < 4 {
			t.Fatalf("seed %d: goroutine states kept every %d events, %d times: the test crosses too few", seed, r.gEvery, len(r.gMarks))
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		// Random positions, in order, so that one naive replay serves.
		at := make([]int, 60)
		for k := range at {
			at[k] = rng.IntN(events)
		}
		at = append(at, 0, events-1, r.gEvery-1, r.gEvery, 2*r.gEvery-1)
		slices.Sort(at)
		n := newNaive(procs)
		done := -1
		for _, i := range at {
			for ; done < i; done++ {
				n.apply(evs[done+1])
			}
			if d := n.differs(r.StateAfter(i)); d != "" {
				t.Fatalf("seed %d, after event %d: %s", seed, i, d)
			}
		}
	}
}

func TestAtFindsTheLastEventAtOrBefore(t *testing.T) {
	events := []Event{ev(1, "go-start", 1, 0, 0), ev(3, "go-stop", 1, 0, 0), ev(3, "go-start", 1, 0, 0), ev(9, "go-exit", 1, 0, 0)}
	r := New("test", 1, events, describeKind(events))
	for ms, want := range map[int]int{0: -1, 1: 0, 2: 0, 3: 2, 8: 2, 9: 3, 100: 3} {
		if got := r.At(time.Duration(ms) * time.Millisecond); got != want {
			t.Errorf("At(%dms) = %d, want %d", ms, got, want)
		}
	}
}

func TestSegmentsCutAtTheWindow(t *testing.T) {
	events := []Event{
		ev(0, "go-start", 1, 0, 0), ev(2, "go-block", 1, 0, 0),
		ev(3, "go-start", 2, 0, 0), ev(6, "go-stop", 2, 0, 0),
		ev(6, "go-start", 3, 0, 0),
	}
	r := New("test", 1, events, describeKind(events))
	var got []Segment
	ms := time.Millisecond
	r.Segments(0, 1*ms, 8*ms, func(s Segment) { got = append(got, s) })
	want := []Segment{{1 * ms, 2 * ms, 1}, {3 * ms, 6 * ms, 2}, {6 * ms, 8 * ms, 3}}
	if !slices.Equal(got, want) {
		t.Errorf("segments %v, want %v", got, want)
	}
}

func TestModelRunsDescribeTheirEvents(t *testing.T) {
	sc, err := scenarios.Load("runnext")
	if err != nil {
		t.Fatal(err)
	}
	r, end, err := FromModel(sc, sc.Config())
	if err != nil || end.Err != nil {
		t.Fatal(err, end.Err)
	}
	if len(r.Events) == 0 || r.Text(0) == "" || r.Text(0) == r.Events[0].Kind.String() {
		t.Errorf("the model's first event reads %q", r.Text(0))
	}
}
