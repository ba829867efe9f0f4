package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

var sizes = []struct{ w, h int }{{80, 24}, {120, 40}, {160, 48}, {200, 60}}

// Golden screens of several states of three scenarios, at the smallest
// supported size and a large one.
func TestGoldenScreens(t *testing.T) {
	states := []struct {
		scenario, name string
		act            func(a *App)
	}{
		{"tour", "start", func(a *App) {}},
		{"tour", "step25", func(a *App) {
			for range 25 {
				key(a, tcell.KeyRight, 0)
			}
		}},
		{"tour", "note4", func(a *App) { keys(a, "]]]]") }},
		{"tour", "end", func(a *App) { key(a, tcell.KeyEnd, 0) }},
		{"tour", "help", func(a *App) { keys(a, "?") }},
		{"netpoll", "inject", func(a *App) {
			keys(a, "]]]")
			keys(a, "llll")
		}},
		{"steal", "found", func(a *App) {
			keys(a, "/5")
			key(a, tcell.KeyEnter, 0)
			keys(a, "nnn")
		}},
		{"syscall-busy", "retake", func(a *App) { keys(a, "]]") }},
		{"purge", "purged", func(a *App) { keys(a, "]]]") }},
		{"burst", "steady", func(a *App) { keys(a, "]]]]") }},
		{"sem-heavy", "held-back", func(a *App) { keys(a, "]]]]") }},
	}
	for _, sz := range sizes {
		for _, st := range states {
			name := fmt.Sprintf("%s-%s-%dx%d", st.scenario, st.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				a := newApp(t, st.scenario, false)
				st.act(a)
				goldenScreen(t, name, draw(t, a, sz.w, sz.h))
			})
		}
	}
}

// Ten events forward and ten back give exactly the same screen, text and
// styles.
func TestTenForwardTenBackIsTheSameScreen(t *testing.T) {
	for _, name := range []string{"tour", "netpoll", "pingpong"} {
		for _, sz := range sizes {
			a := newApp(t, name, false)
			keys(a, "lllll") // somewhere inside the run
			before := draw(t, a, sz.w, sz.h)
			for range 10 {
				key(a, tcell.KeyRight, 0)
			}
			if mid := draw(t, a, sz.w, sz.h); mid.text == before.text {
				t.Fatalf("%s %dx%d: ten steps changed nothing on screen", name, sz.w, sz.h)
			}
			for range 10 {
				key(a, tcell.KeyLeft, 0)
			}
			after := draw(t, a, sz.w, sz.h)
			if after.text != before.text || after.styles != before.styles {
				t.Fatalf("%s %dx%d: the screen after 10 forward and 10 back differs\n--- before ---\n%s--- after ---\n%s",
					name, sz.w, sz.h, before.text, after.text)
			}
		}
	}
}

// The help overlay lists every binding of the table, at both sizes.
func TestHelpShowsEveryBinding(t *testing.T) {
	for _, sz := range sizes {
		a := newApp(t, "tour", false)
		keys(a, "?")
		got := draw(t, a, sz.w, sz.h).text
		for _, b := range a.Bindings() {
			if !strings.Contains(got, b.Label) || !strings.Contains(got, b.Help) {
				t.Errorf("%dx%d: help lacks %q (%s)\n%s", sz.w, sz.h, b.Label, b.Help, got)
			}
		}
		key(a, tcell.KeyEscape, 0)
		if strings.Contains(draw(t, a, sz.w, sz.h).text, "esc or ? closes") {
			t.Errorf("%dx%d: esc did not close the help", sz.w, sz.h)
		}
	}
}

// The status bar is written from the same table.
func TestStatusBarComesFromTheTable(t *testing.T) {
	a := newApp(t, "tour", false)
	lines := strings.Split(draw(t, a, 160, 48).text, "\n")
	bar := lines[47]
	for _, b := range a.Bindings() {
		if b.Bar != "" && !strings.Contains(bar, b.barLabel()+" "+b.Bar) {
			t.Errorf("status bar %q lacks %q", bar, b.barLabel()+" "+b.Bar)
		}
	}
}

func TestQuitStops(t *testing.T) {
	for _, k := range []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone),
		tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModCtrl),
	} {
		a := newApp(t, "tour", false)
		a.HandleKey(k)
		if !a.Stopped() {
			t.Fatalf("%v did not stop the UI", k.Name())
		}
	}
}

func TestUnknownKeySaysWhatToDo(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "z")
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, `no key 'z': press ? for the keys`) {
		t.Fatalf("no hint for an unknown key:\n%s", got)
	}
}

