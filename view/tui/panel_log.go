package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
)

// logPanel writes the events up to the cursor, newest at the bottom, each
// with its time, kind and sentence. The current event is reversed.
type logPanel struct {
	back int // how far the log is scrolled back from the cursor
}

// rows are what the other rows leave, and at least two, which may run
// off the foot of a screen too small.
func (p *logPanel) rows(_ frame, room int) int { return max(room, 2) }

// paneLog is the log in a split pane: what the other rows leave, none
// under two.
type paneLog struct{ *logPanel }

func (paneLog) rows(_ frame, room int) int {
	if room < 2 {
		return 0
	}
	return room
}

func (p *logPanel) draw(c canvas, f frame) {
	t := f.theme
	s := f.events
	cur := f.cursor
	detail := "up to the current event, newest last"
	if p.back > 0 {
		detail = fmt.Sprintf("scrolled back %d (↓ returns)", p.back)
		if sel := f.selected; sel >= 0 {
			detail = fmt.Sprintf("event %d selected: enter goes there, ↓ returns", sel+1)
		}
	}
	panelTitle(c, f, "events", detail, focusLog)
	d := f.desc
	rows := c.h - 1
	last := cur - p.back
	for r := range rows {
		i := last - (rows - 1 - r)
		if i < 0 {
			continue
		}
		e := s.Event(i)
		st := t.Base
		if i == cur {
			st = t.Current
			c.fill(0, c.w, 1+r, ' ', st)
		}
		col := c.text(0, 1+r, fmt.Sprintf("%12s ", e.T), dimUnless(t, st, i == cur))
		col = c.text(col, 1+r, fmt.Sprintf("%-13s ", e.Kind), dimUnless(t, st, i == cur))
		lineStyle := st
		switch {
		case i == cur:
		case i == f.selected:
			lineStyle = t.Current.Underline(true)
			c.fill(col, c.w, 1+r, ' ', lineStyle)
		case e.Involves(f.found), f.searchText != "" && matches(e, d, f.searchText):
			lineStyle = t.Found
		}
		c.text(col, 1+r, truncate(d.Describe(e), c.w-col), lineStyle)
	}
}

// dimUnless is the dim style for secondary columns, except on the current
// line, which keeps its own.
func dimUnless(t *Theme, st tcell.Style, cur bool) tcell.Style {
	if cur {
		return st
	}
	return t.Dim
}

// explainLines is the current event's sentence wrapped to the screen, and
// a tail line with the runtime function, the scenario line, the P and M.
func explainLines(f frame, w int) ([]string, string) {
	s := f.events
	if f.cursor < 0 {
		return []string{"before the first event"}, ""
	}
	e := s.Event(f.cursor)
	text := f.desc.Describe(e)
	if sel := f.selected; sel >= 0 {
		// The event selected in the log, read whole before going there.
		e = s.Event(sel)
		text = fmt.Sprintf("event %d, selected: %s", sel+1, f.desc.Describe(e))
	}
	lines := wrap(text, w-2)
	if len(lines) > 4 {
		lines = append(lines[:3], truncate(strings.Join(lines[3:], " "), w-2))
	}
	if why := whyNow(f, f.cursor, e); why != "" && f.selected < 0 {
		lines = append(lines, wrap(why, w-2)...)
	}
	var tail []string
	if fn := e.Fn(); fn != "" {
		tail = append(tail, "runtime: "+fn)
	}
	if e.Cause >= 0 {
		c := s.Event(int(e.Cause))
		who := ""
		switch {
		case c.G != gmp.NoG:
			who = " of " + c.G.String()
		case c.M != gmp.NoM:
			who = " by " + c.M.String() // a poll, a thread's wake-up
		}
		tail = append(tail, fmt.Sprintf("cause: event %d, %v%s (c)", e.Cause+1, c.Kind, who))
	}
	if e.Op != nil && e.Op.Pos.Line > 0 {
		tail = append(tail, "scenario: "+e.Op.Pos.String())
	}
	if end := f.end; end != "" {
		tail = append(tail, "run ended: "+end)
	}
	return lines, strings.Join(tail, " · ")
}

// scroll moves the log back towards the start (n < 0) or on towards the
// cursor (n > 0); it never shows events past the cursor.
func (p *logPanel) scroll(f frame, n int) {
	p.back = max(min(p.back-n, f.cursor), 0)
}

// page is the log's rows but two, so a line stays in view.
func (p *logPanel) page(f frame) int { return max(f.l.rowsOf(rowEvents)-2, 1) }

// explainPanel writes the current event's sentence whole, then where it
// came from in the scenario and, at the end, how the run ended.
type explainPanel struct{}

// rows are the sentence's and one for the tail.
func (explainPanel) rows(f frame, _ int) int {
	text, _ := explainLines(f, f.w)
	return len(text) + 1
}

// least is the sentence's first line and the tail.
func (explainPanel) least(_ frame, want int) int { return min(want, 2) }

func (explainPanel) draw(c canvas, f frame) {
	t := f.theme
	text, tail := explainLines(f, f.w)
	text = cutLines(text, c.h-1, f.w-2)
	for i, line := range text {
		c.text(1, i, line, t.Base.Bold(true))
	}
	tailStyle := t.Dim
	if f.atEnd && (f.state.End().Err != nil || !f.sc.AsExpected(f.state.End())) {
		tailStyle = t.Warn
	}
	c.text(1, len(text), truncate(tail, c.w-2), tailStyle)
}

// noteAge is how many events a note stays on screen after it is reached.
const noteAge = 40

