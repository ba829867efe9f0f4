package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/recorded"
)

// realLike is a small run as a trace would give it: G1 already running on
// P0, creating G2, which P1 runs later.
func realLike() *recorded.Run {
	ms := time.Millisecond
	events := []recorded.Event{
		{T: 0, Kind: gmp.KindProcStart, G: -1, G2: -1, P: 0, M: 7},
		{T: 0, Kind: gmp.KindGoStart, G: 1, G2: -1, P: 0, M: 7},
		{T: 1 * ms, Kind: gmp.KindGoCreate, G: 2, G2: 1, P: 0, M: 7},
		{T: 2 * ms, Kind: gmp.KindProcStart, G: -1, G2: -1, P: 1, M: 8},
		{T: 3 * ms, Kind: gmp.KindGoStart, G: 2, G2: -1, P: 1, M: 8},
		{T: 4 * ms, Kind: gmp.KindGoExit, G: 2, G2: -1, P: 1, M: 8},
	}
	run := recorded.New("real", 2, events, func(i int) string { return "real event " + events[i].Kind.String() })
	run.Note = "a runtime trace does not record run queues"
	return run
}

func newTraceView(t *testing.T) *TraceApp {
	t.Helper()
	sc, err := scenarios.Load("runnext")
	if err != nil {
		t.Fatal(err)
	}
	model, _, err := recorded.FromModel(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return NewTraceView("runnext beside a real run", Options{}, model, realLike())
}

func press(a *TraceApp, k tcell.Key, r rune, times int) {
	for range times {
		a.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone))
	}
}

func TestTraceViewShowsBothRunsAtTheSameMoment(t *testing.T) {
	a := newTraceView(t)
	before := draw(t, a, 80, 24).text
	if !strings.Contains(before, "before the first event") || !strings.Contains(before, "event 0 of") {
		t.Errorf("the first screen does not say it is before the first event:\n%s", before)
	}
	// Step until the real run's G2 has started on P1 (its 5th event).
	for a.steps.Cursor(1) < 4 {
		press(a, tcell.KeyRune, 'l', 1)
	}
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		got := draw(t, a, size[0], size[1]).text
		for _, want := range []string{"model", "real", "P0", "P1", "M8     G2 running", "real event go-start", "a runtime trace does not record run"} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: the screen lacks %q:\n%s", size[0], size[1], want, got)
			}
		}
	}
	// The real pane's time is at or past the model's current event: the
	// two are aligned on time.
	rt := a.steps.Runs[1].Events[a.steps.Cursor(1)].T
	if next := a.steps.Cursor(0) + 1; next < len(a.steps.Runs[0].Events) && a.steps.Runs[0].Events[next].T < rt {
		t.Errorf("the model lags: its next event at %v comes before the real pane's %v", a.steps.Runs[0].Events[next].T, rt)
	}
}

func TestTraceViewTimelineShowsNoFuture(t *testing.T) {
	a := NewTraceView("real", Options{}, realLike())
	press(a, tcell.KeyRune, 'l', 3) // up to the go-create at 1ms; G2 runs at 3ms
	got := draw(t, a, 80, 24).text
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "P1   ") && strings.Contains(line, "G2") {
			t.Errorf("the timeline shows G2 on P1 before it runs there:\n%s", got)
		}
	}
	press(a, tcell.KeyRune, 'l', 2) // G2 runs on P1
	got = draw(t, a, 80, 24).text
	if !strings.Contains(got, "G2 running") {
		t.Errorf("G2 is not shown running after its go-start:\n%s", got)
	}
}

func TestTraceViewKeys(t *testing.T) {
	a := newTraceView(t)
	press(a, tcell.KeyLeft, 0, 1)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "before the first event") {
		t.Errorf("back at the start says nothing:\n%s", got)
	}
	press(a, tcell.KeyEnd, 0, 1)
	k, n := a.steps.Pos()
	if k != n {
		t.Errorf("end went to %d of %d", k, n)
	}
	press(a, tcell.KeyRune, 'l', 1)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "the last event") {
		t.Errorf("stepping past the end says nothing:\n%s", got)
	}
	press(a, tcell.KeyHome, 0, 1)
	if k, _ := a.steps.Pos(); k != 0 {
		t.Errorf("home went to %d", k)
	}
	press(a, tcell.KeyPgDn, 0, 1)
	if k, _ := a.steps.Pos(); k != min(100, n) {
		t.Errorf("pgdn went to %d", k)
	}
	press(a, tcell.KeyRune, 'z', 1)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "no key 'z': press ? for the keys") {
		t.Errorf("an unknown key gets no hint:\n%s", got)
	}
	press(a, tcell.KeyRune, '?', 1)
	help := draw(t, a, 80, 24).text
	for _, b := range traceBindings() {
		if !strings.Contains(help, b.Help) {
			t.Errorf("the help lacks %q:\n%s", b.Help, help)
		}
	}
	bar := draw(t, NewTraceView("x", Options{}, realLike()), 80, 24).text
	for _, b := range traceBindings() {
		if b.Bar != "" && !strings.Contains(bar, b.Bar) {
			t.Errorf("the status bar lacks %q", b.Bar)
		}
	}
}

func TestTraceViewPlays(t *testing.T) {
	a := NewTraceView("real", Options{}, realLike())
	press(a, tcell.KeyRune, ' ', 1)
	a.Advance(time.Second) // 10 events a second at the default speed
	if k, n := a.steps.Pos(); k != n || a.playing {
		t.Errorf("a second of playback reached %d of %d events, playing %v", k, n, a.playing)
	}
}

func TestTraceViewOnATinyTerminal(t *testing.T) {
	got := draw(t, newTraceView(t), 59, 15).text
	if !strings.Contains(got, "needs at least 60") {
		t.Errorf("a tiny terminal gets no explanation:\n%s", got)
	}
}
