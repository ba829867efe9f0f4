package tui

import (
	"fmt"
	"strings"
)

// sourceOverlay shows the scenario's source around the line the current
// event comes from (S): the YAML line of its action, or the Go line of a
// program the Go front end read. The text is the scenario's own, untrusted:
// it reaches the screen only through the canvas, which shows control
// characters as text.
type sourceOverlay struct{ overlay }

// sourceContext is how many lines the overlay shows on each side of the
// event's.
const sourceContext = 6

// sourceWindow returns lines from-to (1-based, inclusive) of src, clipped
// to what src has, with the first line's number; it reads src only as
// far as to.
func sourceWindow(src []byte, from, to int) ([]string, int) {
	from = max(from, 1)
	var out []string
	line, start := 1, 0
	for i := 0; i <= len(src) && line <= to; i++ {
		if i < len(src) && src[i] != '\n' {
			continue
		}
		if i == len(src) && start == len(src) {
			break // the file's last line break ends its last line
		}
		if line >= from {
			out = append(out, strings.TrimSuffix(string(src[start:i]), "\r"))
		}
		line++
		start = i + 1
	}
	return out, from
}

// expandTabs writes a tab as the spaces to the next stop of 4: Go source
// is indented with tabs, which the canvas would otherwise show as \t.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

func (s *sourceOverlay) draw(c canvas, f frame) {
	t := f.theme
	w := min(c.w-2, 110)
	// box is the overlay's frame, with room for n lines inside.
	box := func(n int, title string) canvas {
		b := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + 1, w: w, h: min(c.h-2, n+2)}
		b.clear(t.Base)
		b.frame(title, t)
		return b
	}
	const closes = " · esc or S closes "
	e, what := f.cursor, "the current event"
	if f.selected >= 0 {
		e, what = f.selected, "the selected event"
	}
	if e < 0 || f.sc == nil {
		box(1, " source"+closes).text(2, 1, "before the first event: no line yet", t.Dim)
		return
	}
	ev := f.events.Event(e)
	if ev.Op == nil || ev.Op.Pos.Line <= 0 {
		box(1, " source"+closes).text(2, 1, fmt.Sprintf("%s (%v) is the runtime's, not a line of the scenario's", what, ev.Kind), t.Dim)
		return
	}
	pos := ev.Op.Pos
	title := fmt.Sprintf(" %s · %s%s", pos, what, closes)
	if len(f.sc.Source) == 0 {
		box(1, title).text(2, 1, "the scenario's text is not at hand", t.Dim)
		return
	}
	lines, first := sourceWindow(f.sc.Source, pos.Line-sourceContext, pos.Line+sourceContext)
	b := box(max(len(lines), 1), title)
	numW := len(fmt.Sprint(first + len(lines)))
	for i, l := range lines {
		n := first + i
		style, mark := t.Base, "  "
		if n == pos.Line {
			style, mark = t.Current, "▶ "
			b.fill(1, w-1, 1+i, ' ', style)
		}
		b.text(1, 1+i, fmt.Sprintf("%s%*d  %s", mark, numW, n, expandTabs(l)), style)
	}
}
