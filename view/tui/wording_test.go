package tui

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/taskmode"
)

// Issue 26, defect 12: the smaller things a class notices.

// From 60 to 79 columns nothing runs into anything: the ring and the
// tick of a P ("ring 0tick 1"), the title and the header's figures.
func TestNarrowScreensDoNotOverlap(t *testing.T) {
	for w := leastWidth; w < minWidth; w++ {
		a := newApp(t, "tour", false)
		for range 25 {
			key(a, tcell.KeyRight, 0)
		}
		got := draw(t, a, w, 24).text
		lines := strings.Split(got, "\n")
		for _, l := range lines[2:4] {
			if strings.Contains(l, "tick") && !strings.Contains(l, " tick ") {
				t.Errorf("%d columns: %q runs into its tick", w, l)
			}
			if strings.Contains(l, "ring") && !strings.Contains(l, "ring ") {
				t.Errorf("%d columns: %q runs into its ring", w, l)
			}
		}
		if head := lines[0]; !strings.Contains(head, " seed ") && !strings.Contains(head, " t=") || strings.Contains(head, "Aseed") {
			t.Errorf("%d columns: the header runs together: %q", w, head)
		}
	}
}

// The title keeps its place as the run goes: what it shows does not move
// by a column as the time, the event or the play state grow or shrink.
func TestTitleDoesNotJitter(t *testing.T) {
	a := newApp(t, "sem-heavy", false) // a title the header cuts at 80 columns
	title := func() string {
		head := strings.Split(draw(t, a, 80, 24).text, "\n")[0]
		left, _, _ := strings.Cut(head, "…")
		return left
	}
	first := title()
	for i := range 60 {
		key(a, tcell.KeyRight, 0)
		if i == 30 {
			keys(a, " ") // ▶ rather than paused
		}
		if got := title(); got != first {
			t.Fatalf("after %d steps the title reads %q, first %q", i+1, got, first)
		}
	}
}

// v from the split view opens the full view at the same moment, not at
// its first event; and from the full view, the split.
func TestSwitchingViewsKeepsTheTime(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSplit(sc, sc.Config(), [2]taskmode.Mode{taskmode.Raw, taskmode.Pool}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		key(sp, tcell.KeyRight, 0)
	}
	at := sp.runs.now()
	keys(sp, "v")
	next := sp.Next()
	if next == nil || next.Split || next.At != at || at == 0 {
		t.Fatalf("v from the split view asks for %+v, want the full view at %v", next, at)
	}
	full, err := New(sc, sc.Config(), Options{StartAt: next.At})
	if err != nil {
		t.Fatal(err)
	}
	s := full.Session()
	if now := s.State().Now(); now > at || s.Cursor() == 0 {
		t.Fatalf("the full view opens at %v, event %d; want the last event at or before %v", now, s.Cursor()+1, at)
	}
	if e, ok := s.Peek(s.Cursor() + 1); ok && e.T <= at {
		t.Fatalf("the full view stops at %v though event %d comes at %v, before %v", s.State().Now(), s.Cursor()+2, e.T, at)
	}
	keys(full, "v")
	if n := full.Next(); n == nil || !n.Split || n.At != full.runs.now() {
		t.Fatalf("v from the full view asks for %+v", n)
	}
	back, err := NewSplit(sc, sc.Config(), [2]taskmode.Mode{taskmode.Raw, taskmode.Pool}, Options{StartAt: full.runs.now()})
	if err != nil {
		t.Fatal(err)
	}
	if now := back.runs.now(); now > full.runs.now() || now == 0 {
		t.Fatalf("the split view opens at %v, want up to %v", now, full.runs.now())
	}
}

// A goroutine the run never makes is "no such goroutine" once the end is
// known: n towards it says so, and / after the end says it at once.
func TestNoSuchGoroutineOnceTheEndIsKnown(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "/G50")
	key(a, tcell.KeyEnter, 0)
	if !strings.Contains(a.message, "does not exist yet") {
		t.Fatalf("/G50 at the start: %q", a.message)
	}
	keys(a, "n")
	for a.job != nil {
		a.stepJob()
	}
	if !strings.HasPrefix(a.message, "no such goroutine: G50") || !strings.Contains(a.message, "G1–G9") {
		t.Fatalf("n towards G50: %q", a.message)
	}
	keys(a, "/G50")
	key(a, tcell.KeyEnter, 0)
	if !strings.HasPrefix(a.message, "no such goroutine: G50") {
		t.Fatalf("/G50 once the end is known: %q", a.message)
	}
}

// o with a name that is nearly a built-in says which, as the command
// line does.
func TestOpenSaysDidYouMean(t *testing.T) {
	a := newApp(t, "tour", false)
	a.open("stael")
	if !strings.Contains(a.message, "did you mean steal?") || a.Next() != nil {
		t.Fatalf("o stael: %q", a.message)
	}
}

// The words: a signal by its name, a cause without a goroutine, a
// goroutine waiting for its children.
func TestWordingOfTheUI(t *testing.T) {
	if err := endedBy(syscall.SIGTERM); err.Error() != "stopped by SIGTERM" {
		t.Errorf("SIGTERM ends the UI with %q", err)
	}
	a := newApp(t, "netpoll", false)
	for a.sess.Forward(1) == 1 {
		_, tail := explainLines(a.liveFrame(), 200)
		if strings.Contains(tail, " of -") {
			t.Fatalf("event %d: %q", a.sess.Cursor()+1, tail)
		}
	}
	b := newApp(t, "nested-submit", false)
	for b.sess.Forward(1<<16) > 0 {
	}
	_, lines := goroutineLines(b.liveFrame())
	for _, l := range lines {
		if strings.Contains(l, "(wait) in wait") {
			t.Errorf("the goroutine list reads %q", l)
		}
	}
	if !strings.HasPrefix(lines[0], "G1 waiting for its children") {
		t.Errorf("G1's line reads %q", lines[0])
	}
}

// A scenario that expects a deadlock, or a panic, whose run ends
// normally ends in the UI as check reports it: not as it expects.
func TestUnexpectedEndIsAWarning(t *testing.T) {
	sc, err := scenarios.Parse("ok.yaml", []byte("procs: 1\nexpect: deadlock\nmain:\n  - cpu: 1ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	key(a, tcell.KeyEnd, 0)
	for a.job != nil {
		a.stepJob()
	}
	if !strings.Contains(a.message, "the scenario expects a deadlock") {
		t.Fatalf("the end says %q", a.message)
	}
	f := a.liveFrame()
	if _, tail := explainLines(f, 200); !strings.Contains(tail, "expects a deadlock") {
		t.Fatalf("the tail says %q", tail)
	}
	// As expected, it is no warning.
	b := newApp(t, "nested-submit", false)
	key(b, tcell.KeyEnd, 0)
	for b.job != nil {
		b.stepJob()
	}
	if strings.Contains(b.message, "expects") || !strings.Contains(b.message, fmt.Sprint(gmp.Deadlock)) {
		t.Fatalf("nested-submit's end says %q", b.message)
	}
}
