package tui

import (
	"fmt"
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
	if a.message != "no such goroutine: G77; the run makes only G1" {
		t.Errorf("message %q", a.message)
	}
}

// end on a run of few events over many steps (testdata/nested-loops.yaml,
// issue 26's defect 1: 2,987 events over 20 million steps) goes a slice
// of at most stepSlice steps at a time, says how far it got, and a key
// pressed between two slices is handled there: esc stops the job where
// it got to. The test drives the job slice by slice; nothing is timed.
func TestEndOnASparseRunGoesByStepsAndStops(t *testing.T) {
	sc, err := scenarios.Load("testdata/nested-loops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	steps := func() uint64 { return a.sess.frontier.Steps() }
	before := steps()
	key(a, tcell.KeyEnd, 0)
	if a.job == nil {
		t.Fatalf("end ran the whole run in one slice: %d steps, %q", steps()-before, a.message)
	}
	if took := steps() - before; took > stepSlice {
		t.Fatalf("the first slice took %d steps, more than %d", took, stepSlice)
	}
	for i := range 5 {
		at := steps()
		if a.job.step() {
			t.Fatalf("slice %d ended the job", i)
		}
		if took := steps() - at; took == 0 || took > stepSlice {
			t.Fatalf("slice %d took %d steps, want 1 to %d", i, took, stepSlice)
		}
		a.message = a.jobLine()
		if !strings.Contains(a.message, "running to the end") || !strings.Contains(a.message, "steps") || !strings.Contains(a.message, "esc stops") {
			t.Fatalf("no progress shown: %q", a.message)
		}
	}
	cursor := a.sess.Cursor()
	key(a, tcell.KeyEscape, 0) // between two slices
	if a.job != nil || !strings.HasPrefix(a.message, "stopped running to the end") || a.sess.Cursor() != cursor {
		t.Fatalf("esc between slices: job %v, message %q, cursor %d (was %d)", a.job != nil, a.message, a.sess.Cursor(), cursor)
	}
	// The screen is drawn from where the job stopped.
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, fmt.Sprintf("event %d ", cursor+1)) {
		t.Fatalf("the screen does not show event %d:\n%s", cursor+1, got)
	}
}
