// Package rtrace reads a runtime trace of a real Go program (Go 1.22 and
// later, through golang.org/x/exp/trace) into schedlab's vocabulary: the
// same event kinds as the model's (go-create, go-start, go-block,
// go-unblock, syscall-enter, proc-steal…) with a sentence each, and a
// summary of the Ps, threads and goroutines. It streams: a trace of any
// length is read event by event.
//
// A runtime trace records what each goroutine and P did, not the
// scheduler's queues: it cannot show runnext, a P's ring, the global
// queue, or which goroutines a steal took (only on which P each one next
// runs). Those are what the model shows beside it.
package rtrace

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/exp/trace"

	"github.com/schedlab/schedlab/internal/safetext"
)

// AlreadyRunning is the Reason of the go-start and proc-start a trace
// opens with, for the goroutines and Ps already running when it began.
const AlreadyRunning = "running when the trace began"

// Event is one thing a real program's scheduler did, in the model's words.
type Event struct {
	T      time.Duration // since the first event of the trace
	Kind   string        // as the model's kinds: go-start, proc-stop…
	G      int64         // the goroutine concerned, or -1
	G2     int64         // the goroutine acting on it (creator, waker), or -1
	P      int64         // the P it happened on, or -1
	M      int64         // the thread, or -1
	Reason string        // why a goroutine stopped or blocked, as the trace says
	// BeforeScenario marks, in a scenario's trace, main's events before
	// its first act in the scenario (Summary.BeforeScenario).
	BeforeScenario bool
}

// Describe says what e means, as the model's describer would.
func (e Event) Describe() string {
	g, g2 := "G"+fmt.Sprint(e.G), "G"+fmt.Sprint(e.G2)
	p, m := "P"+fmt.Sprint(e.P), "M"+fmt.Sprint(e.M)
	switch e.Kind {
	case "go-create":
		if e.G2 >= 0 {
			return g2 + " creates " + g
		}
		return g + " is created"
	case "go-start":
		if e.Reason == AlreadyRunning {
			return p + " is running " + g + " on " + m + " when the trace begins"
		}
		return p + " runs " + g + " on " + m
	case "go-stop":
		return g + " stops running on " + p + " (" + e.Reason + "): it goes back to a run queue"
	case "go-block":
		return g + " blocks (" + e.Reason + ")"
	case "go-unblock":
		if e.G2 >= 0 {
			return g2 + " makes " + g + " runnable"
		}
		return g + " is made runnable by the runtime (a timer, the network poller, the GC)"
	case "go-exit":
		return g + " exits"
	case "syscall-enter":
		return g + " enters a system call on " + p + " (" + m + ")"
	case "syscall-exit":
		return g + " returns from a system call" + map[bool]string{true: " and goes on", false: " without its P: it has to be scheduled again"}[e.Reason == ""]
	case "proc-start":
		if e.Reason == AlreadyRunning {
			return m + " is running " + p + " when the trace begins"
		}
		return m + " starts running " + p
	case "proc-stop":
		return m + " stops running " + p
	case "proc-steal":
		return p + " is taken from its thread, whose goroutine is in a system call"
	}
	return e.Kind
}

// Summary is what a whole trace shows.
type Summary struct {
	Events     int
	Span       time.Duration
	Goroutines int // goroutines created during the trace
	Ps, Ms     int
	// Kinds counts the events of each kind.
	Kinds map[string]int
	// Running is how long each P ran goroutines.
	Running map[int64]time.Duration
	// In a scenario's trace (Options.Scenario), RuntimeGoroutines is how
	// many other goroutines the trace shows and RuntimeEvents how many of
	// their events were left out.
	RuntimeGoroutines, RuntimeEvents int
	// RuntimeSyscall is how long, in a scenario's trace, the runtime's own
	// goroutines spent in system calls. runtime/trace's writer is one of
	// them: the tracer is part of what a traced run measures, and the
	// model runs no tracer.
	RuntimeSyscall time.Duration
	// RuntimeStarts is how many times, in a scenario's trace, the
	// runtime's own goroutines started running. Each start takes a P from
	// the scenario's goroutines for a while, one taken from a run queue
	// begins a new time slice there, and one woken by a timer (runtime/trace's CPU-sample reader
	// wakes every 100ms) ends sysmon's deep sleep: in a traced run the
	// tracer takes part in what sysmon sees.
	RuntimeStarts int
	// Truncated says that reading stopped at Options.Limit.
	Truncated bool
	// In a scenario's trace, ScenarioEnd is when main returned from the
	// scenario (since the trace's first event): the mark main logs then
	// (EndMarkCategory), else, in a program generated before the mark,
	// its first event in the program's own code after it (closing
	// standard output), else the end of the trace, which main's
	// runtime/trace.Stop ends after it returned. AfterScenario counts
	// the scenario goroutines' events from then on, which are left out:
	// when main returns, the program the scenario describes has exited.
	ScenarioEnd   time.Duration
	AfterScenario int
	// CPUTime is the CPU time the program's process had, in user and
	// kernel mode, from just before main entered the scenario to just
	// after its end mark, which main logs after the mark (CPUTimePrefix). Zero in a trace
	// without one, as a program generated before it was measured.
	CPUTime time.Duration
	// TracerLead, in a scenario's trace, is the time from main's first go
	// statement of a runtime goroutine (runtime/trace.Start's: its wakep
	// wakes an idle thread for an idle P) to main's first act in the
	// scenario: how far along that thread's wake-up already is when the
	// scenario begins. Zero if the trace shows no such go statement
	// before the scenario.
	TracerLead time.Duration
	// BeforeScenario counts the events of main, other than its start
	// when the trace begins, before its first act in the scenario, each
	// visited with Event.BeforeScenario: a program with an until hands
	// its stopper a channel there, and main blocks on the send, is woken
	// and starts again while the stopper and the tracer's goroutines
	// start (forever-cooperative: 56µs, 50µs of them the runtime's on the
	// one P). The model's main starts in the scenario. A program that
	// never enters one (not generated by schedlab real) has all of them
	// so marked.
	BeforeScenario int
}

