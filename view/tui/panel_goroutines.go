package tui

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
)

// The goroutine list (g) is every goroutine at the cursor, as the dump Go
// prints on a deadlock: its state, where it is, why it waits, where it was
// made and what it is doing. The blocked ones come first, so that a
// deadlock's cause is the first thing read; the run's end opens the list
// when it is a deadlock.

// goroutineOrder is the order of the list: the waiting first, then those
// in syscalls, the runnable, the running, and the exited last.
var goroutineOrder = []struct {
	status gmp.GStatus
	name   string
}{
	{gmp.Gwaiting, "waiting"},
	{gmp.Gsyscall, "in a syscall"},
	{gmp.Grunnable, "runnable"},
	{gmp.Grunning, "running"},
	{gmp.Gdead, "exited"},
}

// goroutineLines are the list's lines: a count by state, then a line per
// goroutine in goroutineOrder.
func goroutineLines(f frame) (summary string, lines []string) {
	st := f.state
	byStatus := map[gmp.GStatus][]gmp.GID{}
	// NumG is one more than the highest goroutine id.
	for id := gmp.GID(1); int(id) < st.NumG(); id++ {
		g := st.G(id)
		byStatus[g.Status] = append(byStatus[g.Status], id)
	}
	var counts []string
	for _, o := range goroutineOrder {
		ids := byStatus[o.status]
		if len(ids) == 0 {
			continue
		}
		counts = append(counts, fmt.Sprintf("%d %s", len(ids), o.name))
		for _, id := range ids {
			lines = append(lines, describeG(st, f.desc, id))
		}
	}
	return strings.Join(counts, ", "), lines
}

// goroutineList draws the list over the screen.
type goroutineList struct{ overlay }

func (g *goroutineList) draw(c canvas, f frame) {
	t := f.theme
	w, h := min(c.w-2, 120), c.h-2
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + 1, w: w, h: h}
	summary, lines := goroutineLines(f)
	box.frame(" goroutines · ↓ ↑ pgdn pgup scroll · esc or g closes ", t)
	box.text(2, 1, truncate(fmt.Sprintf("at event %d: %s", f.cursor+1, summary), w-4), t.Title)
	// Each goroutine's line is shown whole, wrapped, its continuation
	// indented under it.
	type row struct {
		text string
		dim  bool
	}
	var shown []row
	for _, line := range lines {
		exited := strings.HasSuffix(line, " exited")
		for i, part := range wrap(line, w-6) {
			if i > 0 {
				part = "  " + part
			}
			shown = append(shown, row{part, exited})
		}
	}
	rows := h - 3
	top := g.shown(len(shown), rows)
	for i := 0; i < rows && top+i < len(shown); i++ {
		r := shown[top+i]
		style := t.Base
		if r.dim {
			style = t.Dim
		}
		box.text(2, 2+i, r.text, style)
	}
	if more := len(shown) - top - rows; more > 0 {
		box.text(w-14, h-1, fmt.Sprintf(" %d more ↓ ", more), t.Title)
	}
}
