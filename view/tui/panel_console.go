package tui

import (
	"fmt"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// The console panel is the program's output: the last lines its print
// actions wrote, by the cursor, each with the goroutine that printed it
// and when. A scenario that prints nothing has no console, so the screen
// of every other scenario is as it was.

// consoleLines is how many printed lines the console shows: fewer on a
// small screen.
func consoleLines(h int) int {
	if h >= tallHeight {
		return 4
	}
	return 2
}

type consolePanel struct{}

// rows is how many rows the console wants: a title and its lines, or none
// for a program with no print action.
func (consolePanel) rows(f frame, _ int) int {
	if !gmp.Prints(f.sc.Main) {
		return 0
	}
	return 1 + consoleLines(f.h)
}

func (consolePanel) draw(c canvas, f frame) {
	if c.h == 0 {
		return
	}
	lines, n := f.state.Output()
	detail := "what the program printed, latest last: nothing yet"
	if n > 0 {
		detail = "what the program printed, latest last: " + plural(n, "line", "lines")
	}
	panelTitle(c, f, "output", detail, -1)
	shown := lines[max(len(lines)-(c.h-1), 0):]
	for i, l := range shown {
		col := c.text(1, 1+i, fmt.Sprintf("%12s %-4v ", sim.FormatMillis(l.T.D()), l.G), f.theme.Dim)
		// The scenario's text: the canvas shows its control characters
		// rather than sending them.
		c.text(col, 1+i, l.Text, f.theme.Base)
	}
}