func TestFindAGoroutine(t *testing.T) {
	a := newApp(t, "steal", false)
	keys(a, "/")
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, " find: ") {
		t.Fatalf("no find prompt:\n%s", got)
	}
	keys(a, "G5")
	key(a, tcell.KeyEnter, 0)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "G5 does not exist yet: n runs on to its creation") {
		t.Fatalf("no word about G5 not existing yet:\n%s", got)
	}
	keys(a, "n")
	if e := a.Session().Event(a.Session().Cursor()); e.Kind != gmp.KindGoCreate || e.G != 5 {
		t.Fatalf("n moved to %+v, want G5's creation", e)
	}
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "found G5 runnable in P0.runnext") {
		t.Fatalf("G5 is not described:\n%s", got)
	}
	keys(a, "n")
	if e := a.Session().Event(a.Session().Cursor()); !e.Involves(5) {
		t.Fatalf("n moved to an event not about G5: %+v", e)
	}
	key(a, tcell.KeyEscape, 0)
	if strings.Contains(draw(t, a, 80, 24).text, "found G5") {
		t.Fatal("esc did not clear the found goroutine")
	}
	keys(a, "/")
	key(a, tcell.KeyEnter, 0)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "type a goroutine, such as 5 or G5") {
		t.Fatalf("an empty find gives no message:\n%s", got)
	}
	keys(a, "/999")
	key(a, tcell.KeyEnter, 0)
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "G999 does not exist yet") {
		t.Fatalf("a missing goroutine gives no message:\n%s", got)
	}
	keys(a, "n")
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "no such goroutine: G999") {
		t.Fatalf("n for a goroutine never created gives no message:\n%s", got)
	}
}

// The monochrome theme uses no colour at all, and still marks the
// current event.
func TestMonochromeUsesNoColour(t *testing.T) {
	a := newApp(t, "tour", true)
	keys(a, "lll")
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(80, 24)
	a.Root().SetRect(0, 0, 80, 24)
	a.Root().Draw(scr)
	scr.Show()
	cells, _, _ := scr.GetContents()
	reversed := 0
	for _, c := range cells {
		fg, bg, attr := c.Style.Decompose()
		if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("a cell has colour %v on %v in the monochrome theme", fg, bg)
		}
		if attr&tcell.AttrReverse != 0 {
			reversed++
		}
	}
	if reversed < 80 {
		t.Fatalf("only %d reversed cells: the header and current event should stand out", reversed)
	}
}

// Playback advances by the speed times the time that passed, and stops
// at the end of the run.
func TestPlaybackFollowsTheSpeed(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, " ")
	if !a.playing {
		t.Fatal("space did not start playback")
	}
	start := a.Session().Cursor()
	a.Advance(time.Second) // speed index 3: 10 events/s
	if got := a.Session().Cursor() - start; got != 10 {
		t.Fatalf("one second at 10 events/s moved %d events", got)
	}
	keys(a, "+")
	a.Advance(500 * time.Millisecond)
	if got := a.Session().Cursor() - start; got != 20 {
		t.Fatalf("half a second at 20 events/s moved to %d", got)
	}
	for range 100 {
		a.Advance(time.Second)
	}
	if a.playing || !a.Session().AtEnd() {
		t.Fatal("playback did not stop at the end of the run")
	}
	keys(a, " ")
	if a.playing {
		t.Fatal("space at the end restarted playback instead of saying so")
	}
	keys(a, " ")
	keys(a, "r")
	if a.Session().Cursor() != 0 || a.playing {
		t.Fatal("r did not go back to the first event and stop")
	}
}

func TestReseedRunsAgain(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "lllll")
	keys(a, "s")
	if a.Session().Config().Seed != 2 || a.Session().Cursor() != 0 {
		t.Fatalf("after s: seed %d, cursor %d", a.Session().Config().Seed, a.Session().Cursor())
	}
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "seed 2") {
		t.Fatal("the header does not show the new seed")
	}
}

// Scrolling the P table shows the other Ps when they do not all fit.
// At 80×24 eight Ps are all shown, one row each, the timeline giving up
// its rows; a taller screen has both.
func TestEveryPOfEightAt80x24(t *testing.T) {
	a := newApp(t, "sem-heavy", false) // 8 Ps
	got := draw(t, a, 80, 24).text
	for p := range 8 {
		if !strings.Contains(got, fmt.Sprintf("\nP%d ", p)) {
			t.Errorf("P%d is not shown at 80×24:\n%s", p, got)
		}
	}
	if !strings.Contains(got, "t or a taller screen shows the timeline") || strings.Contains(got, "\n timeline ") {
		t.Errorf("the hidden timeline is not said, or still drawn:\n%s", got)
	}
	keys(a, "t")
	if kept := draw(t, a, 80, 24).text; !strings.Contains(kept, "\n timeline ") || !strings.Contains(kept, " of 8 (tab here") {
		t.Errorf("t does not bring the timeline back with the Ps scrolling:\n%s", kept)
	}
	keys(a, "t")
	if tall := draw(t, a, 120, 40).text; !strings.Contains(tall, "\n timeline ") || strings.Count(tall, "\nP7 ") != 2 {
		t.Errorf("at 120×40 the timeline or P7 is missing:\n%s", tall)
	}
}

