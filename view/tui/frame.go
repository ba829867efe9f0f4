package tui

import (
	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/real/recorded"
	"github.com/schedlab/schedlab/teach/quiz"
)

// A panel draws from a frame: everything it may read, gathered once per
// draw by the App (or the trace view) and handed to each panel by value.
// It holds the run at the cursor — a snapshot the session owns, which
// nothing steps — what the user is looking at, the theme and the size. A
// panel never sees the App: it cannot step the model, move the cursor or
// change what another panel shows; what it owns (how far it scrolls) is
// in its own fields.
type frame struct {
	view  viewKind
	theme *Theme
	// w and h are the size of what the view's rows fill: the screen in
	// the full view, a pane in the split and trace views.
	w, h int
	wide bool // w >= wideWidth: the detailed layout

	// The model's run at the cursor (the full and split views).
	sc     *scenarios.Scenario
	cfg    gmp.Config
	state  *gmp.Machine // the state at the cursor: never stepped
	desc   *gmp.Describer
	cursor int
	atEnd  bool
	end    string // how the run ended, once the cursor is at its end
	notes  []Note // the notes of the latest event at or before the cursor
	events events
	// firstOf is the first event of a rule in the run (-1 before it),
	// for what is explained where it first shows (whyNow).
	firstOf func(r gmp.Rule) int
	score   string     // the quiz's score, "" without a quiz
	quiz    *quizFrame // the question open, if any
	join    *joinFrame // the class's join overlay, while it is open

	// A trace pane's run at its cursor (the trace view).
	trace *traceFrame

	// What the user is looking at.
	label        string // a split pane's title: the mode or policy it runs
	focus        int
	found        gmp.GID
	searchText   string // lower case; "" when none is looked for
	selected     int    // the event selected in the log, -1 for none
	procsTop     int    // the first P the Ps panel shows; the timeline follows it
	keepTimeline bool   // t: the timeline stays on a small screen
	playing      bool
	pace         pace
	keys         []Binding
	message      string
	prompt       *prompt // a copy of the prompt open, nil for none
	help         bool
	table        []string     // the split view's comparison, while it is shown
	present      bool         // presenter mode: the note large, no key hints
	follow       *followFrame // the follower's state (--notes-for), nil otherwise
	picker       *pickerFrame // the list o opens, nil when closed

	// l is where the layout put the rows, set before any panel draws.
	l layout
}

// events is what a panel may read of a run's events: the session has
// more methods, but none a panel can reach moves the cursor or steps the
// model.
type events interface {
	Event(i int) gmp.Event
	Timeline(from sim.Time) *Timeline
}

// quizFrame is the question open on screen, as a panel reads it.
type quizFrame struct {
	q        *quiz.Question
	choice   int
	revealed bool
	class    *classTally // the class's answers, in class mode
}

// traceFrame is one run of the trace view at its cursor.
type traceFrame struct {
	run   *recorded.Run
	cur   int
	st    *recorded.State
	moved bool // the run the last step moved
}

// screenFrame is what the frames of every view of the App share: the
// theme, the size, the keys, the status bar and the help.
func (a *App) screenFrame(w, h int) frame {
	f := frame{theme: a.theme, w: w, h: h, wide: w >= wideWidth, selected: -1,
		keys: a.keys, message: a.message, playing: a.playing, pace: a.pace, help: a.help, present: a.opts.Present}
	if a.prompt != nil {
		p := *a.prompt
		f.prompt = &p
	}
	f.join = a.joinOf()
	return f
}

// withRun is f showing session s at its cursor.
func (f frame) withRun(s *Session) frame {
	f.sc, f.cfg, f.state, f.desc = s.Scenario(), s.Config(), s.State(), s.Describer()
	f.cursor, f.atEnd, f.end = s.Cursor(), s.AtEnd(), s.EndSummary()
	f.notes = s.CurrentNotes()
	f.events = s
	f.firstOf = s.firstOf
	f.score = scoreLine(s)
	return f
}

// fullFrame is the full view's frame on base, before the layout.
func (a *App) fullFrame(base frame) frame {
	f := base.withRun(a.sess)
	f.view = fullView
	f.focus, f.found, f.searchText = a.focus, a.found, a.searchText
	f.selected = a.selected()
	f.procsTop = a.procs.top
	f.keepTimeline = a.keepTimeline
	f.picker = a.pickerFrame()
	if fl := a.fol; fl != nil {
		f.follow = &followFrame{session: fl.session, got: fl.got, err: fl.err, next: fl.next, nextMore: fl.nextMore}
	}
	if qv := a.quiz; qv != nil {
		f.quiz = &quizFrame{q: a.sess.question(qv.at), choice: qv.choice, revealed: qv.revealed, class: a.classTallyOf(qv)}
	}
	if a.opts.Class != nil {
		f.score = a.classScore()
	}
	return f
}

// liveFrame is the full view as it is now, laid out as it was last drawn:
// what the scroll keys and the wheel scroll by (a key can come before the
// screen shows what the one before did).
func (a *App) liveFrame() frame {
	f := a.fullFrame(a.screenFrame(a.drawn.w, a.drawn.h))
	f.l = a.drawn
	return f
}
