package recorded

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/rtrace"
)

// MaxEvents is the most events a run keeps: a longer trace is cut there,
// and the run's Note says so.
const MaxEvents = 2_000_000

// MaxProcs is the highest P number a trace may name: a P's state is kept
// at its number, so a trace naming P 2,000,000,000 would otherwise ask for
// gigabytes. No machine runs that many Ps.
const MaxProcs = 1 << 14

// FromTrace reads a runtime trace, up to MaxEvents of its events. With
// scenario set it reads a trace of a program schedlab real generated, in
// the scenario's numbering (rtrace.Options.Scenario). size, if known, is
// the trace's length in bytes: room for its events is made at once
// rather than grown, which copies.
func FromTrace(r io.Reader, scenario bool, size int64) (*Run, *rtrace.Summary, error) {
	return fromTrace(func(visit func(rtrace.Event)) (*rtrace.Summary, error) {
		return rtrace.ReadWith(r, rtrace.Options{Scenario: scenario, Limit: MaxEvents}, visit)
	}, size)
}

// fromTrace is FromTrace over read, which visits a trace's events.
func fromTrace(read func(visit func(rtrace.Event)) (*rtrace.Summary, error), size int64) (*Run, *rtrace.Summary, error) {
	// A scheduler event takes about 5 bytes of a trace.
	events := make([]Event, 0, min(max(size/5, 0), MaxEvents))
	reasons := newInterner()
	procs := 0
	badP := int64(-1)
	kinds := map[string]gmp.Kind{} // ParseKind searches; a trace has a dozen kinds
	sum, err := read(func(e rtrace.Event) {
		if e.P >= MaxProcs || e.P < -1 {
			if badP == -1 {
				badP = e.P
			}
			return
		}
		kind, ok := kinds[e.Kind]
		if !ok {
			kind, _ = gmp.ParseKind(e.Kind)
			kinds[e.Kind] = kind
		}
		procs = max(procs, int(e.P)+1)
		events = append(events, Event{T: e.T, Kind: kind, G: e.G, G2: e.G2, P: int32(e.P), M: int32(e.M), Reason: reasons.index(e.Reason)})
	})
	if err != nil {
		return nil, sum, err
	}
	if badP != -1 {
		return nil, sum, fmt.Errorf("the trace names P%d: the view shows Ps 0 to %d", badP, MaxProcs-1)
	}
	run := New("real", procs, events, func(i int) string {
		e := events[i]
		return rtrace.Event{T: e.T, Kind: e.Kind.String(), G: e.G, G2: e.G2, P: int64(e.P), M: int64(e.M), Reason: reasons.list[e.Reason]}.Describe()
	})
	run.Note = "a runtime trace does not record run queues: runnable goroutines are listed, not placed in runnext, a ring or the global queue"
	if sum.Truncated {
		run.Note = fmt.Sprintf("only the first %d events are shown: the trace goes on (schedlab trace FILE --format none summarises it whole)", MaxEvents)
	}
	return run, sum, nil
}

// interner numbers a trace's reasons, which are few: "" is 0.
type interner struct {
	ids  map[string]uint16
	list []string
}

func newInterner() *interner {
	return &interner{ids: map[string]uint16{"": 0}, list: []string{""}}
}

func (n *interner) index(s string) uint16 {
	if id, ok := n.ids[s]; ok {
		return id
	}
	if len(n.list) > 1<<16-1 {
		return 0 // a reason past the 65,535th is not kept
	}
	id := uint16(len(n.list))
	n.ids[s] = id
	n.list = append(n.list, s)
	return id
}

// FromModel runs sc in the model with cfg and keeps every event, each with
// the model's sentence.
func FromModel(sc *scenarios.Scenario, cfg gmp.Config) (*Run, gmp.End, error) {
	prog := sc.Program()
	m, err := gmp.New(cfg, prog)
	if err != nil {
		return nil, gmp.End{}, err
	}
	desc := gmp.NewDescriber(prog)
	var (
		events []Event
		raw    []gmp.Event
	)
	cut := 0
	m.SetSink(func(e gmp.Event) {
		if len(events) >= MaxEvents {
			cut++
			return
		}
		events = append(events, Event{T: e.T.D(), Kind: e.Kind, G: gid(e.G), G2: gid(actor(&e)), P: int32(e.P), M: int32(e.M)})
		raw = append(raw, e)
	})
	end := m.Run()
	run := New("model", cfg.Procs, events, func(i int) string { return desc.Describe(raw[i]) })
	if cut > 0 {
		run.Note = fmt.Sprintf("only the first %d events are shown; the run had %d more", MaxEvents, cut)
	}
	return run, end, nil
}

// actor is the goroutine acting on e's, as a runtime trace records it:
// the creator of a new goroutine, the waker of a readied one.
func actor(e *gmp.Event) gmp.GID {
	if g := e.Creator(); g != gmp.NoG {
		return g
	}
	return e.Waker()
}

func gid(g gmp.GID) int64 {
	if g == gmp.NoG {
		return -1
	}
	return int64(g)
}
