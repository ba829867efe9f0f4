// Package tui is schedlab's terminal UI: it shows a scheduler simulation
// step by step, forward and backward, with a sentence explaining each step.
//
// It is split like k9s: Session holds the data (the run, its events, the
// cursor) and knows nothing of the screen; the panels render a Session
// snapshot; App wires them to tview and to one table of key bindings.
package tui

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

// Session is one run of a scenario seen through a cursor. The run goes
// forward on its own (the frontier); the cursor can be anywhere in it.
// Every state the UI shows is a snapshot owned by the session, so moving
// the cursor never disturbs the run.
type Session struct {
	sc   *scenarios.Scenario
	cfg  gmp.Config
	desc *gmp.Describer

	hist     *sim.History[*gmp.Machine]
	frontier *gmp.Machine
	// log holds the events with the step that emitted each (events of
	// one step happen at one instant of one actor, and the state between
	// them is rebuilt by replaying that step: see view), only the recent
	// part in memory.
	log *eventLog
	// live follows the run's timeline for the segments open at each
	// chunk's start; tl is the timeline drawn, rebuilt around the cursor
	// (Timeline), and tlFrom the chunk it starts at.
	live   *Timeline
	tl     *Timeline
	tlFrom int
	// notes places the scenario's notes on events as the run reaches
	// them, as the trace does.
	notes *scenarios.NoteTracker

	cursor int // the current event; -1 is before the first
	// after is the state after the step that emitted events[cursor]; it
	// runs forward as the cursor does. before is the state before the step
	// whose first event is beforeFirst, kept for moving within that step;
	// nil when it must be restored first.
	after, before *gmp.Machine
	beforeFirst   int
	// state is what the UI shows: after, or the state right after the
	// cursor's event when later events of its step follow.
	state *gmp.Machine

	// quiz is set when the session asks questions (EnableQuiz).
	quiz *sessionQuiz
	// noteFocus is the note ] or [ last went to: of several on one
	// event, the one shown.
	noteFocus int
	// first is the first event of each rule, as the run produces them.
	first map[gmp.Rule]int
	// marks places the scenario's marks (marks:) as the run goes.
	marks *scenarios.NoteTracker
}

// NewSession prepares a run of sc with cfg. The error is for a
// configuration that cannot run; problems of the program itself (a
// deadlock) show up as the end of the run.
func NewSession(sc *scenarios.Scenario, cfg gmp.Config) (*Session, error) {
	prog := sc.Program()
	cfg.MeasureIdle = true // for the end summary's work conservation
	m, err := gmp.New(cfg, prog)
	if err != nil {
		return nil, err
	}
	s := &Session{sc: sc, cfg: cfg, desc: gmp.NewDescriber(prog), live: newLiveTimeline(cfg.Procs), first: map[gmp.Rule]int{}}
	s.log = newEventLog(s.regenerate)
	s.notes = scenarios.NewNoteTracker(sc.Notes)
	s.marks = marksOf(sc)
	start := m.Clone()
	s.frontier = m
	m.SetSink(s.record)
	s.hist = sim.NewHistory(m, 0)
	s.cursor = -1
	s.noteFocus = -1
	s.after, s.state = start, start
	// Show main already running: the first event is its start.
	s.Forward(1)
	return s, nil
}

// record is the frontier's sink: the log, the timeline and the notes grow
// with the run.
func (s *Session) record(e gmp.Event) {
	i := s.log.n
	s.log.add(e, s.frontier.Steps(), s.live.openSegments)
	s.live.Record(e)
	s.quizObserve(e)
	s.notes.Observe(i, &e)
	s.marks.Observe(i, &e)
	if _, ok := s.first[e.Rule]; !ok {
		s.first[e.Rule] = i
	}
}

// firstOf is the index of the run's first event of rule r, -1 while the
// run has none.
func (s *Session) firstOf(r gmp.Rule) int {
	if i, ok := s.first[r]; ok {
		return i
	}
	return -1
}

// Scenario returns the scenario being run.
func (s *Session) Scenario() *scenarios.Scenario { return s.sc }

// Config returns the run's configuration.
func (s *Session) Config() gmp.Config { return s.cfg }

// Describer returns the describer for this run's events.
func (s *Session) Describer() *gmp.Describer { return s.desc }

// State is the simulation state at the cursor. It must not be stepped.
func (s *Session) State() *gmp.Machine { return s.state }

