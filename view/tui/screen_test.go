package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

// This file is the one place that knows how to put the UI on tcell's
// simulation screen and read it back.

// screen is what a drawn frame looks like: its text, and a compact form
// of every cell's style, so that two frames can be compared exactly.
type screen struct {
	text   string
	styles string
}

// rooted is a view with a root to draw: an App or a TraceApp.
type rooted interface{ Root() tview.Primitive }

// draw renders a's whole screen at w×h on a fresh simulation screen.
func draw(t testing.TB, a rooted, w, h int) screen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(w, h)
	root := a.Root()
	root.SetRect(0, 0, w, h)
	root.Draw(scr)
	scr.Show()
	cells, cw, ch := scr.GetContents()
	var text, styles strings.Builder
	for y := range ch {
		var line strings.Builder
		for x := 0; x < cw; x++ {
			c := cells[y*cw+x]
			fg, bg, attr := c.Style.Decompose()
			fmt.Fprintf(&styles, "%x.%x.%x;", int32(fg), int32(bg), int(attr))
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			r := string(c.Runes)
			line.WriteString(r)
			if width(r) > 1 {
				x++ // the cell a wide character spills into
			}
		}
		text.WriteString(strings.TrimRight(line.String(), " "))
		text.WriteByte('\n')
		styles.WriteByte('\n')
	}
	return screen{text: text.String(), styles: styles.String()}
}

// key sends one key to the UI as tview would.
func key(a *App, k tcell.Key, r rune) {
	a.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone))
}

func keys(a *App, s string) {
	for _, r := range s {
		key(a, tcell.KeyRune, r)
	}
}

func newApp(t testing.TB, name string, mono bool) *App {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{Mono: mono})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// goldenScreen compares a frame's text with testdata/name.
func goldenScreen(t *testing.T, name string, got screen) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".txt"), []byte(got.text))
}

// goldenStyles compares a frame's styles with testdata/name.styles: what
// a theme does to every cell.
func goldenStyles(t *testing.T, name string, got screen) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".styles"), []byte(got.styles))
}
