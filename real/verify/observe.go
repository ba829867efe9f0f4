// Package verify holds the model's run of a scenario against real runs of
// the same scenario (schedlab real builds them) and says, observable by
// observable, whether the model falls within what the real runs did.
//
// Both sides are measured by the same code: a Recorder fed the scheduler
// events of a run, the model's (package gmp) or a real trace's (package
// rtrace, which uses the model's event names and the scenario's goroutine
// numbers). A real trace records no run queues, so every observable here
// is one a trace can show.
package verify

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// Observables are what verify compares. Each is measured over the
// scenario's goroutines only: the runtime's own are left out of a real
// trace (rtrace.Options.Scenario).
type Observables struct {
	// Makespan is the run's window, from main's first scheduler event
	// after its start to its return (Recorder), less RuntimeDelay.
	Makespan time.Duration `json:"makespan_ns"`
	// Goroutines is how many goroutines were created; PeakLive the most
	// alive at once, main included.
	Goroutines int `json:"goroutines"`
	PeakLive   int `json:"peak_live"`
	// Preempted counts running slices the scheduler ended by preemption.
	Preempted int `json:"preempted"`
	// Migrations counts starts of a goroutine on another P than the one it
	// last ran on.
	Migrations int `json:"migrations"`
	// Utilisation is the share of the Ps' time over the window spent
	// running the scenario's goroutines, of the time the runtime's own
	// goroutines left them (Recorder.RuntimeEvent): a P running
	// runtime/trace's writer, or switching to it, while a scenario
	// goroutine waits to run is not one the scheduler left idle. On a P
	// no scenario goroutine wanted, their time is idle time: the model's
	// P is idle there, whether or not it runs the tracer's goroutines
	// just then (Recorder.displacing).
	Utilisation float64 `json:"utilisation"`
	// FirstStarted is the first goroutine other than main to run (0 if
	// none ran): which of the new goroutines the scheduler picked first.
	FirstStarted int64 `json:"first_started"`
	// RuntimeSyscall, of a real run only, is how long the runtime's own
	// goroutines spent in system calls (rtrace.Summary.RuntimeSyscall).
	// It is not compared: it says how much of a traced run was the
	// tracer's writing, which the model does not run.
	RuntimeSyscall time.Duration `json:"runtime_syscall_ns"`
	// RuntimeDelay, of a real run only, is the time within the window
	// when the runtime's own goroutines held every P while a scenario
	// goroutine was ready to run: time the scenario waited for the
	// tracer's writer (or the GC's workers), which the model does not
	// run. It is left out of Makespan, as the P time they took from the
	// scenario is left out of Utilisation, and reported beside it.
	RuntimeDelay time.Duration `json:"runtime_delay_ns"`
	// RuntimeStarts, of a real run only, is how many times the runtime's
	// own goroutines started running (rtrace.Summary.RuntimeStarts). Not
	// compared either: it says how often the tracer's goroutines took a
	// turn on the Ps.
	RuntimeStarts int `json:"runtime_starts"`
	// Switches counts the starts of a scenario goroutine that was ready
	// when its P's last goroutine stopped, SwitchGap the P time from those
	// stops to those starts: the scheduler's switches as the trace stamps
	// them (Recorder.switchTo). Not compared: they say why the P use
	// differs (switchNote).
	Switches  int           `json:"switches"`
	SwitchGap time.Duration `json:"switch_gap_ns"`
	// Stranded is the time within the window when a P was idle while a
	// scenario goroutine was ready to run: a woken thread on its way to
	// that P, or waiting for a CPU (scripts/wakeafteridle). A P between
	// two goroutines is not idle for the first switchSpan of it. Not
	// compared: it says why a makespan differs (strandedNote).
	Stranded time.Duration `json:"stranded_ns"`
	// ProcStarts counts the starts of a P within the window: an M taking
	// an idle P, as a thread woken for it to look for work does
	// (acquirep; the trace's ProcStart). Not compared: it says why the
	// migrations differ (startsNote), since a thief's P starts before it
	// steals. Zero in a recording made before it was measured.
	ProcStarts int `json:"proc_starts"`
	// WokenAway counts, of Migrations, the starts of a goroutine that the
	// runtime, not a goroutine, had made runnable (a timer, the network
	// poller) on another P than the one it last ran on: the thread that
	// runs due timers runs them on the P it holds, whichever P they were
	// set on. Not compared: it says why the migrations differ
	// (wokenNote). Nil in a recording made before it was measured.
	WokenAway *int `json:"woken_away,omitempty"`
	// CPUTime is the CPU time the program had over the window: of a real
	// run, its process's, from just before main entered the scenario to
	// just after its end mark (rtrace.Summary.CPUTime); of the model's,
	// its threads' on the CPUs it models (gmp.Machine.CPUTimes), none
	// where every M has a CPU of its own. Not compared: where the Ps
	// share fewer CPUs, it says why a makespan differs (cpuNote). Zero in
	// a recording made before it was measured, or on a system without
	// getrusage.
	CPUTime time.Duration `json:"cpu_ns,omitempty"`
	// TracerLead, of a real run, is how long before its scenario main made
	// runtime/trace.Start's first go statement, whose wakep wakes an idle
	// thread for an idle P (rtrace.Summary.TracerLead). Not compared: the
	// model's thread is a constant tracerLead along at the start, and
	// leadNote says when the real runs' differ from it. Zero in a
	// recording made before it was measured.
	TracerLead time.Duration `json:"tracer_lead_ns,omitempty"`
	// FirstPreempt is how far into the window the first slice was
	// preempted (0: none was). Not compared: it says why a makespan
	// differs (preemptNote), since a long slice ends at one of sysmon's
	// looks, and when those come varies between real runs.
	FirstPreempt time.Duration `json:"first_preempt_ns"`
	// Longest are the run's longest running slices of the scenario's
	// goroutines, from a start to the next stop, block, exit or system
	// call, longest first, at most longestKept. Not compared: they say
	// why the P use differs (sliceNote), since a goroutine whose thread
	// loses its CPU still runs as a trace sees it. None in a recording
	// made before they were measured.
	Longest []time.Duration `json:"longest_slices_ns,omitempty"`
	// PaceBefore and PaceAfter, of a real run verify probed the
	// machine's pace around (Options.Pace), are the probes taken just
	// before it and just after. Not compared: they say whether the
	// machine ran at its profile's pace then (Pace).
	PaceBefore *Pace `json:"pace_before,omitempty"`
	PaceAfter  *Pace `json:"pace_after,omitempty"`
	// StoppedByUntil says the run's until closed its window
	// (Recorder.EndAtUntil): its makespan is the whole window.
	StoppedByUntil bool `json:"stopped_by_until"`
	// Output is what the run printed, line by line: of the model, its
	// print events; of a real run, the program's standard output, not
	// its trace. Compared as an order (output.go).
	Output []string `json:"output,omitempty"`
	// Untraced marks a real run of a program that writes no trace (its
	// scenario ends in a deadlock or a panic by design): only Output
	// and Ended are measured.
	Untraced bool `json:"untraced,omitempty"`
	// Ended, of an untraced real run, is how Go said it ended:
	// "deadlock", "panic", or "exit status N" (0: main returned).
	Ended string `json:"ended,omitempty"`
}