// Cursor is the index of the current event (-1 before the first).
func (s *Session) Cursor() int { return s.cursor }

// Known is the number of events the run has produced so far.
func (s *Session) Known() int { return s.log.n }

// Finished reports whether the run has ended (so Known is the total).
func (s *Session) Finished() bool { return s.hist.Done() }

// Event returns event i.
func (s *Session) Event(i int) gmp.Event { return s.log.at(i) }

// Timeline returns what ran where up to the cursor, from the time from
// on at least, for the timeline panel. It is rebuilt from the events of
// the chunk that holds from, grown as the cursor steps on.
func (s *Session) Timeline(from sim.Time) *Timeline {
	k := s.log.startAt(from)
	// Window and Marks clip at the cursor, so a timeline that has run
	// on past it still draws the cursor's moment.
	if s.tl != nil && s.tlFrom == k {
		for s.tl.n <= s.cursor {
			s.tl.Record(s.log.at(s.tl.n))
		}
		return s.tl
	}
	c := s.log.chunks[k]
	s.tl, s.tlFrom = seedTimeline(c.carry, c.start), k
	for i := c.start; i <= s.cursor; i++ {
		s.tl.Record(s.log.at(i))
	}
	return s.tl
}

// regenerate replays the run's events [start, end): the event log asks
// for a chunk it let go. start always begins a step.
func (s *Session) regenerate(start, end int) ([]gmp.Event, []uint64) {
	m, ok := s.hist.At(start - 1)
	if !ok || m.Emitted() != start {
		panic(fmt.Sprintf("tui: events from %d cannot be replayed (the checkpoint has emitted %d)", start, m.Emitted()))
	}
	events := make([]gmp.Event, 0, end-start)
	steps := make([]uint64, 0, end-start)
	m.SetSink(func(e gmp.Event) {
		events = append(events, e)
		steps = append(steps, m.Steps())
	})
	for m.Emitted() < end && m.Step() {
	}
	m.SetSink(nil)
	return events, steps
}

// Peek returns event i, running the simulation on as far as needed, and
// false if the run ends before it.
func (s *Session) Peek(i int) (gmp.Event, bool) {
	if i < 0 {
		return gmp.Event{}, false
	}
	s.hist.Extend(i + 1)
	if i >= s.log.n {
		return gmp.Event{}, false
	}
	return s.log.at(i), true
}

// AtEnd reports whether the cursor is on the last event of a finished run.
func (s *Session) AtEnd() bool {
	return s.hist.Done() && s.cursor >= s.log.n-1
}

// lastOfStep reports whether event i is the last its step emitted. The
// last event known always is: the model grows between steps, never in
// the middle of one.
func (s *Session) lastOfStep(i int) bool {
	return i+1 >= s.log.n || s.log.step(i+1) != s.log.step(i)
}

// firstOfStep is the first event of the step that emitted event i.
func (s *Session) firstOfStep(i int) int {
	for i > 0 && s.log.step(i-1) == s.log.step(i) {
		i--
	}
	return i
}

// view is the state right after event i, given before, the state before
// the step that emitted it. Every event is emitted before the changes it
// describes (gmp's rule), so the state at the moment the next event of
// the step is emitted is the state after event i: replay the step from a
// copy and take a snapshot there. It also returns the state after the
// whole step.
func (s *Session) view(before *gmp.Machine, i int) (at, after *gmp.Machine) {
	return s.replay(before.Clone(), i)
}

// replay is view on a copy the caller gives up: c is stepped.
func (s *Session) replay(c *gmp.Machine, i int) (at, after *gmp.Machine) {
	n := c.Emitted()
	c.SetSink(func(gmp.Event) {
		if n == i+1 {
			at = c.Clone()
		}
		n++
	})
	for c.Emitted() <= i {
		if !c.Step() {
			break
		}
	}
	c.SetSink(nil)
	if at == nil {
		at = c
	}
	return at, c
}

// Forward moves the cursor n events ahead, as far as the run goes, and
// returns how many it moved.
func (s *Session) Forward(n int) int {
	s.hist.Extend(s.cursor + n + 2) // one more, to know whether target ends its step
	return s.forwardTo(s.cursor + n)
}