// Options say how to read a trace.
type Options struct {
	// Scenario reads the trace of a program schedlab real generated from
	// a scenario. Its goroutines take the scenario's numbering: G1 is
	// main, and each goroutine a scenario goroutine creates, or a timer
	// starts (time.AfterFunc, as a pool's purge is), is numbered in the
	// order of creation, as the model numbers them. The runtime's own
	// goroutines (the GC's workers, the trace reader…) are shown apart:
	// their events are counted, not visited, and an event that names one
	// as its actor names no actor.
	Scenario bool
	// Limit, if not zero, stops reading after this many events have been
	// visited; the summary then covers them and says Truncated.
	Limit int
	// Runtime, if set, sees the events of the runtime's own goroutines
	// that Scenario sets apart, with the trace's goroutine numbers: which
	// P each one took, and for how long.
	Runtime func(Event)
}

// traceError is an error of the trace reader, which quotes the trace's
// own strings in it as they are, however long and whatever their bytes
// ("multiple strings with the same ID: …, new=…, existing=…"): its message
// shows the reader's brief (safetext.Brief), and it wraps the reader's
// error whole.
type traceError struct {
	what string
	err  error
}

func (e traceError) Error() string { return e.what + ": " + safetext.Brief(e.err.Error()) }
func (e traceError) Unwrap() error { return e.err }

// Read reads the trace in r, calling visit for each scheduler event, and
// returns the summary.
func Read(r io.Reader, visit func(Event)) (*Summary, error) {
	return ReadWith(r, Options{}, visit)
}

