package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
)

// A program that prints has an output panel showing its lines as the
// cursor passes their prints, the goroutine that printed each, and the
// scenario's text with its control characters shown, not sent. A program
// that prints nothing has none.
func TestConsoleShowsTheOutput(t *testing.T) {
	sc, err := scenarios.Parse("p.yaml", []byte(`procs: 1
main:
  - go: {do: [{print: "one"}]}
  - go: {do: [{print: "two\e[2J"}]}
  - print: "three"
  - wait: children
`))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, " output  what the program printed, latest last: nothing yet") {
		t.Fatalf("no empty output panel at the start:\n%s", got)
	}
	key(a, tcell.KeyEnd, 0)
	got := draw(t, a, 80, 24).text
	if !strings.Contains(got, "3 lines") || !strings.Contains(got, `G3   two\x1b[2J`) || !strings.Contains(got, "G2   one") {
		t.Errorf("the output panel at the end does not show the last lines:\n%s", got)
	}
	if strings.Contains(got, "three") && !strings.Contains(got, "G1 ") {
		t.Errorf("main's line without its goroutine:\n%s", got)
	}
	if tour := draw(t, newApp(t, "tour", false), 80, 24).text; strings.Contains(tour, " output ") {
		t.Errorf("a scenario that prints nothing has an output panel:\n%s", tour)
	}
}