// ForwardSteps is Forward running the model at most steps steps: a run
// can take millions of steps between two events, so the jobs that run
// far ahead go a bounded slice at a time (job.go). The cursor moves to
// the last event the run has reached, up to n events on.
func (s *Session) ForwardSteps(n, steps int) int {
	s.hist.ExtendSteps(s.cursor+n+2, steps)
	return s.forwardTo(s.cursor + n)
}

// Progress is how far the model has run ahead of the cursor: its steps
// and its simulated moment.
func (s *Session) Progress() (steps uint64, now sim.Time) {
	return s.frontier.Steps(), s.frontier.Now()
}

// reach makes event i known, running the model at most steps steps. It
// reports whether event i exists, and, when it does not yet, whether
// the run may still reach it (more is to run).
func (s *Session) reach(i, steps int) (ok, more bool) {
	if i < s.log.n {
		return true, false
	}
	ok = s.hist.ExtendSteps(i+1, steps)
	return ok, !ok && !s.hist.Done()
}

// madeGs is the run's NumG, once it has ended (known).
func (s *Session) madeGs() (n int, known bool) {
	return s.frontier.NumG(), s.hist.Done()
}

// seekTime moves the cursor to the last event at or before the moment at
// (the first event when none is).
func (s *Session) seekTime(at sim.Time) {
	for {
		e, ok := s.Peek(s.cursor + 1)
		if !ok || e.T > at {
			return
		}
		s.Forward(1)
	}
}

// stepBudget is a number of the model's steps shared by the calls of one
// slice of a job.
type stepBudget struct {
	s   *Session
	end uint64
}

// budget starts a budget of n steps from where the model is; a negative
// n is no bound.
func (s *Session) budget(n int) stepBudget {
	if n < 0 {
		return stepBudget{s, math.MaxUint64}
	}
	return stepBudget{s, s.frontier.Steps() + uint64(n)}
}

// left is what is left of it: at least one step, so that a slice always
// moves on.
func (b stepBudget) left() int {
	if now := b.s.frontier.Steps(); now < b.end {
		return int(min(b.end-now, math.MaxInt))
	}
	return 1
}

// forwardTo moves the cursor on to event target, or the last event known
// before it.
func (s *Session) forwardTo(target int) int {
	target = min(target, s.log.n-1)
	moved := target - s.cursor
	if moved <= 0 {
		return 0
	}
	// The session's own snapshot runs on to the end of target's step,
	// keeping the state before that step when target is inside it.
	first := s.firstOfStep(target)
	for s.after.Emitted() <= target {
		if s.after.Emitted() == first && !s.lastOfStep(target) {
			s.before, s.beforeFirst = s.after.Clone(), first
		}
		if !s.after.Step() {
			break
		}
	}
	s.cursor = target
	s.state = s.after
	if !s.lastOfStep(target) {
		s.state, _ = s.view(s.stateBefore(first), target)
	}
	return moved
}

// stateBefore is the state before the step whose first event is first.
func (s *Session) stateBefore(first int) *gmp.Machine {
	if s.before == nil || s.beforeFirst != first {
		s.before, _ = s.hist.At(first - 1)
		s.beforeFirst = first
	}
	return s.before
}

// seekFar is how far ahead the cursor runs on by itself; beyond that, Seek
// restores a checkpoint, which is faster than stepping.
const seekFar = 4096

// Back moves the cursor n events back (not before the first) and returns
// how many it moved.
func (s *Session) Back(n int) int {
	from := s.cursor // read before Seek moves it
	return from - s.Seek(max(from-n, 0))
}

// Seek moves the cursor to event i (clamped to what exists) and returns
// where it landed. Going back restores a checkpoint and replays.
func (s *Session) Seek(i int) int {
	i = max(i, 0)
	if i > s.cursor && i-s.cursor <= seekFar {
		s.Forward(i - s.cursor)
		return s.cursor
	}
	if i == s.cursor {
		return i
	}
	s.hist.Extend(i + 2)
	i = min(i, s.log.n-1)
	if s.lastOfStep(i) {
		after, ok := s.hist.At(i)
		if !ok {
			return s.cursor
		}
		s.after, s.state, s.cursor = after, after, i
		return i
	}
	// The state before the step is the state after the previous event's
	// step, which ended with event first-1.
	before, ok := s.hist.At(s.firstOfStep(i) - 1)
	if !ok {
		return s.cursor
	}
	// The restored state is consumed by the replay; moving on within this
	// step restores it again (stateBefore).
	s.before = nil
	s.state, s.after = s.replay(before, i)
	s.cursor = i
	return i
}

