package verify

import (
	"fmt"
	"io"
	"time"

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
	// The tracer's goroutines (Config.Tracer) are the runtime's, as in a
	// real trace: their events go where a real trace's runtime goroutines'
	// go, and the scenario's goroutines made after them take the numbers
	// they have without them, as rtrace numbers a real trace's.
	first, n := m.TracerGs()
	tracer, tracers := int64(first), int64(n)
	// The goroutine each M runs, from its start to its stop: a go-unblock
	// by an M that runs none is the runtime's (a timer, the poller), as a
	// real trace's go-unblock without a goroutine is.
	running := map[gmp.MID]bool{}
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindGoStart:
			running[e.M] = true
		case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
			delete(running, e.M)
		}
		p := int64(e.P)
		if e.P == gmp.NoP {
			p = -1
		}
		g := int64(e.G)
		switch {
		case e.Kind == gmp.KindPrint:
			output = append(output, e.Text())
		case e.Kind == gmp.KindProcStart:
			rec.ProcStart(e.T.D())
		case tracers > 0 && g >= tracer && g < tracer+tracers:
			switch e.Kind {
			case gmp.KindGoUnblock, gmp.KindGoStart, gmp.KindGoStop, gmp.KindGoBlock, gmp.KindSyscallExit:
				rec.RuntimeEvent(e.T.D(), e.Kind.String(), g, p)
			}
		case e.Kind == gmp.KindGoCreate, e.Kind == gmp.KindGoStart, e.Kind == gmp.KindGoStop, e.Kind == gmp.KindGoBlock,
			e.Kind == gmp.KindGoExit, e.Kind == gmp.KindSyscallEnter, e.Kind == gmp.KindSyscallExit, e.Kind == gmp.KindGoUnblock:
			if tracers > 0 && g >= tracer+tracers {
				g -= tracers
			}
			if e.Kind == gmp.KindGoUnblock && !running[e.M] {
				rec.RuntimeWake(g)
			}
			rec.Event(e.T.D(), e.Kind.String(), g, p, tracedAsPreempted(e))
		}
	})
	end := m.Run()
	if end.Reason == gmp.UntilReached {
		// The run went on to until, after its last event: a real run's
		// window, too, ends when until stops it (realUntil), not at the
		// scenario's last event before.
		rec.EndAtUntil(m.Now().D())
	}
	obs := rec.Observables()
	obs.Output = output
	obs.CPUTime, _ = m.CPUTimes()
	return obs, end, nil
}

// Real measures the trace of a program schedlab real generated, run with
// procs Ps.
func Real(trace io.Reader, procs int) (Observables, *rtrace.Summary, error) {
	return realUntil(trace, procs, 0)
}

// realUntil is Real for a program whose run until stops (0: none): its
// window closes until after it opened, as the model's does. The real
// program's until is a goroutine that sleeps that long and then stops the
// trace, and on a P busy with a goroutine that computes it waits for that
// goroutine's preemption (preempt's three hogs on one P: the real windows
// ran to 156–159ms of an until of 150ms, and took in an eighth preempted
// slice, the one that let the stopping goroutine run): that wait is the
// instrument's, not the scenario's.
func realUntil(trace io.Reader, procs int, until time.Duration) (Observables, *rtrace.Summary, error) {
	rec := NewRecorder(procs)
	f := &stopFilter{rec: rec, until: until}
	sum, err := rtrace.ReadWith(trace, rtrace.Options{Scenario: true, Runtime: f.runtime}, f.scenario)
	if err != nil {
		return Observables{}, sum, fmt.Errorf("reading the real run's trace: %w", err)
	}
	f.end(sum.ScenarioEnd)
	obs := rec.Observables()
	obs.RuntimeSyscall = sum.RuntimeSyscall
	obs.RuntimeStarts = sum.RuntimeStarts
	obs.CPUTime = sum.CPUTime
	obs.TracerLead = sum.TracerLead
	return obs, sum, nil
}

// tracedAsPreempted says whether runtime/trace would record the model's
// event e as a preempted goroutine's stop: a preemption, and the yield of
// a sync.Mutex's unlock in starvation mode after it hands the lock to a
// waiter (goyield_m writes GoPreempt, not GoSched; the model names its
// reason Gosched, its sibling). A real trace cannot tell the two apart,
// so the model's side counts both.
func tracedAsPreempted(e gmp.Event) bool {
	return e.Kind == gmp.KindGoStop && (e.Reason == gmp.ReasonPreempted || e.Rule == gmp.RuleGoyield)
}

