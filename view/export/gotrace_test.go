package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/exp/trace"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// step is a goroutine's or a P's change of state at a time, as the model
// says it and as a reader of the trace reads it.
type step struct {
	t  int64 // ns
	to string
}

// modelSteps runs sc under cfg into a Go execution trace and returns the
// trace and the changes the model's events make, by goroutine ("G5")
// and P ("P1"), in the words of golang.org/x/exp/trace's states.
func modelSteps(t *testing.T, sc *scenarios.Scenario, cfg gmp.Config) ([]byte, map[string][]step) {
	t.Helper()
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	g := NewGoTrace(&buf, m)
	want := map[string][]step{"G1": {{1, "Runnable"}}, "P0": {{1, "Running"}}}
	for p := 1; p < cfg.Procs; p++ {
		want[fmt.Sprint("P", p)] = []step{{1, "Idle"}}
	}
	add := func(what string, ts gmp.Event, to string) {
		want[what] = append(want[what], step{int64(ts.T) + 1, to})
	}
	x := Both(g, sinkFunc(func(e gmp.Event) {
		if e.M == gmp.NoM {
			return
		}
		gs, ps := e.G.String(), e.P.String()
		switch e.Kind {
		case gmp.KindGoCreate, gmp.KindGoStop, gmp.KindGoUnblock:
			add(gs, e, "Runnable")
		case gmp.KindGoStart:
			add(gs, e, "Running")
		case gmp.KindGoBlock:
			add(gs, e, "Waiting")
		case gmp.KindGoExit:
			add(gs, e, "NotExist")
		case gmp.KindSyscallEnter:
			add(gs, e, "Syscall")
		case gmp.KindSyscallExit:
			if e.Rule != gmp.RuleExitsyscallFast {
				add(gs, e, "Runnable")
			}
			if e.To.Kind == gmp.LocRunning {
				add(gs, e, "Running")
			}
		case gmp.KindProcStart:
			add(ps, e, "Running")
		case gmp.KindProcStop, gmp.KindProcSteal:
			add(ps, e, "Idle")
		}
	}))
	Run(m, x)
	if err := x.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

type sinkFunc func(gmp.Event)

func (f sinkFunc) Event(e gmp.Event)      { f(e) }
func (f sinkFunc) End(*gmp.Machine) error { return nil }

// readSteps reads a Go execution trace with golang.org/x/exp/trace, the
// reader go tool trace's is, which holds every thread's events to the
// runtime's rules (a goroutine starts only when runnable, on a thread
// holding a P; a P is stolen only from a thread in a syscall; sequence
// numbers agree across threads), and returns each goroutine's and P's
// changes of state.
func readSteps(data []byte) (map[string][]step, error) {
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	got := map[string][]step{}
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		switch st.Resource.Kind {
		case trace.ResourceGoroutine:
			_, to := st.Goroutine()
			g := fmt.Sprint("G", st.Resource.Goroutine())
			got[g] = append(got[g], step{int64(ev.Time()), to.String()})
		case trace.ResourceProc:
			_, to := st.Proc()
			p := fmt.Sprint("P", st.Resource.Proc())
			got[p] = append(got[p], step{int64(ev.Time()), to.String()})
		}
	}
}

// A run of the model written as a Go execution trace reads back, for
// every built-in on 1, 2 and 8 Ps, with the reader's own checks, and says
// what the model says: each goroutine and each P goes through the same
// states at the same times.
func TestGoTraceReadsBackAsTheModelRan(t *testing.T) {
	for _, sc := range builtins(t) {
		for _, procs := range []int{sc.Procs, 1, 8} {
			cfg := sc.ConfigWith(scenarios.Overrides{Procs: procs})
			data, want := modelSteps(t, sc, cfg)
			got, err := readSteps(data)
			if err != nil {
				t.Errorf("%s on %d Ps: %v", sc.Name, procs, err)
				continue
			}
			var bad []string
			for k, w := range want {
				if !sameSteps(got[k], w) {
					bad = append(bad, fmt.Sprintf("%s: model %v, trace %v", k, head(w), head(got[k])))
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					bad = append(bad, k+": in the trace, not in the model")
				}
			}
			if len(bad) > 0 {
				slices.Sort(bad)
				t.Errorf("%s on %d Ps: %d resources differ:\n%s", sc.Name, procs, len(bad), strings.Join(bad[:min(len(bad), 5)], "\n"))
			}
		}
	}
}

func head(s []step) []step { return s[:min(len(s), 6)] }

// sameSteps says whether a trace's steps are the model's: the same
// states in the same order, each at the model's time or a few
// nanoseconds after it. A thread's timestamps increase strictly in the
// format, so the events of one instant on one thread are read a
// nanosecond apart.
func sameSteps(got, want []step) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].to != want[i].to || got[i].t < want[i].t || got[i].t > want[i].t+goTraceTieSpread {
			return false
		}
	}
	return true
}

// goTraceTieSpread bounds how far a reader moves an event of an instant
// shared with others on its thread: the model emits at most a few dozen
// events at one instant on one thread.
const goTraceTieSpread = 64

// Where a goroutine was created is the scenario line of its go
// statement: go tool trace groups goroutines by it.
func TestGoTraceStacksAreScenarioLines(t *testing.T) {
	sc, err := scenarios.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := modelSteps(t, sc, sc.Config())
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	created := map[string]int{}
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		if from, _ := st.Goroutine(); from != trace.GoNotExist {
			continue
		}
		for f := range st.Stack.Frames() {
			created[fmt.Sprintf("%s %s:%d", f.Func, f.File, f.Line)]++
		}
	}
	want := map[string]int{"go at line 7 builtin/tour.yaml:7": 6, "go at line 12 builtin/tour.yaml:12": 1, "go at line 16 builtin/tour.yaml:16": 1}
	if fmt.Sprint(created) != fmt.Sprint(want) {
		t.Errorf("creations by stack %v, want %v", created, want)
	}
}