// Recorder measures Observables from a run's events, in time order, over
// one window on both sides, the scenario's:
//
//   - It opens at the first event after main's start. The model starts
//     main at 0; a real trace begins with main already running, caught
//     inside runtime/trace.Start, whose stop-the-world and goroutines
//     come before the scenario's first action (20 to 30µs on a quiet
//     machine). Main's start is left out on both sides, and main is
//     running from the window's opening. A real program's set-up before
//     the scenario, main's block on a channel for until's stopper, is
//     not passed here (rtrace's Event.BeforeScenario, stopFilter).
//   - It closes when main returns: the model's main exits, and a real
//     program's main leaves the scenario for the program's own closing
//     (End), after which the model's program has exited.
type Recorder struct {
	procs       int
	first, last time.Duration
	seen        bool
	closed      bool
	mainStarted bool
	obs         Observables
	live        int
	lastP       map[int64]int64
	runningFrom map[int64]time.Duration
	busy        time.Duration
	// The P each of the runtime's own goroutines holds, in a real run,
	// and the P time they took from the scenario's (displaced).
	runtimeOn map[int64]int64
	displaced time.Duration
	// switching holds, for each P between goroutines, when its last
	// goroutine stopped; runtimeReady, when each of the runtime's
	// goroutines last became runnable. Together they give the P time a
	// switch to one of the runtime's goroutines takes (runtimeStarts).
	switching    map[int64]time.Duration
	runtimeReady map[int64]time.Duration
	// ready holds the scenario's goroutines that are runnable but not
	// running, readyAt since when; delay is the time so far when the
	// runtime's goroutines held every P while one was, counted up to mark.
	ready   map[int64]bool
	readyAt map[int64]time.Duration
	delay   time.Duration
	mark    time.Duration
	// stranded is Observables.Stranded so far, counted up to mark;
	// busyPs is idleFrom's scratch.
	stranded time.Duration
	busyPs   []bool
	// untilClosed says the run's until closed the window (EndAtUntil).
	untilClosed bool
	// woken holds the goroutines the runtime made runnable since they
	// last ran (RuntimeWake), and wokenAway counts those that started on
	// another P (Observables.WokenAway).
	woken     map[int64]bool
	wokenAway int
}

