package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
)

func appFor(t *testing.T, src string) *App {
	t.Helper()
	sc, err := scenarios.Parse("job.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// end on a long run goes a slice a frame, says how far it got, and esc
// stops it where it got to; run on, it reaches the end.
func TestEndIsAJobThatStops(t *testing.T) {
	a := appFor(t, "procs: 1\nmain:\n  - loop: {times: 100000, do: [gosched]}\n")
	key(a, tcell.KeyEnd, 0)
	if a.job == nil || !strings.Contains(a.message, "running to the end: event") {
		t.Fatalf("end on a long run finished at once (%q)", a.message)
	}
	keys(a, "l") // another key waits
	if a.job == nil {
		t.Fatal("a key other than esc stopped the job")
	}
	at := a.sess.Cursor()
	key(a, tcell.KeyEscape, 0)
	if a.job != nil || !strings.HasPrefix(a.message, "stopped running to the end at event") || a.sess.AtEnd() || a.sess.Cursor() != at {
		t.Fatalf("esc: job %v, message %q, cursor %d (was %d)", a.job != nil, a.message, a.sess.Cursor(), at)
	}
	key(a, tcell.KeyEnd, 0)
	for range 100 {
		if a.job == nil {
			break
		}
		a.stepJob()
	}
	if !a.sess.AtEnd() || !strings.HasPrefix(a.message, "end of the run") {
		t.Fatalf("the job never reached the end: %q", a.message)
	}
}

// n towards a goroutine that never appears is a job that ends saying so,
// and q stops it without quitting.
func TestNextOfAGoroutineThatNeverComes(t *testing.T) {
	a := appFor(t, "procs: 1\nmain:\n  - loop: {times: 100000, do: [gosched]}\n")
	keys(a, "/77")
	key(a, tcell.KeyEnter, 0)
	keys(a, "n")
	if a.job == nil {
		t.Fatal("n did not become a job")
	}
	keys(a, "q")
	if a.job != nil || a.Stopped() {
		t.Fatalf("q: job %v, quit %v", a.job != nil, a.Stopped())
	}
	keys(a, "n")
	for a.job != nil {
		a.stepJob()
	}
	if a.message != "no later event of G77" {
		t.Errorf("message %q", a.message)
	}
}
