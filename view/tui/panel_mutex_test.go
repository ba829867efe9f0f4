package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The pools panel gives each mutex a row: who holds it, its mode, who
// spins and who waits in line, read from the model at the cursor.
func TestMutexRowShowsHolderModeAndQueue(t *testing.T) {
	a := newApp(t, "mutex-starvation", false)
	row := func() string {
		t.Helper()
		for _, line := range strings.Split(draw(t, a, 160, 48).text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "mu mutex") {
				return line
			}
		}
		t.Fatalf("no row for mutex mu:\n%s", draw(t, a, 160, 48).text)
		return ""
	}
	keys(a, "]]]") // G2, woken, loses to G4 and goes back to the front
	if got := row(); !strings.Contains(got, "held by G4") || !strings.Contains(got, "normal") ||
		!strings.Contains(got, "2 waiting, next first: G2 G3") {
		t.Errorf("in normal mode the row reads %q", got)
	}
	keys(a, "]") // G2 starves: the switch and the queue, then the park
	key(a, tcell.KeyRight, 0)
	key(a, tcell.KeyRight, 0)
	if got := row(); !strings.Contains(got, "starving") || !strings.Contains(got, "next first: G2 G3") {
		t.Errorf("in starvation mode the row reads %q", got)
	}
}

// A wait group's row shows its counter and who waits on it.
func TestWaitGroupRowShowsCounterAndWaiters(t *testing.T) {
	a := newApp(t, "waitgroup-fanout", false)
	keys(a, "]") // main's Wait
	key(a, tcell.KeyRight, 0)
	var got string
	for _, line := range strings.Split(draw(t, a, 160, 48).text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "wg wait group") {
			got = line
		}
	}
	if !strings.Contains(got, "counter 8") || !strings.Contains(got, "1 waiting: G1") {
		t.Errorf("the wait group's row reads %q", got)
	}
}