// Note is a scenario note placed at an event.
type Note struct {
	Index  int // into the scenario's notes
	Number int // its place in the order a viewer meets the notes, from 1
	Event  int
	Text   string
	// Held says the note waits for the answer to a question it would
	// give away (noteHeld): the screen says so instead of showing it.
	Held bool
	// More counts the other notes on the same event, which ] shows one
	// by one.
	More int
	// At is the note's moment, for a note written at a time (HasAt).
	At    sim.Time
	HasAt bool
}

// A note shows at its moment, alone. A note at a time is placed by the
// tracker on the first event at or after that time, which may come much
// later (sem-heavy's "light goroutines arrive", at 4.29ms, on the release
// at 6.36ms): the UI shows it on the event before, whose state is the
// run's at the note's moment, since nothing happens in between. Notes
// that still share an event are met one at a time: the first in the
// order they are met, and ] shows the next at the same event.

// noteEvent is the event note n shows on, or -1 while the run has not
// reached it.
func (s *Session) noteEvent(n int) int {
	at := s.notes.At(n)
	if m := s.sc.Notes[n].Moment; at > 0 && m.HasAt && s.log.at(at).T > sim.Time(m.At) {
		return at - 1
	}
	return at
}

// noteKey orders the notes as ] meets them: by the event each shows on,
// then by the order they were met (Number).
type noteKey struct{ event, number int }

func (k noteKey) before(o noteKey) bool {
	return k.event < o.event || k.event == o.event && k.number < o.number
}

// CurrentNotes is the note of the latest event at or before the cursor
// that has one: the one ] or [ chose there, else the first met. Its More
// counts the others on that event.
func (s *Session) CurrentNotes() []Note {
	best := -1
	for n := range s.sc.Notes {
		if at := s.noteEvent(n); at >= 0 && at <= s.cursor && at > best {
			best = at
		}
	}
	if best < 0 {
		return nil
	}
	shown, here := -1, 0
	for n := range s.sc.Notes {
		if s.noteEvent(n) != best {
			continue
		}
		here++
		if shown < 0 || n == s.noteFocus || shown != s.noteFocus && s.notes.Number(n) < s.notes.Number(shown) {
			shown = n
		}
	}
	others := here - 1
	text := s.sc.Notes[shown].Text
	var at sim.Time
	if m := s.sc.Notes[shown].Moment; m.HasAt {
		at = sim.Time(m.At)
	}
	return []Note{{Index: shown, Number: s.notes.Number(shown), Event: best, Text: text, Held: s.noteHeld(shown, best),
		More: others, At: at, HasAt: s.sc.Notes[shown].Moment.HasAt}}
}

// shownKey is where the cursor is among the notes: the note shown, when
// the cursor is on its event, else just the cursor.
func (s *Session) shownKey() noteKey {
	if ns := s.CurrentNotes(); len(ns) > 0 && ns[0].Event == s.cursor {
		return noteKey{s.cursor, ns[0].Number}
	}
	return noteKey{s.cursor, 0}
}

// NextNote moves to the next note, running the simulation forward as far
// as needed: on to the event of the next, or to the next note of the
// event shown. It reports whether there was one.
func (s *Session) NextNote() bool {
	for {
		found, more := s.nextNote(-1)
		if !more {
			return found
		}
	}
}

// nextNote is NextNote running the model at most steps steps (no bound
// when negative); more says it must be called again, having found no
// note yet.
func (s *Session) nextNote(steps int) (found, more bool) {
	b := s.budget(steps)
	from := s.shownKey()
	for {
		next, best := -1, noteKey{}
		pending := false
		for n := range s.sc.Notes {
			at := s.noteEvent(n)
			if at < 0 {
				pending = true
				continue
			}
			k := noteKey{at, s.notes.Number(n)}
			if from.before(k) && (next < 0 || k.before(best)) {
				next, best = n, k
			}
		}
		// A note reached later comes after: it shows on the last event
		// known or a later one, and is met after every note reached.
		if next >= 0 {
			s.noteFocus = next
			s.Seek(best.event)
			return true, false
		}
		if !pending || s.hist.Done() {
			return false, false
		}
		// Run on until another note is reached or the run ends.
		if steps < 0 {
			s.hist.Extend(s.log.n + 4096)
			continue
		}
		if s.hist.ExtendSteps(s.log.n+4096, b.left()); b.left() <= 1 {
			return false, true
		}
	}
}

