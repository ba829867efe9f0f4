package replay

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/rtrace"
	"github.com/schedlab/schedlab/scenarios"
)

// MaxEvents is the most events a run keeps: a longer trace is cut there,
// and the run's Note says so.
const MaxEvents = 2_000_000

// FromTrace reads a runtime trace. With scenario set it reads a trace of
// a program schedlab real generated, in the scenario's numbering
// (rtrace.Options.Scenario).
func FromTrace(r io.Reader, scenario bool) (*Run, *rtrace.Summary, error) {
	var events []Event
	cut := 0
	procs := 0
	sum, err := rtrace.ReadWith(r, rtrace.Options{Scenario: scenario}, func(e rtrace.Event) {
		if len(events) >= MaxEvents {
			cut++
			return
		}
		procs = max(procs, int(e.P)+1)
		events = append(events, Event{T: e.T, Kind: e.Kind, G: e.G, G2: e.G2, P: e.P, M: e.M, Reason: e.Reason})
	})
	if err != nil {
		return nil, sum, err
	}
	run := New("real", procs, events, func(i int) string {
		e := events[i]
		return rtrace.Event{T: e.T, Kind: e.Kind, G: e.G, G2: e.G2, P: e.P, M: e.M, Reason: e.Reason}.Describe()
	})
	run.Note = "a runtime trace does not record run queues: runnable goroutines are listed, not placed in runnext, a ring or the global queue"
	if cut > 0 {
		run.Note = fmt.Sprintf("only the first %d events are shown; %d more are in the trace (schedlab trace FILE --format none summarises it whole)", MaxEvents, cut)
	}
	return run, sum, nil
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
		events = append(events, Event{T: e.T.D(), Kind: e.Kind.String(), G: gid(e.G), G2: gid(e.G2), P: int64(e.P), M: int64(e.M)})
		raw = append(raw, e)
	})
	end := m.Run()
	run := New("model", cfg.Procs, events, func(i int) string { return desc.Describe(raw[i]) })
	if cut > 0 {
		run.Note = fmt.Sprintf("only the first %d events are shown; the run had %d more", MaxEvents, cut)
	}
	return run, end, nil
}

func gid(g gmp.GID) int64 {
	if g == gmp.NoG {
		return -1
	}
	return int64(g)
}
