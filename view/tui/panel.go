package tui

// The screen is made of panels. Each is a small type that reads the App's
// session (the model's state at the cursor; a panel never steps the model)
// and draws itself into the rows the layout gives it. A panel that
// scrolls keeps its own position. The full view and the split view's
// panes are made of the same panels; a pane is an App of its own, so its
// panels scroll apart from the other pane's.

// panel is one part of the screen.
type panel interface {
	draw(c canvas, a *App, l layout)
}

// scroller is a panel that the arrows, pgup/pgdn and the wheel scroll.
type scroller interface {
	panel
	// scroll moves what the panel shows by n rows, down (later, further
	// on) when n > 0, and keeps it within what there is to show.
	scroll(a *App, l layout, n int)
	// page is how far pgdn and pgup move it.
	page(l layout) int
}

// overlay is the state of a list drawn over the screen (the goroutine
// list, the glossary): whether it is open, and its first line shown.
type overlay struct {
	open bool
	top  int
}

// toggle opens a closed list at its start, or closes an open one.
func (o *overlay) toggle() { o.open, o.top = !o.open, 0 }

func (o *overlay) scroll(_ *App, _ layout, n int) { o.top = max(o.top+n, 0) }

// page is most of a screen.
func (o *overlay) page(l layout) int { return max(l.h-6, 1) }

// shown keeps top within n lines of which rows fit, and returns it.
func (o *overlay) shown(n, rows int) int {
	o.top = max(min(o.top, n-rows), 0)
	return o.top
}

// placement is a panel and the rows of the screen it is drawn in.
type placement struct {
	panel     panel
	row, rows int
}

// focusable are the panels tab moves the focus between, in order.
func (a *App) focusable() [numFocus]scroller {
	return [numFocus]scroller{focusProcs: &a.procs, focusLog: &a.log}
}
