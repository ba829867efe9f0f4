package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func newQuizApp(t *testing.T, name string) *App {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{Quiz: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A step stops before the event that answers a question; the question
// takes the keys until it is answered; the answer is revealed with the
// event's sentence; the next step shows the event; and stepping back over
// it and forward again does not ask it twice.
func TestQuizFlow(t *testing.T) {
	a := newQuizApp(t, "tour")
	keys(a, "l")
	if a.quiz == nil {
		t.Fatal("the first step of tour --quiz asks no question")
	}
	q := a.sess.question(a.quiz.at)
	if a.sess.Cursor() != q.At-1 || q.Text != "Where does G2 go?" {
		t.Fatalf("cursor %d, question %+v", a.sess.Cursor(), q)
	}
	screen := draw(t, a, 80, 24).text
	if !strings.Contains(screen, "Where does G2 go?") || !strings.Contains(screen, "1–") {
		t.Fatalf("the question is not on screen:\n%s", screen)
	}
	keys(a, "ll ")
	if a.sess.Cursor() != q.At-1 || a.playing {
		t.Fatalf("keys other than an answer moved on: cursor %d, playing %v", a.sess.Cursor(), a.playing)
	}
	wrong := (q.Answer + 1) % len(q.Choices)
	keys(a, string(rune('1'+wrong)))
	if !a.quiz.revealed || a.quiz.right {
		t.Fatal("a wrong answer is not revealed as wrong")
	}
	screen = draw(t, a, 80, 24).text
	if !strings.Contains(screen, "✓") || !strings.Contains(screen, "✗") || !strings.Contains(screen, "into P0's runnext") {
		t.Fatalf("the reveal shows no marks or no explanation:\n%s", screen)
	}
	if right, answered := a.sess.Score(); right != 0 || answered != 1 {
		t.Errorf("score %d/%d, want 0/1", right, answered)
	}
	keys(a, "l")
	if a.quiz != nil || a.sess.Cursor() != q.At {
		t.Fatalf("the step after the reveal: cursor %d, question open %v", a.sess.Cursor(), a.quiz != nil)
	}
	keys(a, "hhl")
	if a.quiz != nil || a.sess.Cursor() != q.At {
		t.Fatalf("back and forward again: cursor %d, question open %v", a.sess.Cursor(), a.quiz != nil)
	}
	if draw(t, a, 80, 24).text == "" || !strings.Contains(draw(t, a, 80, 24).text, "quiz 0/1") {
		t.Error("the header does not keep the score")
	}
}

// Playing stops at a question, esc skips it for good, and the end of the
// run gives the score.
func TestQuizPlayAndSkip(t *testing.T) {
	a := newQuizApp(t, "steal")
	keys(a, " ")
	for range 100 {
		a.Advance(time.Second)
		if a.quiz != nil {
			break
		}
	}
	if a.quiz == nil || a.playing {
		t.Fatalf("playing did not stop at a question (playing %v)", a.playing)
	}
	at := a.quiz.at
	key(a, tcell.KeyEscape, 0)
	if a.quiz != nil {
		t.Fatal("esc did not close the question")
	}
	keys(a, "l")
	if a.quiz != nil && a.quiz.at == at {
		t.Fatal("a skipped question was asked again")
	}
	key(a, tcell.KeyEnd, 0)
	if !strings.Contains(a.message, "end of the run") || !strings.Contains(a.message, "quiz 0/0") {
		t.Errorf("end message %q", a.message)
	}
}

// A click on a choice answers the question.
func TestQuizClick(t *testing.T) {
	a := newQuizApp(t, "tour")
	keys(a, "l")
	q := a.sess.question(a.quiz.at)
	draw(t, a, 100, 30) // lays out the choices
	if !a.quizClick(a.quizBox.rows[q.Answer]) {
		t.Fatal("a click on the right choice was not taken")
	}
	if !a.quiz.revealed || !a.quiz.right {
		t.Error("a click on the right choice is not counted right")
	}
}

// Without --quiz nothing is asked, even in a scenario with questions.
func TestNoQuizAsksNothing(t *testing.T) {
	a := newApp(t, "tour", false)
	for range 40 {
		keys(a, "l")
		if a.quiz != nil {
			t.Fatal("a question without --quiz")
		}
	}
}

// A note that is on screen when a question is asked waits until the
// question is answered (issue 26, defect 4: tour's first note, "Each go
// statement puts the new goroutine in P0's runnext", sat under "Where does
// G2 go?"). The screen says a note waits; once answered, it shows.
func TestQuizNoteWaitsForTheAnswer(t *testing.T) {
	const reveal = "Each go statement puts the new goroutine"
	a := newQuizApp(t, "tour")
	screen := draw(t, a, 100, 30).text
	if strings.Contains(screen, reveal) || !strings.Contains(screen, "note 1/8 waits") {
		t.Fatalf("before the question, its answer's note is on screen, or no word of it:\n%s", screen)
	}
	keys(a, "l")
	if a.quiz == nil {
		t.Fatal("no question")
	}
	if screen = draw(t, a, 100, 30).text; strings.Contains(screen, reveal) {
		t.Fatalf("the note under the question gives its answer away:\n%s", screen)
	}
	q := a.sess.question(a.quiz.at)
	keys(a, string(rune('1'+q.Answer)))
	keys(a, "h") // back to the note's own event, the question answered
	if screen = draw(t, a, 100, 30).text; !strings.Contains(screen, "note 1/8 ▸ main (G1) runs on P0") {
		t.Fatalf("once answered, the note does not show:\n%s", screen)
	}
	// Without the quiz the note shows at once.
	b := newApp(t, "tour", false)
	if screen = draw(t, b, 100, 30).text; !strings.Contains(screen, "note 1/8 ▸ main (G1) runs on P0") {
		t.Fatalf("without the quiz the first note is held:\n%s", screen)
	}
}

// A note waits only for a question whose answer it names: tour's note on
// the preemption, two events before "Which M takes P0 next?", does not.
func TestNoteWaitsOnlyForTheAnswerItNames(t *testing.T) {
	for text, want := range map[string]bool{"in P0's runnext, kicking": true, "p0's RUNNEXT": true, "G2 runs": false, "it stole 2": true, "xP0's runnext": false} {
		phrase := "P0's runnext"
		if strings.HasSuffix(text, "2") || strings.HasPrefix(text, "G2") {
			phrase = "2"
		}
		if got := mentions(text, phrase); got != want {
			t.Errorf("mentions(%q, %q) = %v", text, phrase, got)
		}
	}
	a := newQuizApp(t, "tour")
	for a.sess.Forward(1) == 1 {
		if e := a.sess.Event(a.sess.Cursor()); e.Kind == gmp.KindGoStop {
			break
		}
	}
	if ns := a.sess.CurrentNotes(); len(ns) == 0 || ns[0].Held {
		t.Fatalf("the preemption's note waits: %+v", ns)
	}
}