// NewRecorder returns a Recorder for a run with procs Ps.
func NewRecorder(procs int) *Recorder {
	return &Recorder{procs: procs, live: 1, lastP: map[int64]int64{}, runningFrom: map[int64]time.Duration{}, runtimeOn: map[int64]int64{}, ready: map[int64]bool{}, readyAt: map[int64]time.Duration{},
		switching: map[int64]time.Duration{}, runtimeReady: map[int64]time.Duration{}, woken: map[int64]bool{}}
}

// mainG is the main goroutine's number on both sides.
const mainG = 1

// Event records one event: its time, its kind by the model's name
// (go-start, go-stop…), its goroutine and P (or -1), and for go-stop
// whether the goroutine was preempted.
func (r *Recorder) Event(t time.Duration, kind string, g, p int64, preempted bool) {
	if r.closed {
		return
	}
	if !r.seen {
		if kind == "go-start" && g == mainG && !r.mainStarted {
			// Main's start: it runs from the window's opening.
			r.mainStarted = true
			if p >= 0 {
				r.lastP[g] = p
			}
			return
		}
		r.first, r.seen, r.mark = t, true, t
		if r.mainStarted {
			r.runningFrom[mainG] = t
		}
	}
	r.advance(t)
	r.last = max(r.last, t)
	switch kind {
	case "go-unblock":
		r.markReady(t, g)
	case "go-create":
		r.markReady(t, g)
		r.obs.Goroutines++
		r.live++
		r.obs.PeakLive = max(r.obs.PeakLive, r.live)
	case "go-exit":
		r.unready(g)
		r.live--
		r.stopped(t, g)
		r.switchFrom(t, p)
		if g == mainG {
			r.closed = true
		}
	case "go-start", "syscall-exit":
		if kind == "go-start" && p >= 0 {
			r.switchTo(t, g, p)
		}
		// A goroutine back from a system call without a P waits for one.
		if p < 0 {
			r.markReady(t, g)
		} else {
			r.unready(g)
		}
		if kind == "go-start" {
			if last, ok := r.lastP[g]; ok && last != p {
				r.obs.Migrations++
				if r.woken[g] {
					r.wokenAway++
				}
			}
			delete(r.woken, g)
			if g != mainG && r.obs.FirstStarted == 0 {
				r.obs.FirstStarted = g
			}
		}
		if p >= 0 {
			r.lastP[g] = p
			r.runningFrom[g] = t
			r.scenarioOn(t, p)
			delete(r.switching, p)
		}
	case "go-stop":
		r.markReady(t, g)
		if preempted {
			r.obs.Preempted++
			if r.obs.FirstPreempt == 0 {
				// At least 1ns, so that a preemption at the window's
				// opening is not taken for none.
				r.obs.FirstPreempt = max(t-r.first, 1)
			}
		}
		r.stopped(t, g)
		r.switchFrom(t, p)
	case "go-block":
		r.unready(g)
		r.stopped(t, g)
		r.switchFrom(t, p)
	case "syscall-enter":
		// The goroutine keeps its P: the P is not between goroutines.
		r.unready(g)
		r.stopped(t, g)
	}
}