func TestScrollingManyPs(t *testing.T) {
	a := newApp(t, "spinning", false)
	a.sess.cfg.Procs = 4 // as loaded
	got := draw(t, a, 80, 24).text
	if !strings.Contains(got, "P3") {
		t.Fatalf("P3 not visible at 80x24 with 4 Ps:\n%s", got)
	}
}

// A terminal too small for the layout says so instead of drawing garbage,
// and growing and shrinking it redraws cleanly.
func TestResize(t *testing.T) {
	a := newApp(t, "tour", false)
	if got := draw(t, a, 40, 10).text; !strings.Contains(got, "schedlab needs a terminal of at least") || !strings.Contains(got, "80×24") {
		t.Fatalf("no message on a tiny terminal:\n%s", got)
	}
	first := draw(t, a, 80, 24)
	draw(t, a, 160, 48)
	if again := draw(t, a, 80, 24); again != first {
		t.Fatal("80x24 drawn after 160x48 differs from the first 80x24")
	}
}

// docs/keys.md shows the key table generated from the bindings; like
// lazygit's cheatsheet, a stale copy fails the build.
func TestDocsKeyTableIsCurrent(t *testing.T) {
	doc, err := os.ReadFile("../../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), KeyTable()) {
		t.Fatalf("docs/keys.md's key table is stale; replace it with:\n%s", KeyTable())
	}
}

