package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/gmp"
)

// Smallest screen the layout is designed for, and the smallest it draws
// on at all.
const (
	minWidth    = 80
	minHeight   = 24
	leastWidth  = 60
	leastHeight = 16
	// wideWidth and tallHeight unlock the detailed layout.
	wideWidth  = 120
	tallHeight = 40
)

// rootView draws the whole screen from the App's session. It lays out its
// panels itself, so that 80×24 and 160×48 each get a layout that suits
// them, and so that a test can draw it onto a simulation screen.
type rootView struct {
	*tview.Box
	a      *App
	layout layout
}

func newRootView(a *App) *rootView {
	return &rootView{Box: tview.NewBox(), a: a}
}

// layout is where each panel goes, in rows of the screen.
type layout struct {
	w, h                   int
	wide                   bool
	header                 int
	procs, procsRows       int // title row, then one row per visible P
	info, infoRows         int
	pools, poolsRows       int
	timeline, timelineRows int
	timelineHidden         bool // for every P to fit: a taller screen shows it
	log, logRows           int
	console, consoleRows   int
	explain, explainRows   int
	note, noteRows         int
	status                 int
	visibleProcs           int
	explainText, noteText  []string
	noteHeadings           []string // a note's heading on its first row, "" on the others
	explainTail            string
	placed                 []placement // the panels, where they go
}

func (v *rootView) computeLayout(w, h int) layout {
	a := v.a
	l := layout{w: w, h: h, wide: w >= wideWidth}
	procs := a.sess.Config().Procs
	l.explainText, l.explainTail = explainLines(a, w)
	l.explainRows = len(l.explainText) + 1
	l.noteHeadings, l.noteText = noteLines(a, w)
	if len(l.noteText) > 0 {
		l.noteRows = len(l.noteText)
	}
	l.infoRows = 3
	if l.wide && h >= tallHeight {
		l.infoRows = 6
	}
	// Pools and semaphores get a row each on a tall screen, and share
	// two on a small one (the rest are counted in the title).
	l.poolsRows = poolRows(a)
	if h < tallHeight {
		l.poolsRows = min(l.poolsRows, 3)
	} else {
		l.poolsRows = min(l.poolsRows, 7)
	}
	const logMin = 4 // title and three events
	fixed := 1 + 1 + l.infoRows + l.poolsRows + l.explainRows + l.noteRows + 1 + 1 + logMin
	// Each visible P takes a row in the P table and one in the timeline.
	l.visibleProcs = max(min(procs, (h-fixed)/2), 1)
	if l.wide && h >= tallHeight && procs > (h-fixed-4)/2 {
		// Many Ps: leave the log at least a third of a tall screen.
		l.visibleProcs = max(min(l.visibleProcs, (h-fixed-h/3)/2), 1)
	}
	l.procsRows = 1 + l.visibleProcs
	l.timelineRows = 1 + l.visibleProcs
	// When every P fits only without the timeline (8 Ps at 80×24), the
	// Ps come first: the timeline gives its rows up, and the Ps title
	// says where it went.
	if compact := h - fixed + 1; !a.keepTimeline && h < tallHeight && l.visibleProcs < procs && compact >= procs {
		l.visibleProcs, l.procsRows, l.timelineRows = procs, 1+procs, 0
		l.timelineHidden = true
	}
	l.consoleRows = consoleRows(a, h)
	rest := h - (1 + l.procsRows + l.infoRows + l.poolsRows + l.timelineRows + l.consoleRows + l.explainRows + l.noteRows + 1)
	l.logRows = max(rest, 2)

	row := 0
	l.header, row = row, row+1
	l.procs, row = row, row+l.procsRows
	l.info, row = row, row+l.infoRows
	l.pools, row = row, row+l.poolsRows
	l.timeline, row = row, row+l.timelineRows
	l.log, row = row, row+l.logRows
	l.console, row = row, row+l.consoleRows
	l.explain, row = row, row+l.explainRows
	l.note, row = row, row+l.noteRows
	l.status = row
	// The full view, top to bottom: a new panel is a file and a line here.
	l.placed = []placement{
		{headerPanel{}, l.header, 1},
		{&a.procs, l.procs, l.procsRows},
		{infoPanel{}, l.info, l.infoRows},
		{poolsPanel{}, l.pools, l.poolsRows},
		{timelinePanel{}, l.timeline, l.timelineRows},
		{&a.log, l.log, l.logRows},
		{consolePanel{}, l.console, l.consoleRows},
		{explainPanel{}, l.explain, l.explainRows},
		{notePanel{}, l.note, l.noteRows},
		{statusPanel{}, l.status, 1},
	}
	return l
}

// Draw draws the screen.
func (v *rootView) Draw(screen tcell.Screen) {
	v.Box.DrawForSubclass(screen, v)
	x, y, w, h := v.GetInnerRect()
	v.a.screen = screen // for reading what a click landed on
	c := canvas{scr: v.a.theme.screen(screen), x: x, y: y, w: w, h: h}
	t := v.a.theme
	c.clear(t.Base)
	if w < leastWidth || h < leastHeight {
		msg := fmt.Sprintf("schedlab needs a terminal of at least %d×%d (%d×%d to see everything); this one is %d×%d. Make it larger, or press q to quit.",
			leastWidth, leastHeight, minWidth, minHeight, w, h)
		for i, line := range wrap(msg, w) {
			c.text(0, i, line, t.Warn)
		}
		return
	}
	a := v.a
	if a.split != nil {
		drawSplit(c, a)
		return
	}
	if a.procs.top > a.sess.Config().Procs-1 {
		a.procs.top = 0
	}
	l := v.computeLayout(w, h)
	v.layout = l
	for _, p := range l.placed {
		if p.rows > 0 {
			p.panel.draw(c.sub(p.row, p.rows), a, l)
		}
	}
	if a.quiz != nil {
		drawQuiz(c, a)
	}
	if a.split == nil && a.sess.AtEnd() && !a.deadlockShown && a.sess.State().End().Reason == gmp.Deadlock {
		// A deadlock opens the list, its blocked goroutines first.
		a.deadlockShown, a.glist.open, a.glist.top = true, true, 0
	}
	if a.glist.open {
		a.glist.draw(c, a, l)
	}
	if a.gloss.open {
		a.gloss.draw(c, a, l)
	}
	if a.help {
		drawHelp(c, a)
	}
}

// MouseHandler passes clicks and the wheel to the App (mouse.go).
func (v *rootView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		return v.a.mouse(action, event), nil
	}
}

// panelTitle writes a panel's title row: the name, then details.
func panelTitle(c canvas, a *App, name, detail string, focus int) {
	st := a.theme.Title
	if focus >= 0 && a.focus == focus {
		st = a.theme.Focus
	}
	col := c.text(0, 0, " "+name+" ", st)
	if detail != "" {
		c.text(col+1, 0, truncate(detail, c.w-col-1), a.theme.Dim)
	}
}