// noteLines is the caption to show, if the cursor is at or shortly after
// a note.
func noteLines(f frame, w int) ([]string, []string) {
	notes := f.notes
	if len(notes) == 0 || f.cursor-notes[0].Event > noteAge {
		return nil, nil
	}
	// Several notes on one event are all shown, each under its own
	// heading; together they get the rows one note would.
	var headings, lines []string
	for _, n := range notes {
		heading := fmt.Sprintf("note %d/%d ▸ ", n.Number, len(f.sc.Notes))
		if n.HasAt && f.events.Event(n.Event).T != n.At {
			// Shown on the event before its moment: say the moment.
			heading = fmt.Sprintf("note %d/%d at %s ▸ ", n.Number, len(f.sc.Notes), short(n.At.D()))
		}
		body := reflow(n.Text)
		if n.More > 0 {
			body += fmt.Sprintf(" (] shows %d more of this moment)", n.More)
		}
		text := wrap(body, w-width(heading)-1)
		if n.Held || f.quiz != nil && !f.quiz.revealed {
			heading = fmt.Sprintf("note %d/%d waits ", n.Number, len(f.sc.Notes))
			text = wrap("until the question after it is answered: it could give the answer away", w-width(heading)-1)
		}
		room := 5
		if len(notes) > 1 {
			room = max(7/len(notes), 2)
		}
		if len(text) > room {
			text = append(text[:room-1], truncate(strings.Join(text[room-1:], " "), w-width(heading)-1))
		}
		for j, line := range text {
			h := ""
			if j == 0 {
				h = heading
			}
			headings = append(headings, h)
			lines = append(lines, line)
		}
	}
	return headings, lines
}

// notePanel writes the scenario's notes that land on the current event,
// each under its heading.
type notePanel struct{}

func (notePanel) rows(f frame, _ int) int {
	if (noteBox{}).shows(f) {
		return 0 // shown large instead
	}
	_, text := noteLines(f, f.w)
	return len(text)
}

// least is the note's first two lines.
func (notePanel) least(_ frame, want int) int { return min(want, 2) }

func (notePanel) draw(c canvas, f frame) {
	t := f.theme
	headings, text := noteLines(f, f.w)
	if len(text) > c.h {
		// Cut short to make room for the Ps: the last line says so.
		indent := width(headings[0])
		text = cutLines(text, c.h, f.w-indent-1)
	}
	indent := 0
	for i, line := range text {
		if h := headings[i]; h != "" {
			indent = c.text(0, i, h, t.Note.Bold(true))
		}
		c.text(indent, i, line, t.Note)
	}
}

// cutLines keeps the first n of lines, the last of them ending in "…"
// when some are left out; w is the width they were wrapped to.
func cutLines(lines []string, n, w int) []string {
	if n <= 0 {
		return nil
	}
	if len(lines) <= n {
		return lines
	}
	out := append([]string(nil), lines[:n]...)
	if last := out[n-1]; width(last) < w {
		out[n-1] = last + "…"
	} else {
		out[n-1] = truncate(last+"…", w)
	}
	return out
}

// statusPanel writes the find prompt, a message, or the key hints from the
// binding table.
type statusPanel struct{}

func (statusPanel) rows(frame, int) int { return 1 }

func (statusPanel) draw(c canvas, f frame) {
	t := f.theme
	c.fill(0, c.w, 0, ' ', t.Base)
	if f.prompt != nil {
		drawPrompt(c, f)
		return
	}
	col := 0
	if f.present {
		// In front of a class the bar says what happens, not the keys.
		const quiet = "presenting · ? keys "
		col := c.text(0, 0, " "+truncate(f.message, c.w-width(quiet)-3), t.Note.Bold(true))
		if c.w-width(quiet) > col {
			c.text(c.w-width(quiet), 0, quiet, t.Dim)
		}
		return
	}
	if f.message != "" {
		col = c.text(0, 0, " "+truncate(f.message, c.w*2/3)+" ", t.Note.Bold(true))
	}
	// Hints in table order; ? and q always fit at the end.
	var hints []Binding
	var tail []Binding
	for _, b := range f.keys {
		switch {
		case b.Bar == "":
		case b.Label == "?" || b.barLabel() == "q":
			tail = append(tail, b)
		default:
			hints = append(hints, b)
		}
	}
	tailW := 0
	for _, b := range tail {
		tailW += width(b.barLabel()) + width(b.barText(f.playing)) + 3
	}
	for _, b := range hints {
		need := width(b.barLabel()) + width(b.barText(f.playing)) + 3
		if col+need > c.w-tailW {
			break
		}
		col = hint(c, f, col, b)
	}
	for _, b := range tail {
		col = hint(c, f, col, b)
	}
}

func hint(c canvas, f frame, col int, b Binding) int {
	col = c.text(col+1, 0, b.barLabel(), f.theme.Key)
	return c.text(col+1, 0, b.barText(f.playing), f.theme.Dim) + 1
}

// helpPanel draws the key table in a framed box over the screen, in two
// columns when one does not fit.
type helpPanel struct{}

func (helpPanel) shows(f frame) bool { return f.help }

func (helpPanel) draw(c canvas, f frame) {
	t := f.theme
	n := len(f.keys)
	cols := 1
	if n+4 > c.h {
		cols = 2
	}
	perCol := (n + cols - 1) / cols
	const colW = 38
	w := min(cols*colW+4, c.w)
	h := min(perCol+4, c.h)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	box.frame(" keys · esc or ? closes · scrolling acts on the focused panel ", t)
	for i, b := range f.keys {
		x := 2 + (i/perCol)*colW
		row := 2 + i%perCol
		box.text(x, row, fmt.Sprintf("%-10s", b.Label), t.Key)
		box.text(x+10, row, truncate(b.Help, colW-11), t.Base)
	}
}