// README.md and docs/guide.md quote golden screens (all of one, the top
// of others); a change to the UI that leaves them stale fails here, as
// the key table does.
func TestDocsScreensAreCurrent(t *testing.T) {
	for _, q := range []struct {
		doc    string
		golden string
		lines  int // how many of its first lines the document shows; 0: all
	}{
		{"README.md", "tour-step25-80x24", 0},
		{"docs/guide.md", "tour-step25-80x24", 0},
		{"docs/guide.md", "purge-purged-80x24", 9},
		{"docs/guide.md", "burst-split-raw-pool-80x24", 7},
	} {
		doc, err := os.ReadFile("../../" + q.doc)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile("testdata/" + q.golden + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if q.lines > 0 {
			lines = lines[:q.lines]
		}
		if quote := strings.Join(lines, "\n") + "\n"; !strings.Contains(string(doc), quote) {
			t.Errorf("%s's capture of %s is stale; it should read:\n%s", q.doc, q.golden, quote)
		}
	}
}

// A terminal too small for the layout gets a message that fits it, and
// says the size it checks; one a column wide or a row high, or empty,
// must not hang wrapping it.
func TestTinyTerminals(t *testing.T) {
	a := newApp(t, "tour", false)
	for _, sz := range []struct{ w, h int }{{1, 24}, {80, 1}, {1, 1}, {0, 0}, {59, 30}, {100, 15}} {
		got := draw(t, a, sz.w, sz.h)
		if sz.w >= 20 && sz.h >= 3 && !strings.Contains(strings.ReplaceAll(got.text, "\n", " "), "at least 60×16") {
			t.Errorf("%dx%d: no size message:\n%s", sz.w, sz.h, got.text)
		}
	}
	if got := draw(t, a, 60, 16); strings.Contains(got.text, "needs a terminal") {
		t.Error("60x16 is refused, though the message says it is enough")
	}
	if lines := wrap("abc def", 1); len(lines) != 6 {
		t.Errorf("wrap at width 1: %q", lines)
	}
}

// A goroutine number beyond any run's is "no such goroutine", not a panic.
func TestFindHugeNumbers(t *testing.T) {
	a := newApp(t, "tour", false)
	for _, n := range []string{"2147483648", "4294967295", "99999999999999999999", "-3", "G0"} {
		keys(a, "/"+n)
		key(a, tcell.KeyEnter, 0)
		draw(t, a, 80, 24)
		keys(a, "n")
		if a.found > 0 && int64(a.found) > 1<<31-1 {
			t.Errorf("/%s found %v", n, a.found)
		}
	}
	keys(a, "/2147483648")
	key(a, tcell.KeyEnter, 0)
	if !strings.Contains(a.message, "no such goroutine") {
		t.Errorf("message %q", a.message)
	}
}

// The status bar offers to pause while playing, and stepping onto the
// last event says the run has ended.
func TestStatusSaysWhatKeysDoNow(t *testing.T) {
	a := newApp(t, "runnext", false)
	keys(a, " ")
	if bar := draw(t, a, 80, 24).text; !strings.Contains(bar, "spc pause") {
		t.Errorf("playing, the bar does not offer to pause:\n%s", bar)
	}
	keys(a, " ")
	for !a.sess.AtEnd() {
		keys(a, "l")
	}
	if !strings.HasPrefix(a.message, "end of the run: main returned") {
		t.Errorf("stepping onto the last event says %q", a.message)
	}
}

// Scrolling the Ps stops with the last P on the last row.
func TestProcsScrollStopsAtTheLastP(t *testing.T) {
	a := newApp(t, "sem-heavy", false) // 8 Ps
	// 18 rows are too few for 8 Ps even without the timeline.
	draw(t, a, 80, 18)
	visible := a.drawn.shown
	for range 10 {
		a.scrollDown()
	}
	if want := 8 - visible; visible >= 8 || a.procs.top != want {
		t.Errorf("after scrolling down, the first P shown is P%d of 8 with %d rows, want P%d", a.procs.top, visible, want)
	}
}

// c goes to the current event's cause, as many times as the chain goes,
// and C comes back the same way.
func TestFollowCauses(t *testing.T) {
	a := newApp(t, "tour", false)
	for range 25 {
		keys(a, "l")
	}
	for a.sess.Event(a.sess.Cursor()).Cause < 0 {
		keys(a, "l")
	}
	start := a.sess.Cursor()
	cause := int(a.sess.Event(start).Cause)
	if screen := draw(t, a, 160, 48).text; !strings.Contains(screen, fmt.Sprintf("cause: event %d,", cause+1)) {
		t.Fatalf("the explanation does not name the cause, event %d:\n%s", cause+1, screen)
	}
	keys(a, "c")
	if a.sess.Cursor() != cause {
		t.Fatalf("c went to %d, want the cause %d", a.sess.Cursor(), cause)
	}
	hops := 1
	for a.sess.Event(a.sess.Cursor()).Cause >= 0 && hops < 10 {
		keys(a, "c")
		hops++
	}
	for range hops {
		keys(a, "C")
	}
	if a.sess.Cursor() != start {
		t.Errorf("C back %d times landed on %d, want %d", hops, a.sess.Cursor(), start)
	}
	keys(a, "C")
	if !strings.Contains(a.message, "no cause followed") {
		t.Errorf("C with nothing to go back to says %q", a.message)
	}
}

// The goroutine colours come from the shared palette by name, and are the
// terminal's named colours.
func TestPaletteNamesAreTerminalColours(t *testing.T) {
	want := []tcell.Color{tcell.ColorGreen, tcell.ColorAqua, tcell.ColorFuchsia, tcell.ColorYellow,
		tcell.ColorOrange, tcell.ColorLime, tcell.ColorDeepSkyBlue, tcell.ColorHotPink}
	got := gColors()
	if len(got) != len(want) {
		t.Fatalf("%d colours, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("colour %d is %v, want %v", i, got[i], want[i])
		}
	}
}

// g lists every goroutine, the blocked first; esc closes the list.
func TestGoroutineList(t *testing.T) {
	a := newApp(t, "steal", false)
	keys(a, "llllllllll")
	keys(a, "g")
	got := draw(t, a, 100, 30).text
	for _, want := range []string{" goroutines ", "at event 11: ", "running", "runnable", "G1 running on P0", "created by G1 at"} {
		if !strings.Contains(got, want) {
			t.Errorf("the goroutine list lacks %q:\n%s", want, got)
		}
	}
	keys(a, "j")
	if a.glist.top != 1 {
		t.Errorf("j scrolled the list to %d", a.glist.top)
	}
	key(a, tcell.KeyEscape, 0)
	if got := draw(t, a, 100, 30).text; strings.Contains(got, " goroutines ") {
		t.Errorf("esc left the list open:\n%s", got)
	}
}

// A deadlock opens the list at the end of the run, the waiting
// goroutines first, with their reasons.
func TestDeadlockOpensTheGoroutineList(t *testing.T) {
	a := newApp(t, "nested-submit", false) // deadlocks by design
	for a.sess.Forward(1<<16) > 0 {
	}
	got := draw(t, a, 120, 40).text
	start := strings.Index(got, "at event ")
	if start < 0 {
		t.Fatalf("the run's deadlock did not open the goroutine list:\n%s", got)
	}
	list := got[start:]
	first := strings.Index(list, "\n")
	if !strings.Contains(list[first:first+200], " waiting for its children") && !strings.Contains(list[first:first+200], " waiting in ") {
		t.Errorf("the list does not open with a waiting goroutine and its reason:\n%s", got)
	}
	key(a, tcell.KeyEscape, 0)
	if got := draw(t, a, 120, 40).text; strings.Contains(got, "at event ") {
		t.Errorf("the list came back after esc:\n%s", got)
	}
}

// : goes to an event by number or to the first event at or after a time,
// ahead (as a job) or back.
func TestGoTo(t *testing.T) {
	a := newApp(t, "tour", false)
	goTo := func(text string) {
		keys(a, ":"+text)
		key(a, tcell.KeyEnter, 0)
		for a.job != nil {
			a.stepJob()
		}
	}
	goTo("40")
	if a.sess.Cursor() != 39 {
		t.Errorf(":40 went to event %d", a.sess.Cursor()+1)
	}
	goTo("12")
	if a.sess.Cursor() != 11 {
		t.Errorf(":12 went back to event %d", a.sess.Cursor()+1)
	}
	goTo("14.1ms")
	i := a.sess.Cursor()
	if a.sess.Event(i).T.D() < 14100*time.Microsecond || i > 0 && a.sess.Event(i-1).T.D() >= 14100*time.Microsecond {
		t.Errorf(":14.1ms went to event %d at %v", i+1, a.sess.Event(i).T)
	}
	goTo("5")
	goTo("300us")
	if got := a.sess.Event(a.sess.Cursor()).T.D(); got < 300*time.Microsecond {
		t.Errorf(":300us went to an event at %v", got)
	}
	for text, want := range map[string]string{
		"0":        "events are counted from 1",
		"soon":     "type an event number such as 120",
		"99999999": "the run ends at event",
		"10s":      "the run ends at",
	} {
		goTo(text)
		if got := draw(t, a, 120, 40).text; !strings.Contains(got, want) {
			t.Errorf(":%s says nothing of %q:\n%s", text, want, got)
		}
	}
}

// p plays in simulated time: a second of playback at 1ms/s takes the
// events of the next simulated millisecond, however many they are.
func TestPlaybackInSimulatedTime(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "p")
	if got := draw(t, a, 120, 40).text; !strings.Contains(got, "paused 1ms/s") {
		t.Fatalf("the header does not give the pace while paused:\n%s", got)
	}
	keys(a, " ")
	start := a.sess.State().Now()
	a.Advance(time.Second)
	now := a.sess.State().Now()
	if now > start+sim.Time(time.Millisecond) {
		t.Errorf("a second at 1ms/s went from %v to %v", start, now)
	}
	if next, ok := a.sess.Peek(a.sess.Cursor() + 1); ok && next.T <= start+sim.Time(time.Millisecond) {
		t.Errorf("a second at 1ms/s stopped before the event at %v", next.T)
	}
	keys(a, "+")
	if got := draw(t, a, 120, 40).text; !strings.Contains(got, "▶ 2ms/s") {
		t.Errorf("+ did not make it 2ms/s:\n%s", got)
	}
	for range 100 {
		a.Advance(time.Second)
	}
	if a.playing || !a.sess.AtEnd() {
		t.Error("playback in time did not stop at the end")
	}
}