// RuntimeWake records that the go-unblock of g that Event records next
// is the runtime's: a timer or the network poller, run by a thread with
// no goroutine of its own, made g runnable (Observables.WokenAway).
func (r *Recorder) RuntimeWake(g int64) {
	if !r.closed {
		r.woken[g] = true
	}
}

// ProcStart records a P's start at t, counted if the window is open.
func (r *Recorder) ProcStart(t time.Duration) {
	if r.seen && !r.closed && t >= r.first {
		r.obs.ProcStarts++
	}
}

// markReady says that scenario goroutine g is runnable from t.
func (r *Recorder) markReady(t time.Duration, g int64) {
	if !r.ready[g] {
		r.ready[g] = true
		r.readyAt[g] = t
	}
}

// unready says that g is running, blocked or gone.
func (r *Recorder) unready(g int64) {
	delete(r.ready, g)
	delete(r.readyAt, g)
}

// switchTo counts, as the start of scenario goroutine g on p at t, the
// switch to it: the P time from its last goroutine's stop, if g was ready
// by then. That time is the scheduler's work between two goroutines, which
// a trace shows as an idle P (the stop is stamped once the goroutine has
// left its M, the start in execute); a g readied later was not waiting
// for the switch but for a wake-up.
func (r *Recorder) switchTo(t time.Duration, g, p int64) {
	from, between := r.switching[p]
	at, ready := r.readyAt[g]
	if !between || !ready || !r.seen || at > from || t < from {
		return
	}
	r.obs.Switches++
	r.obs.SwitchGap += t - max(from, r.first)
}

// switchFrom says that p's goroutine left it at t for the scheduler.
func (r *Recorder) switchFrom(t time.Duration, p int64) {
	if p >= 0 {
		r.switching[p] = t
	}
}

// advance counts the time from mark to t into delay if, over it, the
// runtime's goroutines held every P while a scenario goroutine was ready.
// Events come in time order, and neither holds nor readiness change
// between them.
func (r *Recorder) advance(t time.Duration) {
	if !r.seen || t <= r.mark {
		return
	}
	if r.runtimeHoldsAll() && len(r.ready) > 0 {
		r.delay += t - r.mark
	}
	r.displaced += r.displacing(t - r.mark)
	if len(r.ready) > 0 {
		if from := r.idleFrom(); from < t {
			r.stranded += t - max(from, r.mark)
		}
	}
	r.mark = t
}

// switchSpan is how long a P between two goroutines counts as switching,
// not idle: a switch takes well under a microsecond, a thread's wake-up
// tens of them.
const switchSpan = 10 * time.Microsecond

// idleFrom is, of the time from mark to the next event, when the first P
// with nothing to run is idle: mark if one is already, the end of a
// switch (switchSpan after its goroutine left) if one is switching, or no
// time at all (the largest Duration) if every P is busy.
func (r *Recorder) idleFrom() time.Duration {
	if r.procs <= 0 {
		return math.MaxInt64
	}
	if len(r.busyPs) != r.procs {
		r.busyPs = make([]bool, r.procs)
	}
	busy := r.busyPs
	clear(busy)
	mark := func(p int64) {
		if p >= 0 && p < int64(r.procs) {
			busy[p] = true
		}
	}
	for g := range r.runningFrom {
		mark(r.lastP[g])
	}
	for _, p := range r.runtimeOn {
		mark(p)
	}
	from := time.Duration(math.MaxInt64)
	for p, b := range busy {
		if b {
			continue
		}
		at := r.mark
		if left, ok := r.switching[int64(p)]; ok {
			at = max(at, left+switchSpan)
		}
		from = min(from, at)
	}
	return from
}