// ReadWith is Read as o says.
func ReadWith(r io.Reader, o Options, visit func(Event)) (*Summary, error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, traceError{"not a Go runtime trace (Go 1.22 or later)", err}
	}
	s := &Summary{Kinds: map[string]int{}, Running: map[int64]time.Duration{}}
	ps, ms := map[int64]bool{}, map[int64]bool{}
	runningSince := map[int64]trace.Time{}
	var first trace.Time
	started := false
	nums := newNumbering()
	runtimeWork := runtimeActivity{}
	var last trace.Time
	entered, ended := false, false
	// When main created the first of the runtime's goroutines, before the
	// scenario (Summary.TracerLead).
	var tracerAt trace.Time
	tracerSeen := false
	for {
		ev, err := guard(tr.ReadEvent)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return s, traceError{"reading the trace", err}
		}
		if !started {
			first, started = ev.Time(), true
		}
		last = max(last, ev.Time())
		if o.Scenario && !ended && isEndMark(ev) {
			ended = true
			s.ScenarioEnd = time.Duration(ev.Time() - first)
			continue
		}
		if o.Scenario && ended && s.CPUTime == 0 {
			if d, ok := cpuTimeMark(ev); ok {
				s.CPUTime = d
				continue
			}
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st, err := transition(ev)
		if err != nil {
			return s, traceError{"reading the trace", err}
		}
		out, ok := convert(ev, st)
		if !ok {
			continue
		}
		if o.Limit > 0 && s.Events >= o.Limit {
			s.Truncated = true
			break
		}
		if o.Scenario && !nums.renumber(ev, st, &out, s) {
			if !entered && !tracerSeen && out.Kind == "go-create" && ev.Goroutine() == mainGoID {
				tracerAt, tracerSeen = ev.Time(), true
			}
			runtimeWork.observe(out, ev.Time(), s)
			if o.Runtime != nil && !ended {
				out.T = time.Duration(ev.Time() - first)
				o.Runtime(out)
			}
			continue
		}
		if o.Scenario && !ended {
			where, err := inScenario(ev)
			if err != nil {
				return s, traceError{"reading the trace", err}
			}
			switch {
			case where == yes:
				if !entered && tracerSeen {
					s.TracerLead = time.Duration(ev.Time() - tracerAt)
				}
				entered = true
			case where == no && entered:
				// Only once main was seen in it: a trace of another
				// program has no scenario to leave.
				ended = true
				s.ScenarioEnd = time.Duration(ev.Time() - first)
			case !entered && out.G == 1 && out.Reason != AlreadyRunning:
				s.BeforeScenario++
				out.BeforeScenario = true
			}
		}
		if ended {
			s.AfterScenario++
			continue
		}
		out.T = time.Duration(ev.Time() - first)
		s.Span = out.T
		if out.P >= 0 {
			ps[out.P] = true
		}
		if out.M >= 0 {
			ms[out.M] = true
		}
		switch out.Kind {
		case "go-create":
			s.Goroutines++
		case "go-start", "syscall-exit":
			if out.P >= 0 {
				runningSince[out.P] = ev.Time()
			}
		case "go-stop", "go-block", "go-exit", "syscall-enter":
			if since, ok := runningSince[out.P]; ok && out.P >= 0 {
				s.Running[out.P] += time.Duration(ev.Time() - since)
				delete(runningSince, out.P)
			}
		}
		s.Events++
		s.Kinds[out.Kind]++
		if visit != nil {
			visit(out)
		}
	}
	s.Ps, s.Ms = len(ps), len(ms)
	s.RuntimeGoroutines = len(nums.runtime)
	if o.Scenario && !ended && started {
		s.ScenarioEnd = time.Duration(last - first)
	}
	return s, nil
}

// scenarioFunc is the function a generated program's main goroutine runs
// the scenario in (package prog); main.main around it starts and stops
// the trace and closes standard output.
const scenarioFunc = "main.scenario"

type answer int

const (
	unknown answer = iota
	yes
	no
)

// The mark a scenario's program logs in its trace when main returns from
// the scenario (real/prog writes it): trace.Log(ctx, EndMarkCategory,
// EndMarkMessage). Without it, a program whose goroutines still ran when
// main returned had its window stretched to the end of the trace:
// runtime/trace.Stop stops the world to flush, which stops and restarts
// those goroutines: in timer-2p, whose G2 computes on, G2 was stopped
// and restarted 27-42µs after main last started (four runs).
const (
	EndMarkCategory = "schedlab"
	EndMarkMessage  = "scenario returned"
)

// CPUTimePrefix begins the message main logs after its end mark, in
// EndMarkCategory: the CPU time its process had from just before the
// scenario to the mark (getrusage's user and system time), in decimal
// nanoseconds (Summary.CPUTime).
const CPUTimePrefix = "cpu time "

// maxCPUTime bounds the CPU time a mark may give: a trace is untrusted
// input, and no run of a scenario takes a CPU-day.
const maxCPUTime = 24 * time.Hour

// cpuTimeMark reads main's mark of its CPU time, if ev is one.
func cpuTimeMark(ev trace.Event) (time.Duration, bool) {
	if ev.Kind() != trace.EventLog || ev.Goroutine() != 1 {
		return 0, false
	}
	l := ev.Log()
	return parseCPUTime(l.Category, l.Message)
}

// parseCPUTime reads a log's category and message as main's mark of its
// CPU time: only decimal digits after the prefix, a time above zero and
// no more than maxCPUTime.
func parseCPUTime(category, message string) (time.Duration, bool) {
	digits, ok := strings.CutPrefix(message, CPUTimePrefix)
	if category != EndMarkCategory || !ok || len(digits) == 0 || len(digits) > 18 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || time.Duration(n) > maxCPUTime {
		return 0, false
	}
	return time.Duration(n), true
}

// isEndMark says whether ev is main's mark of the scenario's end.
func isEndMark(ev trace.Event) bool {
	if ev.Kind() != trace.EventLog || ev.Goroutine() != 1 {
		return false
	}
	l := ev.Log()
	return l.Category == EndMarkCategory && l.Message == EndMarkMessage
}

