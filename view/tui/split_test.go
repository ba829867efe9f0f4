package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/taskmode"
)

func newSplit(t *testing.T, name string, a, b taskmode.Mode) *App {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	app, err := NewSplit(sc, sc.Config(), [2]taskmode.Mode{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// The two runs move together in simulated time: after every step, no
// pane has an event left before the other's current moment, and stepping
// back retraces the same states (checked on the cursors at every step, and
// on the whole screen every tenth).
func TestSplitStepsInLockstep(t *testing.T) {
	a := newSplit(t, "purge", taskmode.Raw, taskmode.Semaphore)
	panes := a.Panes()
	type at struct{ c0, c1 int }
	var cursors []at
	screens := map[int]string{}
	for step := range 150 {
		cursors = append(cursors, at{panes[0].Cursor(), panes[1].Cursor()})
		if step%10 == 0 {
			screens[step] = draw(t, a, 100, 30).text
		}
		key(a, tcell.KeyRight, 0)
		now := max(panes[0].State().Now(), panes[1].State().Now())
		for i, s := range panes {
			if e, ok := s.Peek(s.Cursor() + 1); ok && e.T < now {
				t.Fatalf("pane %d has an event at %v before the other's %v", i, e.T, now)
			}
		}
	}
	if panes[0].Cursor() < 20 || panes[1].Cursor() < 20 {
		t.Fatalf("150 steps moved the panes only to events %d and %d", panes[0].Cursor(), panes[1].Cursor())
	}
	for step := len(cursors) - 1; step >= 0; step-- {
		key(a, tcell.KeyLeft, 0)
		if got := (at{panes[0].Cursor(), panes[1].Cursor()}); got != cursors[step] {
			t.Fatalf("stepping back to step %d lands on events %v, first seen at %v", step, got, cursors[step])
		}
		if want, ok := screens[step]; ok {
			if got := draw(t, a, 100, 30).text; got != want {
				t.Fatalf("stepping back to step %d gives another screen:\n%s\n--- first seen ---\n%s", step, got, want)
			}
		}
	}
	key(a, tcell.KeyLeft, 0)
	if a.message == "" {
		t.Error("stepping back past the start says nothing")
	}
}

// The split screen names both modes and shows each run's own figures:
// the pool run keeps 9 goroutines, the raw one makes one per task.
func TestSplitScreen(t *testing.T) {
	a := newSplit(t, "burst", taskmode.Raw, taskmode.Pool)
	for range 200 {
		key(a, tcell.KeyRight, 0)
	}
	scr := draw(t, a, 160, 48).text
	lines := strings.Split(scr, "\n")
	if !strings.Contains(lines[0], "burst — raw vs pool") {
		t.Fatalf("header %q", lines[0])
	}
	left, right, ok := strings.Cut(lines[1], "│")
	if !ok || !strings.Contains(left, " raw ") || !strings.Contains(right, " pool ") || !strings.Contains(right, "9 Gs alive, 9 made") {
		t.Fatalf("pane titles %q", lines[1])
	}
	if !strings.Contains(scr, "workers 8/8 run") {
		t.Fatalf("the pool pane shows no pool:\n%s", scr)
	}
	if strings.Contains(left, "workers") {
		t.Fatalf("the raw pane shows the pool it does not use:\n%s", scr)
	}
	keys(a, "?")
	if help := draw(t, a, 160, 48).text; !strings.Contains(help, "next event of either run") {
		t.Fatalf("the help does not list the split's keys:\n%s", help)
	}
}

func TestSplitGoldenScreens(t *testing.T) {
	for _, sz := range sizes {
		a := newSplit(t, "burst", taskmode.Raw, taskmode.Pool)
		for range 120 {
			key(a, tcell.KeyRight, 0)
		}
		goldenScreen(t, fmt.Sprintf("burst-split-raw-pool-%dx%d", sz.w, sz.h), draw(t, a, sz.w, sz.h))
	}
}

func TestSplitRefusesWhatItCannotShow(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSplit(sc, sc.Config(), [2]taskmode.Mode{taskmode.Raw, taskmode.Pool}, Options{}); err == nil ||
		!strings.Contains(err.Error(), "submits no tasks") {
		t.Fatalf("a scenario without submits: %v", err)
	}
	sc, _ = scenarios.Load("burst")
	if _, err := NewSplit(sc, sc.Config(), [2]taskmode.Mode{taskmode.Pool, taskmode.Pool}, Options{}); err == nil {
		t.Fatal("the same mode twice was accepted")
	}
}

// The split view runs the scenario as written under two policies in
// lockstep: under no-steal the second run never steals, and only the run
// under the runtime's rules keeps the scenario's notes.
func TestPolicySplit(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	noSteal, _ := gmp.ParsePolicy("no-steal")
	a, err := NewPolicySplit(sc, sc.Config(), [2]gmp.Policy{{}, noSteal}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPolicySplit(sc, sc.Config(), [2]gmp.Policy{noSteal, noSteal}, Options{}); err == nil {
		t.Error("a split of one policy twice was accepted")
	}
	for range 300 {
		keys(a, "l")
	}
	steals := [2]int{}
	for i, s := range a.Panes() {
		for e := range s.Cursor() + 1 {
			if s.Event(e).Kind == gmp.KindSteal {
				steals[i]++
			}
		}
	}
	if steals[0] == 0 || steals[1] != 0 {
		t.Errorf("steals: default %d, no-steal %d", steals[0], steals[1])
	}
	if len(a.Panes()[0].Scenario().Notes) == 0 || len(a.Panes()[1].Scenario().Notes) != 0 {
		t.Error("the notes are not kept for the default run alone")
	}
	if screen := draw(t, a, 120, 30).text; !strings.Contains(screen, "steal — default vs no-steal") {
		t.Errorf("the header does not name the policies:\n%s", screen)
	}
}

// At the end of both runs the split view shows compare's table of the
// two; esc closes it.
func TestSplitEndShowsTheComparison(t *testing.T) {
	a := newSplit(t, "nested-nonblocking", taskmode.Raw, taskmode.Pool)
	for a.runs.forward(1) == 1 {
	}
	got := draw(t, a, 120, 40).text
	for _, want := range []string{"both runs have ended", "makespan", "raw", "pool"} {
		if !strings.Contains(got, want) {
			t.Errorf("the end of the split view lacks %q:\n%s", want, got)
		}
	}
	key(a, tcell.KeyEscape, 0)
	if got := draw(t, a, 120, 40).text; strings.Contains(got, "both runs have ended") {
		t.Errorf("esc left the table:\n%s", got)
	}
}
