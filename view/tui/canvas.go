package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/schedlab/schedlab/internal/safetext"
)

// canvas draws into a rectangle of the screen, clipping at its edges.
type canvas struct {
	scr        tcell.Screen
	x, y, w, h int
}

// text writes s at column col of row row in style st, clipped to the
// rectangle, and returns the column after it. Every string the UI shows
// is drawn here, so this is where a scenario's or a trace's text is made
// safe for the terminal: its control characters are shown as the text
// outputs show them (safetext.Term: ESC as \x1b), not sent, nor dropped.
func (c canvas) text(col, row int, s string, st tcell.Style) int {
	if row < 0 || row >= c.h {
		return col
	}
	s = safetext.Term(s)
	for s != "" && col < c.w {
		var cluster string
		var width int
		cluster, s, width, _ = uniseg.FirstGraphemeClusterInString(s, -1)
		if width == 0 {
			continue
		}
		if col+width > c.w {
			break
		}
		if col >= 0 {
			c.scr.Put(c.x+col, c.y+row, cluster, st)
		}
		col += width
	}
	return col
}

// fill paints cells [from, to) of row with r.
func (c canvas) fill(from, to, row int, r rune, st tcell.Style) {
	if row < 0 || row >= c.h {
		return
	}
	for col := max(from, 0); col < min(to, c.w); col++ {
		c.scr.SetContent(c.x+col, c.y+row, r, nil, st)
	}
}

// clear blanks the rectangle.
func (c canvas) clear(st tcell.Style) {
	for row := range c.h {
		c.fill(0, c.w, row, ' ', st)
	}
}

// sub returns the part of the canvas from row r, height h.
func (c canvas) sub(r, h int) canvas {
	return canvas{scr: c.scr, x: c.x, y: c.y + r, w: c.w, h: max(min(h, c.h-r), 0)}
}

// width is the number of cells s takes, as text draws it.
func width(s string) int { return uniseg.StringWidth(safetext.Term(s)) }

// truncate shortens s to at most w cells, marking the cut with "…". It
// cuts s as text draws it, its control characters shown.
func truncate(s string, w int) string {
	s = safetext.Term(s)
	switch {
	case width(s) <= w:
		return s
	case w <= 0:
		return ""
	case w == 1:
		return "…"
	}
	out, n := "", 0
	for s != "" {
		var cluster string
		var cw int
		cluster, s, cw, _ = uniseg.FirstGraphemeClusterInString(s, -1)
		if n+cw > w-1 {
			break
		}
		out += cluster
		n += cw
	}
	return out + "…"
}

// wrap breaks s into lines of at most w cells, at spaces where it can.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var lines []string
	for _, para := range splitLines(s) {
		// A line break divides paragraphs; anything else is cut as text
		// draws it.
		para = safetext.Term(para)
		line := ""
		for _, word := range splitWords(para) {
			switch {
			case line == "":
				line = word
			case width(line)+1+width(word) <= w:
				line += " " + word
			default:
				lines = append(lines, line)
				line = word
			}
			for width(line) > w {
				cut := strings.TrimSuffix(truncate(line, w), "…")
				if cut == "" {
					// Too narrow for a character and the ellipsis: a
					// character a line, so the loop always moves on.
					cut, _, _, _ = uniseg.FirstGraphemeClusterInString(line, -1)
				}
				lines = append(lines, cut)
				line = line[len(cut):]
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// reflow joins the lines of each paragraph of s (paragraphs are separated
// by a blank line), so text written with line breaks for its source file
// wraps to the screen instead.
func reflow(s string) string {
	paras := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n")
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// frame clears the canvas and draws a box around it with title on its
// top edge: the overlays (help, a question) are drawn in one.
func (c canvas) frame(title string, t *Theme) {
	c.clear(t.Base)
	c.fill(1, c.w-1, 0, '─', t.Title)
	c.fill(1, c.w-1, c.h-1, '─', t.Title)
	for row := 1; row < c.h-1; row++ {
		c.text(0, row, "│", t.Title)
		c.text(c.w-1, row, "│", t.Title)
	}
	c.text(0, 0, "┌", t.Title)
	c.text(c.w-1, 0, "┐", t.Title)
	c.text(0, c.h-1, "└", t.Title)
	c.text(c.w-1, c.h-1, "┘", t.Title)
	c.text(2, 0, truncate(title, c.w-4), t.Title)
}
