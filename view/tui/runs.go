package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/compare"
	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// runs are what the App plays and shows: the full view's one run (solo),
// or the split view's two in lockstep (split.go). Playback, the keys that
// step, the mouse and the drawing go through it, so the App never asks
// which it has; a key only the full view has is only in its key table.
type runs interface {
	// paneRuns are the split view's runs; nil for one.
	paneRuns() []*Session
	// atEnd reports whether there is nothing left to step to.
	atEnd() bool
	// nextAt is when the next step happens, false after the last.
	nextAt() (sim.Time, bool)
	// now is the simulated moment shown.
	now() sim.Time
	// forward takes up to n steps and returns how many it took.
	forward(n int) int
	// runOn is a slice of running to the end (job.go): at most jobSlice
	// events and stepSlice steps of the model. It reports whether the
	// end is reached.
	runOn() bool
	// step takes one step for → and says what the status bar should
	// ("" for nothing); back undoes one for ←.
	step() string
	back() string
	restart()
	// endMessage says how the run ended, once playback reaches it.
	endMessage() string
	// dismiss closes what the view shows over itself on its own (esc),
	// and reports whether there was one.
	dismiss() bool
	// other is what v switches to, or why it cannot.
	other(source string) (*Switch, string)
	mouse(action tview.MouseAction, event *tcell.EventMouse) bool
	// show draws the view into c (its panels, from frames built on base,
	// the frame every view shares).
	show(c canvas, base frame)
}

// solo is the App's one run in the full view.
type solo struct{ a *App }

func (solo) paneRuns() []*Session       { return nil }
func (s solo) atEnd() bool              { return s.a.sess.AtEnd() }
func (s solo) nextAt() (sim.Time, bool) { return nextAt(s.a.sess) }
func (s solo) now() sim.Time            { return s.a.sess.State().Now() }
func (s solo) forward(n int) int        { return s.a.sess.Forward(n) }
func (s solo) runOn() bool {
	s.a.sess.ForwardSteps(jobSlice, stepSlice)
	return s.a.sess.AtEnd()
}
func (s solo) restart()           { s.a.sess.Seek(0) }
func (s solo) endMessage() string { return endMessage(s.a.sess) }
func (solo) dismiss() bool        { return false }
func (s solo) mouse(action tview.MouseAction, event *tcell.EventMouse) bool {
	return s.a.mouse(action, event)
}

// step says how the run ended on reaching its last event, too.
func (s solo) step() string {
	if s.a.sess.Forward(1) == 0 || s.a.sess.AtEnd() {
		return s.endMessage()
	}
	return ""
}

func (s solo) back() string {
	if s.a.sess.Back(1) == 0 {
		return "this is the first event"
	}
	return ""
}

// other is the split view of the scenario's pool tasks, raw goroutines
// against the pool.
func (s solo) other(source string) (*Switch, string) {
	if !compare.Submits(s.a.sess.Scenario().Program()) {
		return nil, "the split view runs a pool's tasks two ways, and this scenario submits none"
	}
	return &Switch{Scenario: source, Split: true}, ""
}

// show draws the full view: the layout list's rows, then the lists open
// over them.
func (s solo) show(c canvas, base frame) {
	a := s.a
	if a.procs.top > a.sess.Config().Procs-1 {
		a.procs.top = 0
	}
	if a.sess.AtEnd() && !a.deadlockShown && a.sess.State().End().Reason == gmp.Deadlock {
		// A deadlock opens the list, its blocked goroutines first.
		a.deadlockShown, a.glist.open, a.glist.top = true, true, 0
	}
	f := a.fullFrame(base)
	f.l = drawRows(c, f, &a.panels)
	a.drawn = f.l
	drawOverlays(c, f, &a.panels)
}