// PrevNote moves to the note before the one shown: an earlier one of the
// same event, or the last of the latest event with notes before it.
func (s *Session) PrevNote() bool {
	from := s.shownKey()
	prev, best := -1, noteKey{}
	for n := range s.sc.Notes {
		at := s.noteEvent(n)
		if at < 0 {
			continue
		}
		k := noteKey{at, s.notes.Number(n)}
		if k.before(from) && (prev < 0 || best.before(k)) {
			prev, best = n, k
		}
	}
	if prev < 0 {
		return false
	}
	s.noteFocus = prev
	s.Seek(best.event)
	return true
}

// NextEventOf moves to the next event after the cursor that concerns g,
// looking at most limit events ahead. It reports whether it found one.
func (s *Session) NextEventOf(g gmp.GID, limit int) bool {
	for i := s.cursor + 1; i <= s.cursor+limit; i++ {
		if i >= s.log.n && !s.hist.Extend(i+1) {
			return false
		}
		if e := s.log.at(i); e.Involves(g) {
			s.Seek(i)
			return true
		}
	}
	return false
}

// findEventOf looks at most n events ahead from event from for one that
// concerns g, running the simulation on as needed, at most steps steps.
// It returns the event's index, or -1 and where to look next; next is -1
// when the run ended first.
func (s *Session) findEventOf(g gmp.GID, from, n, steps int) (i, next int) {
	b := s.budget(steps)
	for i = from; i < from+n; i++ {
		if ok, more := s.reach(i, b.left()); !ok {
			if more {
				return -1, i
			}
			return -1, -1
		}
		if e := s.log.at(i); e.Involves(g) {
			return i, 0
		}
	}
	return -1, i
}

// PrevEventOf moves to the latest event before the cursor that concerns g.
func (s *Session) PrevEventOf(g gmp.GID) bool {
	for i := s.cursor - 1; i >= 0; i-- {
		if e := s.log.at(i); e.Involves(g) {
			s.Seek(i)
			return true
		}
	}
	return false
}

// EndSummary says how the run ended, once the cursor is at its end.
func (s *Session) EndSummary() string {
	if !s.AtEnd() {
		return ""
	}
	end := s.state.End()
	if end.Err != nil && s.sc.AsExpected(end) {
		// A failure the scenario declares (expect:): as it means to end.
		return fmt.Sprintf("%s as expected: %v", end.Reason, end.Err)
	}
	if end.Err != nil {
		return end.Err.Error()
	}
	msg := fmt.Sprintf("%s at %v after %d events; Ps idle %v while goroutines waited", end.Reason, s.state.Now(), s.log.n, s.state.IdleWhileRunnable())
	if !s.sc.AsExpected(end) {
		msg += fmt.Sprintf(", but the scenario expects a %s", s.sc.Expect)
	}
	return msg
}

// EndExpected reports whether the run ended the way its scenario means
// it to (expect:), once the cursor is at its end.
func (s *Session) EndExpected() bool { return s.sc.AsExpected(s.state.End()) }

// Checkpoints reports how many snapshots the session holds, for memory
// reports.
func (s *Session) Checkpoints() int { return s.hist.Checkpoints() }

// NotesReached returns the event index of every note, -1 for those not
// reached yet, in scenario order.
func (s *Session) NotesReached() []int {
	out := make([]int, len(s.sc.Notes))
	for n := range out {
		out[n] = s.notes.At(n)
	}
	return out
}

// sameRun reports whether sessions a and b give the same run as far as
// their first n events go, or as far as each gets in steps steps of the
// model: the same events at the same times, from the same lines of the
// scenario.
func sameRun(a, b *Session, n, steps int) bool {
	ba, bb := a.budget(steps), b.budget(steps)
	for i := range n {
		oka, morea := a.reach(i, ba.left())
		okb, moreb := b.reach(i, bb.left())
		if morea || moreb {
			return true // as far as the budget shows
		}
		if oka != okb {
			return false
		}
		if !oka {
			return true
		}
		ea, eb := a.Event(i), b.Event(i)
		if (ea.Op == nil) != (eb.Op == nil) || ea.Op != nil && ea.Op.Pos != eb.Op.Pos {
			return false
		}
		ea.Op, eb.Op = nil, nil
		if ea != eb {
			return false
		}
	}
	return true
}
