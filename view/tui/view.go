package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
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

// rootView draws the whole screen: the App's runs, in the full view or
// the split view (runs.show), so that a test can draw it onto a
// simulation screen.
type rootView struct {
	*tview.Box
	a *App
}

func newRootView(a *App) *rootView {
	return &rootView{Box: tview.NewBox(), a: a}
}

// Draw draws the screen.
func (v *rootView) Draw(screen tcell.Screen) {
	v.Box.DrawForSubclass(screen, v)
	x, y, w, h := v.GetInnerRect()
	v.a.screen = screen // for reading what a click landed on
	c := canvas{scr: v.a.theme.screen(screen), x: x, y: y, w: w, h: h}
	defer v.a.classDrawn() // what the screen shows goes to the class
	t := v.a.theme
	c.clear(t.Base)
	if v.a.blank {
		return // b: nothing on screen until a key
	}
	if w < leastWidth || h < leastHeight {
		msg := fmt.Sprintf("schedlab needs a terminal of at least %d×%d (%d×%d to see everything); this one is %d×%d. Make it larger, or press q to quit.",
			leastWidth, leastHeight, minWidth, minHeight, w, h)
		for i, line := range wrap(msg, w) {
			c.text(0, i, line, t.Warn)
		}
		return
	}
	v.a.runs.show(c, v.a.screenFrame(w, h))
}

// MouseHandler passes clicks and the wheel to the App's runs (mouse.go).
func (v *rootView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		return v.a.runs.mouse(action, event), nil
	}
}

// panelTitle writes a panel's title row: the name, then details.
func panelTitle(c canvas, f frame, name, detail string, focus int) {
	st := f.theme.Title
	if focus >= 0 && f.focus == focus {
		st = f.theme.Focus
	}
	col := c.text(0, 0, " "+name+" ", st)
	if detail != "" {
		c.text(col+1, 0, truncate(detail, c.w-col-1), f.theme.Dim)
	}
}
