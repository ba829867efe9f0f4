package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The UI shows a scenario's or a trace's control characters as the text
// outputs do (ESC as \x1b), rather than sending or silently dropping
// them, and measures and cuts text as it draws it.
func TestControlCharactersAreShown(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(60, 3)
	c := canvas{scr: scr, w: 60, h: 3}
	s := "a\x1b]0;t\ab\u009b31m\x7f"
	const shown = `a\x1b]0;t\x07b\u009b31m\x7f`
	if end := c.text(0, 0, s, tcell.StyleDefault); end != len(shown) || width(s) != len(shown) {
		t.Errorf("text ends at column %d and width says %d, want %d", end, width(s), len(shown))
	}
	c.text(0, 1, truncate(s, 12), tcell.StyleDefault)
	if got := strings.Join(wrap("one\x1b[2J two\nthree\a", 11), "|"); got != `one\x1b[2J|two|three\x07` {
		t.Errorf("wrap gives %q", got)
	}
	scr.Show()
	cells, w, _ := scr.GetContents()
	row := func(y int) string {
		var b strings.Builder
		for x := range w {
			b.WriteString(string(cells[y*w+x].Runes))
		}
		return strings.TrimRight(b.String(), " ")
	}
	if got := row(0); got != shown {
		t.Errorf("the screen shows %q, want %q", got, shown)
	}
	if got := row(1); got != shown[:11]+"…" {
		t.Errorf("truncated, the screen shows %q, want %q", got, shown[:11]+"…")
	}
}