// L explains every term of the glossary, scrolling on a small screen;
// the timeline's legend is the glossary's symbols.
func TestGlossary(t *testing.T) {
	a := newApp(t, "steal", false)
	keys(a, "lllll")
	if got := draw(t, a, 160, 48).text; !strings.Contains(got, timelineLegend()) {
		t.Errorf("the timeline's title lacks the glossary's legend %q:\n%s", timelineLegend(), got)
	}
	keys(a, "L")
	seen := ""
	for range 80 {
		seen += draw(t, a, 80, 24).text
		keys(a, "j")
	}
	for _, e := range glossary {
		if !strings.Contains(seen, e.Term) {
			t.Errorf("the glossary never shows %q", e.Term)
		}
	}
	key(a, tcell.KeyEscape, 0)
	if got := draw(t, a, 80, 24).text; strings.Contains(got, "what the screen shows") {
		t.Errorf("esc left the glossary open:\n%s", got)
	}
}

func TestNameAt(t *testing.T) {
	row := "P0  run    M0  G12   8µs / –    next G9    ring 7 G2 G3"
	for col, want := range map[int]string{0: "P0", 1: "P0", 15: "G12", 17: "G12", 18: "", 4: "", 37: "G9", 38: "G9", 51: "G2", 52: ""} {
		if got := nameAt(row, col); got != want {
			t.Errorf("nameAt(col %d) = %q, want %q", col, got, want)
		}
	}
	if nameAt(row, 500) != "" || nameAt(row, -1) != "" {
		t.Error("a click off the row found a name")
	}
}

