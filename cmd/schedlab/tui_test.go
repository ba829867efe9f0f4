package main

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// scriptedScreen is a simulation screen that, once initialised, finds
// keys already typed: tview reads them as the user's. (Its Init makes a
// new event queue, so the keys can only go in after it.) keys separates
// with | those of each run of the UI on it, when one UI stops to become
// another (v, o).
type scriptedScreen struct {
	tcell.SimulationScreen
	keys   string
	inited bool
	runs   int
	top    string // the first row of the last frame shown
}

// Fini ends a run: the next Init starts the next on a fresh screen.
func (s *scriptedScreen) Fini() {
	s.SimulationScreen.Fini()
	s.inited = false
}

// Show remembers the frame: tview finalises the screen, which empties it,
// when the UI quits.
func (s *scriptedScreen) Show() {
	s.SimulationScreen.Show()
	cells, w, _ := s.GetContents()
	var top strings.Builder
	for _, c := range cells[:w] {
		top.WriteString(string(c.Runes))
	}
	s.top = top.String()
}

func (s *scriptedScreen) Init() error {
	if s.inited {
		return nil
	}
	if s.runs > 0 {
		s.SimulationScreen = tcell.NewSimulationScreen("UTF-8")
	}
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	s.inited = true
	s.SetSize(80, 24)
	if runs := strings.Split(s.keys, "|"); s.runs < len(runs) {
		for _, r := range runs[s.runs] {
			if r == '\n' {
				s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
				continue
			}
			s.InjectKey(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	s.runs++
	return nil
}

// withScreen runs the UI commands on a scripted simulation screen.
func withScreen(t *testing.T, keys string) *scriptedScreen {
	t.Helper()
	for _, run := range strings.Split(keys, "|") {
		if len(run) > 10 {
			t.Fatal("the simulation screen queues at most 10 events a run")
		}
	}
	scr := &scriptedScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), keys: keys}
	screenFor = func() tcell.Screen { return scr }
	t.Cleanup(func() { screenFor = nil })
	return scr
}

func TestTUIStepsAndQuits(t *testing.T) {
	scr := withScreen(t, "lllq")
	code, out, errOut := cli(t, "tui", "steal")
	if code != 0 || errOut != "" || out != "" {
		t.Fatalf("tui steal: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(scr.top, "steal") || !strings.Contains(scr.top, "event 4") {
		t.Fatalf("after three steps the header reads %q", scr.top)
	}
}

func TestTUISplit(t *testing.T) {
	scr := withScreen(t, "llq")
	code, out, errOut := cli(t, "tui", "burst", "--split", "raw,pool")
	if code != 0 || errOut != "" || out != "" {
		t.Fatalf("tui burst --split raw,pool: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(scr.top, "burst — raw vs pool") {
		t.Fatalf("the split view's header reads %q", scr.top)
	}
}

func TestRootOpensTheDefaultScenario(t *testing.T) {
	scr := withScreen(t, "q")
	if code, _, errOut := cli(t); code != 0 {
		t.Fatalf("schedlab: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(scr.top, "tour") {
		t.Fatalf("the default UI shows %q", scr.top)
	}
}

// A bad scenario or flag is reported before the screen is touched.
func TestTUIErrorsComeBeforeTheScreen(t *testing.T) {
	screenFor = func() tcell.Screen {
		t.Fatal("the UI started despite a bad argument")
		return nil
	}
	t.Cleanup(func() { screenFor = nil })
	bad := writeScenario(t, "bad.yaml", "procs: 1\nmain:\n  - slep: 1ms\n")
	for _, args := range [][]string{
		{"tui", "nosuch"},
		{"tui", bad},
		{"tui", "steal", "--procs", "0"},
		{"tui", "steal", "--seed", "x"},
		{"tui"},
		{"--until", "-1s"},
		{"steal"},
		{"tui", "steal", "--split", "raw,pool"}, // it submits nothing
		{"tui", "burst", "--split", "raw"},
		{"tui", "burst", "--split", "raw,raw"},
		{"tui", "burst", "--split", "raw,threads"},
		{"tui", "tour", "--notes-for", "../etc"},
		{"tui", "tour", "--present", "--session", "a b"},
		{"tui", "tour", "--present", "--notes-for", "class"},
		{"tui", "burst", "--present", "--split", "raw,pool"},
		{"tui", "tour", "--watch"},
	} {
		code, out, errOut := cli(t, args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 with a message", args, code, out, errOut)
		}
	}
	if _, _, errOut := cli(t, "tui", bad); !strings.Contains(errOut, "bad.yaml:3:5: unknown action \"slep\"") {
		t.Errorf("the file error lacks its position: %q", errOut)
	}
}

// v switches the full view to the split one and back, o opens another
// scenario: the UI stops and the command runs the next one on the same
// terminal.
func TestTUISwitches(t *testing.T) {
	scr := withScreen(t, "v|v|q")
	code, out, errOut := cli(t, "tui", "burst")
	if code != 0 || errOut != "" || out != "" {
		t.Fatalf("tui burst, v, v, q: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if scr.runs != 3 || !strings.Contains(scr.top, "A burst of") {
		t.Errorf("after %d runs the header reads %q, want burst's full view after three", scr.runs, scr.top)
	}
	scr = withScreen(t, "v|q")
	if code, _, _ := cli(t, "tui", "burst"); code != 0 || !strings.Contains(scr.top, "burst — raw vs pool") {
		t.Errorf("v did not open the split view: exit %d, header %q", code, scr.top)
	}
	// v keeps the moment: the full view opens where the split view was,
	// not at its first event.
	scr = withScreen(t, "llllllllv|q")
	if code, _, _ := cli(t, "tui", "burst", "--split", "raw,pool"); code != 0 || scr.runs != 2 || strings.Contains(scr.top, "event 1 ") || !strings.Contains(scr.top, "A burst of") {
		t.Errorf("v from the split view after 8 steps: exit %d after %d runs, header %q", code, scr.runs, scr.top)
	}
	scr = withScreen(t, "osteal\n|q")
	if code, _, _ := cli(t, "tui", "burst"); code != 0 || scr.runs != 2 || !strings.Contains(scr.top, "Work steal") {
		t.Errorf("o steal did not open steal: exit %d after %d runs, header %q", code, scr.runs, scr.top)
	}
}