// displacing is the P time the runtime's goroutines take from the
// scenario's over d from mark: for each P they hold, while a scenario
// goroutine is ready to run that could have run there. On a P no
// scenario goroutine wanted they took nothing: the P would have been idle,
// as the model's is (timer-2p: runtime/trace's goroutines started on the
// idle P while the hog ran on the other, and 45µs of a 4.4ms window on
// two Ps read as a P use 0.3 points above the model's, in every series).
func (r *Recorder) displacing(d time.Duration) time.Duration {
	if len(r.ready) == 0 || len(r.runtimeOn) == 0 {
		return 0
	}
	var ps []int64
	for _, p := range r.runtimeOn {
		if !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return time.Duration(min(len(ps), len(r.ready))) * d
}

// runtimeHoldsAll says whether the runtime's goroutines hold every P.
func (r *Recorder) runtimeHoldsAll() bool {
	if r.procs <= 0 || len(r.runtimeOn) < r.procs {
		return false
	}
	ps := map[int64]bool{}
	for _, p := range r.runtimeOn {
		ps[p] = true
	}
	return len(ps) >= r.procs
}

// RuntimeEvent records an event of one of the runtime's own goroutines,
// in time order with Event's: the P time they take within the window
// while a scenario goroutine is ready to run is not the scenario's to
// use (displacing). A runtime goroutine holds its P from its start to
// its stop, through its system calls (runtime/trace's writer writes with
// the P held), until a scenario goroutine runs on that P.
func (r *Recorder) RuntimeEvent(t time.Duration, kind string, g, p int64) {
	if r.closed {
		return
	}
	r.advance(t)
	switch kind {
	case "go-create", "go-unblock":
		r.runtimeReady[g] = t
	case "go-start":
		if p >= 0 {
			r.runtimeStarts(t, g, p)
			r.runtimeOn[g] = p
		}
	case "syscall-exit":
		r.release(g)
		if p >= 0 {
			r.runtimeOn[g] = p
		} else {
			r.runtimeReady[g] = t
		}
	case "go-stop":
		r.release(g)
		r.runtimeReady[g] = t
		r.switchFrom(t, p)
	case "go-block", "go-exit":
		r.release(g)
		r.switchFrom(t, p)
	}
}

// runtimeStarts counts as the runtime's the switch to its goroutine g on
// p at t: the time p spent between goroutines while g was ready to run,
// from the later of its last goroutine's stop and g's becoming runnable.
// A trace stamps a goroutine's stop when it has left its M and its start
// just before the switch to it (execute), so the scheduler's work between
// the two shows as an idle P. The model runs none of the runtime's
// goroutines, and so makes none of these switches: of the two a turn of
// the runtime's adds between goroutines A and B of the scenario, the one
// to it is the runtime's, and the one back to B stands for the model's
// own switch from A to B. A goroutine whose readiness the trace did not
// show counts nothing.
func (r *Recorder) runtimeStarts(t time.Duration, g, p int64) {
	from, between := r.switching[p]
	ready, known := r.runtimeReady[g]
	delete(r.switching, p)
	delete(r.runtimeReady, g)
	if !between || !known || !r.seen {
		return
	}
	if from = max(from, ready, r.first); t > from && len(r.ready) > 0 {
		r.displaced += t - from
	}
}

// release ends runtime goroutine g's hold on its P.
func (r *Recorder) release(g int64) {
	delete(r.runtimeOn, g)
}

// scenarioOn says that a scenario goroutine runs on p from t: a runtime
// goroutine in a system call there has lost it.
func (r *Recorder) scenarioOn(t time.Duration, p int64) {
	for g, on := range r.runtimeOn {
		if on == p {
			r.release(g)
		}
	}
}

// EndAtUntil closes the window at t, when the run's until stopped it:
// the scenario did not end, so the time its goroutines waited for the
// runtime's is no time it would have finished sooner, and the makespan is
// the whole window, as the model's is.
func (r *Recorder) EndAtUntil(t time.Duration) {
	if r.seen && !r.closed {
		r.End(t)
		r.untilClosed = true
	}
}

// End closes the window at t, if no event has: when a real program's
// main returned from the scenario, which its trace does not record as an
// event of the scenario's (rtrace.Summary.ScenarioEnd).
func (r *Recorder) End(t time.Duration) {
	if r.seen && !r.closed {
		r.advance(t)
		r.last = max(r.last, t)
		r.closed = true
	}
}

func (r *Recorder) stopped(t time.Duration, g int64) {
	if from, ok := r.runningFrom[g]; ok {
		r.busy += t - from
		r.obs.Longest = keepLongest(r.obs.Longest, t-from)
		delete(r.runningFrom, g)
	}
}

// longestKept is how many of a run's longest slices Observables keep:
// enough for the few a run's lost CPU stretches, few enough that a
// recording of many runs stays small.
const longestKept = 16

// keepLongest is longest, longest first and at most longestKept, with
// the slice d among them if it is long enough.
func keepLongest(longest []time.Duration, d time.Duration) []time.Duration {
	if len(longest) == longestKept && d <= longest[len(longest)-1] {
		return longest
	}
	at, _ := slices.BinarySearchFunc(longest, d, func(have, want time.Duration) int { return cmp.Compare(want, have) })
	longest = slices.Insert(longest, at, d)
	if len(longest) > longestKept {
		longest = longest[:longestKept]
	}
	return longest
}

// Observables returns what the run showed.
func (r *Recorder) Observables() Observables {
	o := r.obs
	o.PeakLive = max(o.PeakLive, 1)
	// The window less the time the scenario waited for the runtime's
	// goroutines. Utilisation's share is of the whole window's P time
	// less what the runtime's goroutines took, that time among it.
	delay := r.delay
	if r.seen && r.last > r.mark && r.runtimeHoldsAll() && len(r.ready) > 0 {
		delay += r.last - r.mark
	}
	o.RuntimeDelay = delay
	o.Stranded = r.stranded
	if r.seen && r.last > r.mark && len(r.ready) > 0 {
		if from := r.idleFrom(); from < r.last {
			o.Stranded += r.last - max(from, r.mark)
		}
	}
	o.Makespan = r.last - r.first
	o.StoppedByUntil = r.untilClosed
	away := r.wokenAway
	o.WokenAway = &away
	if !r.untilClosed {
		o.Makespan -= delay
	}
	busy, taken := r.busy, r.displaced
	o.Longest = slices.Clone(o.Longest)
	for _, from := range r.runningFrom {
		busy += r.last - from
		o.Longest = keepLongest(o.Longest, r.last-from)
	}
	if r.seen && r.last > r.mark {
		taken += r.displacing(r.last - r.mark)
	}
	if left := time.Duration(r.procs)*(r.last-r.first) - taken; left > 0 && r.procs > 0 {
		o.Utilisation = min(float64(busy)/float64(left), 1)
	}
	return o
}

// String writes the observables on one line.
func (o Observables) String() string {
	var b strings.Builder
	if o.Untraced {
		b.WriteString("untraced, ended with " + o.Ended)
		if len(o.Output) > 0 {
			b.WriteString("; printed " + orderOf(o.Output, len(o.Output)))
		}
		return b.String()
	}
	for i, ob := range observables {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ob.name)
		b.WriteByte(' ')
		b.WriteString(ob.unit.format(ob.get(o)))
	}
	if len(o.Output) > 0 {
		b.WriteString("; printed " + orderOf(o.Output, len(o.Output)))
	}
	return b.String()
}