// A click on a goroutine's name finds it; the wheel scrolls the Ps.
func TestMouse(t *testing.T) {
	a := newApp(t, "sem-heavy", false) // 8 Ps
	keys(a, "llllllllllllllllllll")
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(80, 18)
	a.Root().SetRect(0, 0, 80, 18)
	a.Root().Draw(scr)
	// The first G name on the screen, and where it is.
	x, y := -1, -1
	for row := 0; row < 18 && x < 0; row++ {
		text := rowText(scr, row)
		for _, loc := range namePattern.FindAllStringIndex(text, -1) {
			if text[loc[0]] == 'G' && strings.IndexFunc(text[:loc[0]], func(r rune) bool { return r > 127 }) < 0 {
				x, y = loc[0]+1, row
				break
			}
		}
	}
	if x < 0 {
		t.Fatal("no goroutine name on the screen to click")
	}
	name := nameAt(rowText(scr, y), x)
	if !a.mouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)) {
		t.Fatalf("a click on %s did nothing", name)
	}
	if a.found.String() != name {
		t.Errorf("a click on %s found %v", name, a.found)
	}
	a.focus = focusProcs
	a.mouse(tview.MouseScrollDown, tcell.NewEventMouse(0, 0, tcell.WheelDown, tcell.ModNone))
	if a.procs.top == 0 {
		t.Error("the wheel did not scroll the Ps")
	}

	// With --no-mouse, reports a terminal sends anyway change nothing.
	a.found, a.procs.top = 0, 0
	a.opts.NoMouse = true
	if a.mouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)) || a.found != 0 {
		t.Errorf("with --no-mouse a click on %s found %v", name, a.found)
	}
	if a.mouse(tview.MouseScrollDown, tcell.NewEventMouse(0, 0, tcell.WheelDown, tcell.ModNone)) || a.procs.top != 0 {
		t.Error("with --no-mouse the wheel scrolled the Ps")
	}
}

// o and v stop the UI with what it is to become; a name that does not
// load, or v on a scenario without a pool, says why and stays.
func TestSwitchRequests(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "v")
	if a.Next() != nil || a.Stopped() || !strings.Contains(draw(t, a, 120, 40).text, "submits none") {
		t.Errorf("v on tour, which has no pool: next %+v, stopped %v", a.Next(), a.Stopped())
	}
	keys(a, "onosuch")
	key(a, tcell.KeyEnter, 0)
	if a.Next() != nil || !strings.Contains(draw(t, a, 120, 40).text, `no built-in scenario or file named "nosuch"`) {
		t.Errorf("o nosuch: next %+v", a.Next())
	}
	keys(a, "osteal")
	key(a, tcell.KeyEnter, 0)
	if n := a.Next(); n == nil || n.Scenario != "steal" || n.Split || !a.Stopped() {
		t.Errorf("o steal: next %+v, stopped %v", n, a.Stopped())
	}
	b := newApp(t, "burst", false)
	keys(b, "v")
	if n := b.Next(); n == nil || n.Scenario != "burst" || !n.Split {
		t.Errorf("v on burst: next %+v", n)
	}
}

// / with words finds the next event that says them; n and N go on and
// back; the log marks the matches.
func TestFindWords(t *testing.T) {
	a := newApp(t, "steal", false)
	keys(a, "/steals")
	key(a, tcell.KeyEnter, 0)
	for a.job != nil {
		a.stepJob()
	}
	first := a.sess.Cursor()
	if first <= 0 || !strings.Contains(a.sess.Describer().Describe(a.sess.Event(first)), "steals") {
		t.Fatalf("/steals went to event %d: %s", first+1, a.sess.Describer().Describe(a.sess.Event(first)))
	}
	keys(a, "n")
	for a.job != nil {
		a.stepJob()
	}
	second := a.sess.Cursor()
	if second <= first || !a.matches(second, "steals") {
		t.Fatalf("n went from %d to %d", first+1, second+1)
	}
	keys(a, "N")
	if a.sess.Cursor() != first {
		t.Errorf("N went back to %d, want %d", a.sess.Cursor()+1, first+1)
	}
	keys(a, "/nothing says this")
	key(a, tcell.KeyEnter, 0)
	for a.job != nil {
		a.stepJob()
	}
	if got := draw(t, a, 120, 40).text; !strings.Contains(got, `no later event says "nothing says this"`) {
		t.Errorf("a search that finds nothing says nothing:\n%s", got)
	}
}

