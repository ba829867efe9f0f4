package tui

// The screen is made of panels. Each is a small type that draws itself
// from a frame (frame.go: the run at the cursor, what the user looks at,
// the theme, the size) into the rows the layout gives it; it never sees
// the App, so it never steps the model. A panel that scrolls keeps its
// own position. The full, split and trace views are one layout list of
// these panels (layout.go).

// panel is one part of the screen.
type panel interface {
	draw(c canvas, f frame)
}

// rowPanel is a panel with rows of its own in the layout list.
type rowPanel interface {
	panel
	// rows is how many rows the panel takes in f's view: room is how
	// many are left from its top to the foot of the pane (for the fill
	// row, what the others leave). 0 leaves it out.
	rows(f frame, room int) int
}

// overlayPanel is a panel drawn over the whole screen while it is open.
type overlayPanel interface {
	panel
	shows(f frame) bool
}

// scroller is a panel that the arrows, pgup/pgdn and the wheel scroll.
type scroller interface {
	panel
	// scroll moves what the panel shows by n rows, down (later, further
	// on) when n > 0, and keeps it within what there is to show.
	scroll(f frame, n int)
	// page is how far pgdn and pgup move it.
	page(f frame) int
}

// panels are the panels of a view that keep state of their own: how far
// each scrolls, whether a list is open. The full view has one set; each
// split pane has its own, so that the panes scroll apart.
type panels struct {
	procs   procsPanel
	log     logPanel
	glist   goroutineList   // the goroutine list (g)
	gloss   glossaryOverlay // the glossary (L)
	listing sourceOverlay   // the source around the event's line (S)
	quizBox quizPanel       // the question open, and where its choices are
}

// overlay is the state of a list drawn over the screen (the goroutine
// list, the glossary): whether it is open, and its first line shown.
type overlay struct {
	open bool
	top  int
}

// toggle opens a closed list at its start, or closes an open one.
func (o *overlay) toggle() { o.open, o.top = !o.open, 0 }

func (o *overlay) scroll(_ frame, n int) { o.top = max(o.top+n, 0) }

// page is most of a screen.
func (o *overlay) page(f frame) int { return max(f.h-6, 1) }

func (o *overlay) shows(frame) bool { return o.open }

// shown keeps top within n lines of which rows fit, and returns it.
func (o *overlay) shown(n, rows int) int {
	o.top = max(min(o.top, n-rows), 0)
	return o.top
}

// focusable are the panels tab moves the focus between, in order.
func (a *App) focusable() [numFocus]scroller {
	return [numFocus]scroller{focusProcs: &a.procs, focusLog: &a.log}
}