// stopFilter passes a real trace's events to a Recorder, holding back the
// preempted stops of the scenario's goroutines other than main, with
// every event after them, until a later event of the scenario's other
// than their own restart shows that the program went on. Trailing ones,
// with nothing of the scenario's after them but those goroutines starting
// again, are trace.Stop's stop of the world: its preemptall stops each
// goroutine still running, which the trace records as a preemption
// (gopreempt_m), and the world's start runs them again while the trace
// is flushed. Main has left the scenario by then and the model's
// program has exited: they close the window rather than count. timer-2p's
// hog, running when main returns, showed one such "preempted slice" in
// every real run, where the model's showed none. A program schedlab real
// writes now marks the scenario's end in its trace, before trace.Stop
// (rtrace.EndMarkCategory), and its window ends at the mark, which these
// stops come after; a program written before the mark has only them.
type stopFilter struct {
	rec         *Recorder
	held        []rtrace.Event
	heldRuntime []bool
	// until, if set, closes the window that long after it opened.
	until time.Duration
}

// past says whether t is past until, and closes the window there if it
// is: the held events came before it, and the program went on after them.
func (f *stopFilter) past(t time.Duration) bool {
	if f.until <= 0 || !f.rec.seen || t <= f.rec.first+f.until {
		return false
	}
	f.flush()
	f.rec.EndAtUntil(f.rec.first + f.until)
	return true
}

func (f *stopFilter) scenario(e rtrace.Event) {
	// A P's start belongs to no goroutine; the Recorder counts those in
	// the window (Observables.ProcStarts). One after a held stop waits
	// with it: trace.Stop's start of the world starts Ps too.
	if e.Kind == "proc-start" {
		switch {
		case f.past(e.T):
		case len(f.held) > 0:
			f.held, f.heldRuntime = append(f.held, e), append(f.heldRuntime, false)
		default:
			f.rec.ProcStart(e.T)
		}
		return
	}
	// Main's set-up before the scenario is the program's, not the
	// scenario's: the window opens at main's first event after it
	// (Recorder), as the model's opens with main in the scenario.
	if e.G < 0 || e.BeforeScenario || f.past(e.T) {
		return
	}
	if e.Kind == "go-stop" && e.Reason == "preempted" && e.G != mainG || e.Kind == "go-start" && f.stopped(e.G) {
		f.held, f.heldRuntime = append(f.held, e), append(f.heldRuntime, false)
		return
	}
	f.flush()
	f.pass(e)
}

// pass gives the Recorder one of the scenario's events; a go-unblock by
// no goroutine is the runtime's (Recorder.RuntimeWake).
func (f *stopFilter) pass(e rtrace.Event) {
	if e.Kind == "go-unblock" && e.G2 < 0 {
		f.rec.RuntimeWake(e.G)
	}
	f.rec.Event(e.T, e.Kind, e.G, e.P, e.Reason == "preempted")
}

// stopped says whether g's preempted stop is held: once the world
// starts again, the goroutine runs on until the trace ends.
func (f *stopFilter) stopped(g int64) bool {
	for i, e := range f.held {
		if !f.heldRuntime[i] && e.G == g && e.Kind == "go-stop" {
			return true
		}
	}
	return false
}

func (f *stopFilter) runtime(e rtrace.Event) {
	if f.past(e.T) {
		return
	}
	if len(f.held) > 0 {
		f.held, f.heldRuntime = append(f.held, e), append(f.heldRuntime, true)
		return
	}
	f.rec.RuntimeEvent(e.T, e.Kind, e.G, e.P)
}

// flush passes the held events on, in their order: the program went on
// after them.
func (f *stopFilter) flush() {
	for i, e := range f.held {
		switch {
		case f.heldRuntime[i]:
			f.rec.RuntimeEvent(e.T, e.Kind, e.G, e.P)
		case e.Kind == "proc-start":
			f.rec.ProcStart(e.T)
		default:
			f.pass(e)
		}
	}
	f.held, f.heldRuntime = f.held[:0], f.heldRuntime[:0]
}

// end closes the window at the scenario's end, or at the first of the
// trailing stops if they came before it.
func (f *stopFilter) end(scenarioEnd time.Duration) {
	if len(f.held) > 0 {
		scenarioEnd = min(scenarioEnd, f.held[0].T)
	}
	if f.until > 0 && f.rec.seen && f.rec.first+f.until <= scenarioEnd {
		f.rec.EndAtUntil(f.rec.first + f.until)
		return
	}
	f.rec.End(scenarioEnd)
}