// With the log focused and scrolled back, the bottom row is selected:
// its whole sentence shows, and enter goes there.
func TestSelectAnEventInTheLog(t *testing.T) {
	a := newApp(t, "tour", false)
	keys(a, "llllllllllllllllllll")
	cur := a.sess.Cursor()
	for a.focus != focusLog {
		key(a, tcell.KeyTab, 0)
	}
	keys(a, "kkkk")
	got := draw(t, a, 120, 40).text
	want := fmt.Sprintf("event %d selected: enter goes there", cur-4+1)
	if !strings.Contains(got, want) || !strings.Contains(got, fmt.Sprintf("event %d, selected: ", cur-4+1)) {
		t.Fatalf("the log does not show its selection (%q):\n%s", want, got)
	}
	key(a, tcell.KeyEnter, 0)
	if a.sess.Cursor() != cur-4 || a.log.back != 0 {
		t.Errorf("enter went to event %d, want %d", a.sess.Cursor()+1, cur-4+1)
	}
}

// Golden screens in each theme: the ASCII mode's text, and the default,
// projector, monochrome and light themes' styles (the projector's in its
// light form too), of one state at three sizes
// (the default theme's text is tour-step25's golden).
func TestGoldenThemes(t *testing.T) {
	t.Setenv("NO_COLOR", "") // the projector's styles, whatever the machine says
	sc, err := scenarios.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, th := range []struct {
			name string
			o    Options
		}{{"ascii", Options{ASCII: true}}, {"default", Options{}}, {"projector", Options{Theme: "projector"}}, {"mono", Options{Mono: true}},
			{"light", Options{Theme: "light"}}, {"projector-light", Options{Theme: "projector", Light: true}}} {
			name := fmt.Sprintf("tour-step25-%s-%dx%d", th.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				a, err := New(sc, sc.Config(), th.o)
				if err != nil {
					t.Fatal(err)
				}
				for range 25 {
					key(a, tcell.KeyRight, 0)
				}
				got := draw(t, a, sz[0], sz[1])
				if th.o.ASCII {
					goldenScreen(t, name, got)
				} else {
					goldenStyles(t, name, got)
				}
			})
		}
	}
}

// The goroutine list shows the goroutines that exist, no more (issue 26,
// defect 2: at tour's first event it listed "G2 exited" before G2 was
// created, at the end a G10 of a run of nine, and nested-submit a G4).
func TestGoroutineListHasNoGoroutineThatNeverExisted(t *testing.T) {
	for _, c := range []struct {
		scenario string
		end      bool
		want     int // goroutines in the list
	}{{"tour", false, 1}, {"tour", true, 9}, {"nested-submit", true, 3}} {
		a := newApp(t, c.scenario, false)
		if c.end {
			for a.sess.Forward(1<<16) > 0 {
			}
		}
		_, lines := goroutineLines(a.liveFrame())
		if len(lines) != c.want {
			t.Errorf("%s (end %v): the list has %d goroutines, want %d:\n%s", c.scenario, c.end, len(lines), c.want, strings.Join(lines, "\n"))
		}
		ghost := fmt.Sprintf("G%d ", a.sess.State().NumG())
		for _, l := range lines {
			if strings.HasPrefix(l, ghost) {
				t.Errorf("%s: the list shows %q, which the run never made", c.scenario, l)
			}
		}
	}
}

// s on a scenario whose run no seed changes (nothing drawn at random
// without --noise) does not pretend to run it again: it says so and turns
// noise on, which makes the seed matter (issue 26, defect 8). Where the
// seed changes the run, s just runs it again.
func TestReseedSaysWhenSeedsChangeNothing(t *testing.T) {
	a := newApp(t, "tour", false)
	old := a.sess
	keys(a, "s")
	if !strings.Contains(a.message, "no seed changes") || !strings.Contains(a.message, "noise") || !a.sess.Config().Noise {
		t.Fatalf("s on tour: %q, noise %v", a.message, a.sess.Config().Noise)
	}
	if sameRun(old, a.sess, 4096, -1) {
		t.Error("with noise on, seed 2 still gives seed 1's run")
	}
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "seed 2 noise") {
		t.Errorf("the header does not say noise is on:\n%s", got)
	}
	b := newApp(t, "sem-heavy", false)
	keys(b, "s")
	if b.message != "running again with seed 2" || b.sess.Config().Noise {
		t.Errorf("s on sem-heavy: %q, noise %v", b.message, b.sess.Config().Noise)
	}
}

