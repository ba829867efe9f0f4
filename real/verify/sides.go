package verify

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/real/rtrace"
)

// Model runs prog in the model under cfg and measures it. A run that ends
// with an error (a deadlock, a panic, a broken invariant) is returned with
// its figures and the end, for the caller to report.
func Model(prog *gmp.Program, cfg gmp.Config) (Observables, gmp.End, error) {
	m, err := gmp.New(cfg, prog)
	if err != nil {
		return Observables{}, gmp.End{}, err
	}
	rec := NewRecorder(cfg.Procs)
	var output []string
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindPrint:
			output = append(output, e.Text())
		case gmp.KindGoCreate, gmp.KindGoStart, gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit,
			gmp.KindSyscallEnter, gmp.KindSyscallExit:
			p := int64(e.P)
			if e.P == gmp.NoP {
				p = -1
			}
			// A handoff's yield (goyield) is a Gosched in the model's
			// words; runtime/trace records it as a preemption, and the
			// real side is counted from the trace.
			preempted := e.Reason == gmp.ReasonPreempted || e.Rule == gmp.RuleGoyield
			rec.Event(e.T.D(), e.Kind.String(), int64(e.G), p, preempted)
		}
	})
	end := m.Run()
	if end.Reason == gmp.UntilReached {
		// The run went on to until, after its last event: a real run's
		// window, too, ends when until stops it (ScenarioEnd), not at
		// the scenario's last event before.
		rec.End(m.Now().D())
	}
	obs := rec.Observables()
	obs.Output = output
	return obs, end, nil
}

// Real measures the trace of a program schedlab real generated, run with
// procs Ps.
func Real(trace io.Reader, procs int) (Observables, *rtrace.Summary, error) {
	rec := NewRecorder(procs)
	runtime := func(e rtrace.Event) { rec.RuntimeEvent(e.T, e.Kind, e.G, e.P) }
	sum, err := rtrace.ReadWith(trace, rtrace.Options{Scenario: true, Runtime: runtime}, func(e rtrace.Event) {
		if e.G >= 0 {
			rec.Event(e.T, e.Kind, e.G, e.P, e.Reason == "preempted")
		}
	})
	if err != nil {
		return Observables{}, sum, fmt.Errorf("reading the real run's trace: %w", err)
	}
	rec.End(sum.ScenarioEnd)
	obs := rec.Observables()
	obs.RuntimeSyscall = sum.RuntimeSyscall
	obs.RuntimeStarts = sum.RuntimeStarts
	return obs, sum, nil
}
