package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func newPresenter(t *testing.T, name string, o Options) *App {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	o.Present = true
	a, err := New(sc, sc.Config(), o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// playUntilPaused plays as the player would, a frame at a time, until
// playback stops.
func playUntilPaused(t *testing.T, a *App) {
	t.Helper()
	keys(a, " ")
	for i := 0; a.playing; i++ {
		if i > 100000 {
			t.Fatal("playback never paused")
		}
		a.Advance(tickEvery)
	}
}

// In presenter mode playback pauses at the scenario's questions and at
// each note, the note shows large, and the status bar says what happens
// rather than the keys.
func TestPresenterPausesAtNotesAndQuestions(t *testing.T) {
	a := newPresenter(t, "tour", Options{})
	for range 3 {
		a.faster() // 20, 50, 100 events a second
	}
	playUntilPaused(t, a)
	if a.quiz == nil || a.sess.question(a.quiz.at).Text != "Where does G2 go?" {
		t.Fatalf("playback did not pause at tour's first question: cursor %d, %q", a.sess.Cursor(), a.message)
	}
	q := a.sess.question(a.quiz.at)
	keys(a, string(rune('1'+q.Answer)))
	notes := 0
	for !a.sess.AtEnd() {
		playUntilPaused(t, a)
		if a.quiz != nil {
			if q := a.sess.question(a.quiz.at); !a.quiz.revealed {
				keys(a, string(rune('1'+q.Answer)))
			}
			continue
		}
		if a.sess.AtEnd() {
			break
		}
		if !a.atNoteNow() || !strings.HasPrefix(a.message, "note ") {
			t.Fatalf("playback paused at event %d, not at a note: %q", a.sess.Cursor()+1, a.message)
		}
		notes++
		n := a.sess.CurrentNotes()[0]
		got := draw(t, a, 100, 30).text
		first := strings.Fields(reflow(n.Text))[:4]
		if !strings.Contains(got, fmt.Sprintf(" note %d/8 · space plays on", n.Number)) || !strings.Contains(got, strings.Join(first, " ")) {
			t.Fatalf("note %d is not shown large:\n%s", n.Number, got)
		}
		if strings.Contains(got, "spc play") || strings.Contains(got, "q quit") {
			t.Fatalf("the key hints show in presenter mode:\n%s", got)
		}
	}
	if notes < 6 {
		t.Errorf("playback paused at %d notes of tour's 8", notes)
	}
}

// b blanks the screen; any key brings it back and does nothing else.
func TestBlankTheScreen(t *testing.T) {
	a := newPresenter(t, "tour", Options{})
	keys(a, "b")
	if got := draw(t, a, 80, 24).text; strings.TrimSpace(got) != "" {
		t.Fatalf("b left something on screen:\n%s", got)
	}
	at := a.sess.Cursor()
	key(a, tcell.KeyRight, 0)
	if a.blank || a.sess.Cursor() != at {
		t.Fatalf("the key that brings the screen back also acted: blank %v, cursor %d", a.blank, a.sess.Cursor())
	}
	if got := draw(t, a, 80, 24).text; !strings.Contains(got, "tour") {
		t.Fatalf("the screen did not come back:\n%s", got)
	}
}

// ' jumps to a mark by number or name; an unknown one is named.
func TestMarksJump(t *testing.T) {
	a := newPresenter(t, "tour", Options{})
	keys(a, "'")
	if got := draw(t, a, 120, 30).text; !strings.Contains(got, "jump to mark:") || !strings.Contains(got, "4 preempt") {
		t.Fatalf("' does not list the marks:\n%s", got)
	}
	keys(a, "pre")
	key(a, tcell.KeyEnter, 0)
	for a.job != nil {
		a.stepJob()
	}
	if e := a.sess.Event(a.sess.Cursor()); e.Kind != gmp.KindGoStop || a.message != "mark preempt" {
		t.Fatalf("mark preempt landed on %v (%q)", e.Kind, a.message)
	}
	keys(a, "'1")
	key(a, tcell.KeyEnter, 0)
	for a.job != nil {
		a.stepJob()
	}
	if e := a.sess.Event(a.sess.Cursor()); e.Kind != gmp.KindSteal {
		t.Fatalf("mark 1 landed on %v", e.Kind)
	}
	keys(a, "'zz")
	key(a, tcell.KeyEnter, 0)
	if !strings.Contains(a.message, `no mark "zz": the marks are steal, syscall, netpoll, preempt`) {
		t.Fatalf("an unknown mark says %q", a.message)
	}
	b := newApp(t, "runnext", false)
	keys(b, "'")
	if b.prompt != nil || !strings.Contains(b.message, "names no marks") {
		t.Fatalf("' without marks: %q", b.message)
	}
}

// A second terminal follows the presenter: it moves to the same event,
// shows the note on screen and the next one to come; the presenter's file
// is read as untrusted input.
func TestNotesForFollowsThePresenter(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	p := newPresenter(t, "tour", Options{Session: "talk"})
	f := newPresenter(t, "tour", Options{NotesFor: "talk"})
	f.opts.Present = false
	keys(p, "]]")
	if !f.follow() {
		t.Fatal("the follower saw no change")
	}
	for f.job != nil {
		f.stepJob()
	}
	f.follow() // the next note, once there
	if f.sess.Cursor() != p.sess.Cursor() {
		t.Fatalf("the follower is at event %d, the presenter at %d", f.sess.Cursor()+1, p.sess.Cursor()+1)
	}
	got := draw(t, f, 100, 30).text
	now, next := p.sess.CurrentNotes()[0], 0
	keys(p, "]")
	next = p.sess.CurrentNotes()[0].Number
	if !strings.Contains(got, fmt.Sprintf("on screen now: note %d/8", now.Number)) || !strings.Contains(got, fmt.Sprintf("next: note %d/8", next)) {
		t.Fatalf("the speaker notes:\n%s", got)
	}
	path, _ := SessionPath("talk")
	for name, content := range map[string]string{
		"not JSON":       "garbage\x1b[2J",
		"unknown field":  `{"scenario":"tour","event":3,"note":-1,"cmd":"rm"}`,
		"another":        `{"scenario":"steal","event":3,"note":-1}`,
		"negative event": `{"scenario":"tour","event":-5,"note":-1}`,
		"two positions":  `{"scenario":"tour","event":3,"note":-1}{"scenario":"tour","event":4,"note":-1}`,
		"too large":      `{"scenario":"tour","event":3,"note":-1}` + strings.Repeat(" ", maxPosition),
		"a note too far": `{"scenario":"tour","event":3,"note":99}`,
	} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		at := f.sess.Cursor()
		f.follow()
		for f.job != nil {
			f.stepJob()
		}
		switch name {
		case "a note too far":
			if f.fol.err != "" || f.sess.Cursor() != 3 {
				t.Errorf("%s: err %q, cursor %d", name, f.fol.err, f.sess.Cursor())
			}
		default:
			if f.fol.err == "" || f.sess.Cursor() != at {
				t.Errorf("%s: taken (cursor %d, was %d)", name, f.sess.Cursor(), at)
			}
			if got := draw(t, f, 100, 30).text; strings.Contains(got, "\x1b") {
				t.Errorf("%s: a control character reached the screen", name)
			}
		}
	}
	os.Remove(path)
	if err := os.Symlink("/dev/zero", path); err == nil {
		f.follow()
		if !strings.Contains(f.fol.err, "not a regular file") {
			t.Errorf("a link to /dev/zero: %q", f.fol.err)
		}
		os.Remove(path)
	}
	if _, err := New(p.sess.Scenario(), p.sess.Config(), Options{NotesFor: "../etc/passwd"}); err == nil {
		t.Error("a session name with a path in it was taken")
	}
	if _, err := SessionPath("talk"); err != nil || filepath.Dir(path) != os.TempDir() {
		t.Errorf("the session file is not under the temporary directory: %s", path)
	}
}

// o lists the built-ins and the files beside the scenario open, with
// their titles; typing filters; enter opens the selection; a name that
// matches nothing gets the command line's did-you-mean.
func TestScenarioPicker(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"mine.yaml":   "title: My first scenario\nprocs: 1\nmain: [{cpu: 1ms}]\n",
		"broken.yaml": "procs: 1\nmain:\n  - slep: 1ms\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := scenarios.Load(filepath.Join(dir, "mine.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{Source: filepath.Join(dir, "mine.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	keys(a, "o")
	// Tall enough for every built-in and the files beside the scenario.
	got := draw(t, a, 160, 60).text
	for _, want := range []string{"open a scenario", "tour", "A tour of the scheduler", "runnext", "mine.yaml", "My first scenario", "broken.yaml", "does not load", `unknown action "slep"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the picker lacks %q:\n%s", want, got)
		}
	}
	keys(a, "stea")
	if got = draw(t, a, 120, 40).text; strings.Contains(got, "runnext") || !strings.Contains(got, "Work stealing") {
		t.Fatalf("typing does not filter:\n%s", got)
	}
	key(a, tcell.KeyEnter, 0)
	if a.Next() == nil || a.Next().Scenario != "steal" {
		t.Fatalf("enter opened %+v (%q)", a.Next(), a.message)
	}
	b := newApp(t, "tour", false)
	keys(b, "ostael")
	if got = draw(t, b, 120, 40).text; !strings.Contains(got, "did you mean steal?") {
		t.Fatalf("no did-you-mean in the picker:\n%s", got)
	}
	key(b, tcell.KeyEnter, 0)
	if b.Next() != nil || !strings.Contains(b.message, "did you mean steal?") || b.picker != nil {
		t.Fatalf("enter on a name that matches nothing: %+v, %q", b.Next(), b.message)
	}
	keys(b, "o")
	key(b, tcell.KeyDown, 0)
	key(b, tcell.KeyEnter, 0)
	if b.Next() == nil || b.Next().Scenario != "runnext" {
		t.Fatalf("↓ enter opened %+v", b.Next())
	}
}

// --watch: a saved file is read again and the new run opens at the
// moment shown; a file that no longer loads says where, and the run
// shown stays. Nothing here waits: the test calls what the ticker calls.
func TestWatchReloadsAtTheSameTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.yaml")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("title: first\nprocs: 1\nmain:\n  - go: {count: 3, do: [{cpu: 1ms}]}\n  - wait: children\n")
	reload := func() (*scenarios.Scenario, gmp.Config, error) {
		sc, err := scenarios.Load(path)
		if err != nil {
			return nil, gmp.Config{}, err
		}
		return sc, sc.Config(), nil
	}
	sc, cfg, err := reload()
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, cfg, Options{Source: path})
	if err != nil {
		t.Fatal(err)
	}
	a.Watch(path, reload)
	if a.checkWatch() {
		t.Fatal("an unchanged file reloaded")
	}
	keys(a, "llllllll")
	at := a.sess.State().Now()
	write("title: second\nprocs: 1\nmain:\n  - go: {count: 3, do: [{cpu: 2ms}]}\n  - wait: children\n")
	if !a.checkWatch() {
		t.Fatal("a changed file did not reload")
	}
	if a.sess.Scenario().Title != "second" || a.sess.State().Now() > at || a.sess.Cursor() == 0 || !strings.HasPrefix(a.message, "reloaded") {
		t.Fatalf("after the reload: %q at %v, event %d (was at %v): %q", a.sess.Scenario().Title, a.sess.State().Now(), a.sess.Cursor()+1, at, a.message)
	}
	before := a.sess
	write("title: third\nprocs: 1\nmain:\n  - slep: 1ms\n")
	if !a.checkWatch() {
		t.Fatal("a broken file said nothing")
	}
	if a.sess != before || !strings.Contains(a.message, "w.yaml:4:5: unknown action") || !strings.Contains(a.message, "the run shown is the last that loaded") {
		t.Fatalf("a broken file: %q", a.message)
	}
	if got := draw(t, a, 100, 30).text; !strings.Contains(got, "second") || !strings.Contains(got, "w.yaml:4:5: unknown action") {
		t.Fatalf("the screen after a broken save:\n%s", got)
	}
}
