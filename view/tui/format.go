package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// short formats a duration in at most about six cells: "980µs", "14.1ms",
// "2.35s". Columns stay narrow and the numbers stay readable.
func short(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + short(-d)
	case d < time.Microsecond:
		return strconv.Itoa(int(d)) + "ns"
	case d < time.Millisecond:
		return trimZero(fmt.Sprintf("%.1f", float64(d)/1e3)) + "µs"
	case d < time.Second:
		return trimZero(fmt.Sprintf("%.2f", float64(d)/1e6)) + "ms"
	}
	return trimZero(fmt.Sprintf("%.2f", float64(d)/1e9)) + "s"
}

func trimZero(s string) string {
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// gList writes goroutines into c at (col, row), each in its colour, until
// the list or the space runs out; total is the full length when gs is only
// the front of a longer queue. It returns the column after what it wrote.
func gList(c canvas, f frame, col, row, limit int, gs []gmp.GID, total int) int {
	for i, g := range gs {
		label := g.String()
		left := total - i
		more := ""
		if left > 1 {
			more = "+" + strconv.Itoa(left-1)
		}
		if col+width(label) > limit || col+width(label)+1+width(more) > limit && left > 1 {
			// What does not fit is counted, if the count fits.
			if plus := "+" + strconv.Itoa(left); col+width(plus) <= limit {
				return c.text(col, row, plus, f.theme.Dim)
			}
			return col
		}
		st := f.theme.G(int(g))
		if g == f.found {
			st = f.theme.Found
		}
		col = c.text(col, row, label, st) + 1
	}
	return col
}