// inScenario says whether ev, an event of a scenario's goroutine, is the
// main goroutine's inside the scenario's function (yes) or in main.main's
// own code around it (no), as its stack shows; unknown for another
// goroutine's event, one without a stack (a goroutine's start), or a
// stack that cannot tell: one taken at an asynchronous preemption, where
// the tracer's frame-pointer unwinding can skip the interrupted
// function's caller (a preempted spin loop's stack reads main.spin,
// main.main, without main.scenario between).
func inScenario(ev trace.Event) (answer, error) {
	if ev.Goroutine() != 1 {
		return unknown, nil
	}
	frames, err := guard(func() ([]string, error) { return stackFuncs(ev), nil })
	if err != nil || frames == nil {
		return unknown, err
	}
	return stackInScenario(frames), nil
}

// stackFuncs is the functions of ev's stack, innermost first, or nil if
// it has none.
func stackFuncs(ev trace.Event) []string {
	st := ev.Stack()
	if st == trace.NoStack {
		return nil
	}
	var frames []string
	for f := range st.Frames() {
		frames = append(frames, f.Func)
	}
	return frames
}

// stackInScenario is inScenario's answer for the main goroutine's stack,
// its functions innermost first.
func stackInScenario(frames []string) answer {
	inMain := false
	for _, f := range frames {
		switch f {
		case scenarioFunc:
			return yes
		case "runtime.asyncPreempt":
			return unknown
		case "main.main":
			inMain = true
		}
	}
	if inMain {
		return no
	}
	return unknown
}

// runtimeActivity follows the goroutines the summary sets apart: it
// counts their starts (Summary.RuntimeStarts) and times their system calls
// (Summary.RuntimeSyscall), remembering when each one in a call entered it.
type runtimeActivity map[int64]trace.Time

func (c runtimeActivity) observe(out Event, t trace.Time, s *Summary) {
	switch out.Kind {
	case "go-start":
		s.RuntimeStarts++
	case "syscall-enter":
		c[out.G] = t
	case "syscall-exit":
		if since, ok := c[out.G]; ok {
			s.RuntimeSyscall += time.Duration(t - since)
			delete(c, out.G)
		}
	}
}

// convert turns a state transition into a scheduler event, if it is one.
func convert(ev trace.Event, st trace.StateTransition) (Event, bool) {
	out := Event{G: -1, G2: -1, P: int64(ev.Proc()), M: int64(ev.Thread()), Reason: st.Reason}
	if ev.Proc() == trace.NoProc {
		out.P = -1
	}
	if ev.Thread() == trace.NoThread {
		out.M = -1
	}
	switch st.Resource.Kind {
	case trace.ResourceGoroutine:
		out.G = int64(st.Resource.Goroutine())
		actor := ev.Goroutine()
		from, to := st.Goroutine()
		switch {
		case from == trace.GoUndetermined && to == trace.GoRunning:
			// A status snapshot: the goroutine was running when the
			// trace began. Kept, so that the trace view shows it running.
			out.Kind, out.Reason = "go-start", AlreadyRunning
		case from == trace.GoUndetermined:
			return out, false // a status snapshot, not an event
		case from == trace.GoNotExist && to != trace.GoNotExist:
			out.Kind = "go-create"
		case from == trace.GoRunnable && to == trace.GoRunning:
			out.Kind = "go-start"
		case from == trace.GoRunning && to == trace.GoRunnable:
			out.Kind = "go-stop"
		case from == trace.GoRunning && to == trace.GoWaiting:
			out.Kind = "go-block"
		case from == trace.GoWaiting && to == trace.GoRunnable:
			out.Kind = "go-unblock"
		case to == trace.GoNotExist:
			out.Kind = "go-exit"
		case from == trace.GoRunning && to == trace.GoSyscall:
			out.Kind = "syscall-enter"
		case from == trace.GoSyscall && to == trace.GoRunning:
			out.Kind = "syscall-exit"
		case from == trace.GoSyscall && to == trace.GoRunnable:
			out.Kind, out.Reason = "syscall-exit", "lost its P"
		default:
			return out, false
		}
		if actor != trace.NoGoroutine && int64(actor) != out.G {
			out.G2 = int64(actor)
		}
	case trace.ResourceProc:
		id := int64(st.Resource.Proc())
		from, to := st.Proc()
		switch {
		case from == trace.ProcUndetermined && to == trace.ProcRunning:
			out.Kind, out.P, out.Reason = "proc-start", id, AlreadyRunning
		case from == trace.ProcUndetermined:
			return out, false
		case to == trace.ProcRunning:
			out.Kind, out.P = "proc-start", id
		case from == trace.ProcRunning && to == trace.ProcIdle && id != out.P:
			out.Kind, out.P = "proc-steal", id
		case to == trace.ProcIdle:
			out.Kind, out.P = "proc-stop", id
		default:
			return out, false
		}
	default:
		return out, false
	}
	return out, true
}
