package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// laneLabel is the width of "P12 │".
const laneLabel = 5

// timelineSpan picks how much recent time the timeline shows: enough to
// hold the last events at about three per column, rounded up to 1, 2 or 5
// times a power of ten, so the scale reads easily and does not flicker.
func timelineSpan(f frame, cols int) time.Duration {
	cur := f.cursor
	now := f.state.Now()
	back := max(cur-3*cols, 0)
	d := now.Sub(f.events.Event(back).T)
	d = max(d, 100*time.Microsecond)
	for unit := time.Microsecond; ; unit *= 10 {
		for _, m := range []time.Duration{1, 2, 5} {
			if m*unit >= d {
				return m * unit
			}
		}
	}
}

// timelinePanel draws one lane per visible P over the recent span: which G
// ran (its label, then ━ in its colour), syscalls (≈), preemptions (!),
// and marks for steals (S), retakes (R) and ring overflows (O).
type timelinePanel struct{}

// rows are a title and a lane per P shown, none when the Ps took them.
func (timelinePanel) rows(f frame, _ int) int {
	if f.l.hide {
		return 0
	}
	return 1 + f.l.shown
}

// paneTimeline is the timeline in a split pane: shown only with three
// rows left under its lanes, and saying how many lanes it leaves out.
type paneTimeline struct{ timelinePanel }

func (paneTimeline) rows(f frame, room int) int {
	switch {
	case f.l.shown+1+3 > room:
		return 0
	case f.l.shown < f.state.Procs():
		return f.l.shown + 2
	}
	return f.l.shown + 1
}

func (p paneTimeline) draw(c canvas, f frame) {
	p.timelinePanel.draw(c, f)
	if procs := f.state.Procs(); f.l.shown < procs {
		// As under the Ps: the lanes left out are said, not dropped.
		c.text(0, 1+f.l.shown, truncate(fmt.Sprintf("… and %d more lanes", procs-f.l.shown), c.w), f.theme.Dim)
	}
}

func (timelinePanel) draw(c canvas, f frame) {
	t := f.theme
	st := f.state
	cols := c.w - laneLabel
	if cols < 10 || f.cursor < 0 {
		panelTitle(c, f, "timeline", "", -1)
		return
	}
	span := timelineSpan(f, cols)
	to := st.Now()
	from := sim.Time(max(int64(to)-int64(span), 0))
	step := float64(span) / float64(cols)
	colOf := func(at sim.Time) int {
		return min(int(float64(at-from)/step), cols-1)
	}
	panelTitle(c, f, "timeline", fmt.Sprintf("last %s, %s a column · %s",
		short(to.Sub(from)), short(time.Duration(step)), timelineLegend()), -1)
	cursor := f.cursor
	tl := f.events.Timeline(from)
	for i := range f.l.shown {
		p := gmp.PID(f.procsTop + i)
		if int(p) >= st.Procs() {
			break
		}
		row := 1 + i
		c.text(0, row, fmt.Sprintf("%-4s", p.String()), t.Title)
		c.text(laneLabel-1, row, "│", t.Dim)
		lane := canvas{scr: c.scr, x: c.x + laneLabel, y: c.y, w: cols, h: c.h}
		lane.fill(0, cols, row, ' ', t.Base)
		type label struct {
			col, room int
			text      string
			st        tcell.Style
		}
		var labels []label
		preempted := map[int]bool{}
		tl.Window(p, from, to, cursor, func(seg Segment) {
			c0, c1 := colOf(max(seg.Start, from)), colOf(seg.End)
			fillRune, st := '━', t.G(int(seg.G))
			if seg.Kind == SegSyscall {
				fillRune, st = '≈', t.Syscall
			}
			if seg.G == f.found {
				st = t.Found
			}
			lane.fill(c0, c1+1, row, fillRune, st)
			if seg.Start >= from {
				labels = append(labels, label{col: c0, room: c1 - c0 + 1, text: seg.G.String(), st: st})
			}
			if seg.How == EndPreempted {
				preempted[c1] = true
			}
		})
		// Marks after all segments (the next one often starts in the same
		// column), and labels after the marks, moved past them.
		for col := range preempted {
			lane.text(col, row, "!", t.Warn)
		}
		free := 0 // first column no label covers yet; labels come in time order
		for _, l := range labels {
			if preempted[l.col] {
				l.col++
				l.room--
			}
			if l.col >= free && l.room >= width(l.text) {
				free = lane.text(l.col, row, l.text, l.st)
			}
		}
		tl.Marks(p, from, to, cursor, func(m Mark) {
			col := colOf(m.T)
			if m.Kind == MarkSteal {
				// The stolen G starts running at once: mark the column
				// before, so its label stays readable.
				col = max(col-1, 0)
			}
			lane.text(col, row, [...]string{MarkSteal: "S", MarkRetake: "R", MarkOverflow: "O"}[m.Kind], t.Warn)
		})
	}
}
