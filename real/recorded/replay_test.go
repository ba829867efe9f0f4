package recorded

import (
	"fmt"
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
	if s := r.StateAfter(10); s.Count(GDead) != 1 {
		t.Errorf("G2's exit is not counted: %v", s.Gs)
	}
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
	s := &State{Procs: make([]Proc, cfg.Procs), Gs: map[int64]GState{}}
	for i := range s.Procs {
		s.Procs[i] = Proc{M: -1, G: -1}
	}
	// Enough events to cross several checkpoints.
	for i, e := range events {
		s.apply(e)
		if i%397 != 0 && i != len(events)-1 {
			continue
		}
		got := r.StateAfter(i)
		if !slices.Equal(got.Procs, s.Procs) || fmt.Sprint(got.Gs) != fmt.Sprint(s.Gs) {
			t.Fatalf("after event %d the checkpointed state differs from the replayed one", i)
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