// A note at a time shows at its moment, alone, and ] stops at it (issue
// 26, defect 9: sem-heavy's note 3, "Light goroutines arrive" at 4.29ms,
// first showed on the release at 6.36ms together with note 4, so ] went
// past it). It shows on the last event before its moment, whose state is
// the run's at that moment, and says its time.
func TestATimedNoteShowsAtItsMomentAlone(t *testing.T) {
	a := newApp(t, "sem-heavy", false)
	keys(a, "]]]")
	got := draw(t, a, 100, 30).text
	if !strings.Contains(got, "note 3/4 at 4.29ms ▸ Light goroutines arrive") || strings.Contains(got, "A unit comes back") {
		t.Fatalf("the third ] does not show note 3 alone at its moment:\n%s", got)
	}
	if now := a.sess.State().Now(); now > sim.Time(4290*time.Microsecond) || a.sess.Event(a.sess.Cursor()+1).T < sim.Time(4290*time.Microsecond) {
		t.Fatalf("note 3 shows at %v, not at the last event before 4.29ms", now)
	}
	keys(a, "]")
	got = draw(t, a, 100, 30).text
	if !strings.Contains(got, "note 4/4 ▸ A unit comes back") || strings.Contains(got, "Light goroutines arrive") {
		t.Fatalf("the fourth ] does not show note 4 alone:\n%s", got)
	}
	keys(a, "[")
	if got = draw(t, a, 100, 30).text; !strings.Contains(got, "note 3/4 at 4.29ms") {
		t.Fatalf("[ does not go back to note 3:\n%s", got)
	}
}

// Notes that share an event are met one at a time: ] shows the next at
// the same event, and the screen says there is one more.
func TestNotesOnOneEventAreMetOneByOne(t *testing.T) {
	sc, err := scenarios.Parse("two.yaml", []byte("procs: 1\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - cpu: 1ms\nnotes:\n  - on: go-create\n    text: first of two\n  - on: go-create\n    text: second of two\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	keys(a, "]")
	got := draw(t, a, 100, 30).text
	if !strings.Contains(got, "first of two") || strings.Contains(got, "second of two") || !strings.Contains(got, "] shows 1 more") {
		t.Fatalf("the first ] does not show the first note alone:\n%s", got)
	}
	at := a.sess.Cursor()
	keys(a, "]")
	got = draw(t, a, 100, 30).text
	if !strings.Contains(got, "second of two") || strings.Contains(got, "first of two") || a.sess.Cursor() != at {
		t.Fatalf("the second ] does not show the second note at the same event:\n%s", got)
	}
	keys(a, "[")
	if got = draw(t, a, 100, 30).text; !strings.Contains(got, "first of two") {
		t.Fatalf("[ does not go back to the first:\n%s", got)
	}
}

// Every P of up to 8 stays on screen at 80×24 whatever else is there: a
// pools panel, a semaphore, a note of several lines, a goroutine found
// (issue 26, defect 10: sem-heavy's Ps panel shrank to 3 of 8 under its
// notes and semaphore). The other rows make room: the log keeps the
// current event, a long note and the sentence are cut short.
func TestEveryPStaysAt80x24(t *testing.T) {
	long := "procs: 8\npools: {work: {size: 4}}\nsems: {io: 2}\nmain:\n" +
		"  - go: {count: 12, do: [{acquire: {sem: io}}, {cpu: 2ms}, {release: {sem: io}}]}\n" +
		"  - submit: {pool: work, count: 12, do: [{cpu: 1ms}]}\n  - wait: children\nnotes:\n" +
		"  - on: go-create\n    text: " + strings.Repeat("A note long enough to take many lines at 80 columns. ", 8) + "\n" +
		"  - on: sem-acquire\n    text: " + strings.Repeat("Another long note. ", 20) + "\n"
	sc, err := scenarios.Parse("crowded.yaml", []byte(long))
	if err != nil {
		t.Fatal(err)
	}
	crowded, err := New(sc, sc.Config(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*App{newApp(t, "sem-heavy", false), crowded} {
		name := a.sess.Scenario().Name
		check := func(what string) {
			t.Helper()
			got := draw(t, a, 80, 24).text
			for p := range 8 {
				if !strings.Contains(got, fmt.Sprintf("\nP%d ", p)) {
					t.Fatalf("%s, %s: P%d is not shown at 80×24:\n%s", name, what, p, got)
				}
			}
			if !strings.Contains(got, " events ") || !strings.Contains(got, fmt.Sprintf("event %d ", a.sess.Cursor()+1)) {
				t.Fatalf("%s, %s: the log or the header is gone:\n%s", name, what, got)
			}
		}
		check("the start")
		for i := 1; i <= 4; i++ {
			keys(a, "]")
			check(fmt.Sprintf("note %d", i))
		}
		keys(a, "/2")
		key(a, tcell.KeyEnter, 0)
		check("G2 found")
	}
}
