package tui

import (
	"fmt"
	"strconv"

	"github.com/gdamore/tcell/v2"
)

// The quiz (schedlab tui --quiz): moving forward stops before the event
// that answers a question, the question takes the middle of the screen,
// a digit (or a click) answers it, and the answer is revealed with the
// describer's sentence for that event. The next step shows the event.

// quizView is the question open on screen.
type quizView struct {
	at       int  // the event it is asked before
	choice   int  // the answer given, once revealed
	revealed bool // answered: showing whether it was right
	right    bool
}

// quizGate stops forward motion of up to n events at the first question
// still to ask: it moves to the event before it, opens it and reports
// true. Stepping stays with the question until it is answered or skipped.
func (a *App) quizGate(n int) bool {
	if !a.sess.Quizzing() {
		return false
	}
	if a.quiz != nil {
		return !a.quiz.revealed
	}
	cur := a.sess.Cursor()
	q := a.sess.NextQuestion(cur+1, cur+n)
	if q == nil {
		return false
	}
	a.sess.Forward(q.At - 1 - cur)
	a.playing = false
	a.log.back = 0
	a.quiz = &quizView{at: q.At}
	a.quizBox.rows = nil // drawn on the next frame
	a.message = "a question: answer with 1–" + strconv.Itoa(len(q.Choices)) + ", or esc to skip it"
	return true
}

// closeRevealed closes an answered question, so the next step goes on.
func (a *App) closeRevealed() {
	if a.quiz != nil && a.quiz.revealed {
		a.quiz = nil
	}
}

// quizKey handles a key while a question is open and not yet answered,
// and reports whether it took it.
func (a *App) quizKey(ev *tcell.EventKey) bool {
	qv := a.quiz
	if qv == nil || qv.revealed {
		return false
	}
	q := a.sess.question(qv.at)
	if a.classQuizKey(ev) {
		return true
	}
	switch {
	case ev.Key() == tcell.KeyEscape:
		a.sess.Skip(qv.at)
		a.quiz = nil
		a.message = "question skipped"
		return true
	case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && ev.Rune() <= '9':
		a.answer(int(ev.Rune() - '1'))
		return true
	case ev.Key() == tcell.KeyRune && (ev.Rune() == 'q' || ev.Rune() == '?'),
		ev.Key() == tcell.KeyCtrlC:
		return false // quit and help still work
	}
	a.message = fmt.Sprintf("answer with 1–%d, or esc to skip the question", len(q.Choices))
	return true
}

// answer records choice c for the open question and reveals the answer.
func (a *App) answer(c int) {
	qv := a.quiz
	q := a.sess.question(qv.at)
	if c < 0 || c >= len(q.Choices) {
		a.message = fmt.Sprintf("answer with 1–%d", len(q.Choices))
		return
	}
	qv.choice, qv.revealed = c, true
	qv.right = a.sess.Answer(qv.at, c)
	right, answered := a.sess.Score()
	verdict := "not quite"
	if qv.right {
		verdict = "right"
	}
	a.message = fmt.Sprintf("%s · score %d/%d · → shows the event", verdict, right, answered)
}

// quizClick answers the open question with the choice on screen row y.
func (a *App) quizClick(y int) bool {
	qv := a.quiz
	if qv == nil || qv.revealed {
		return false
	}
	for i, row := range a.quizBox.rows {
		if row == y {
			a.answer(i)
			return true
		}
	}
	return false
}

// scoreLine is the quiz's score for the status bar and the end message.
func scoreLine(s *Session) string {
	if !s.Quizzing() {
		return ""
	}
	right, answered := s.Score()
	if answered == 0 && s.quiz.gen == nil {
		return "" // presenting: the score shows once the class has answered
	}
	return fmt.Sprintf("quiz %d/%d", right, answered)
}

// quizPanel draws the open question in a box in the middle of the
// screen, and keeps the screen rows of its choices, for clicks.
type quizPanel struct {
	rows []int
}

func (*quizPanel) shows(f frame) bool { return f.quiz != nil }

func (p *quizPanel) draw(c canvas, f frame) {
	qv := f.quiz
	q := qv.q
	if q == nil {
		return
	}
	t := f.theme
	w := min(c.w-4, 96)
	inner := w - 4
	var lines []quizLine
	add := func(s string, st tcell.Style, choice int) {
		if width(s) <= inner {
			lines = append(lines, quizLine{s, st, choice})
			return
		}
		for _, l := range wrap(s, inner) {
			lines = append(lines, quizLine{l, st, choice})
			choice = -1 // a wrapped choice is clicked on its first row
		}
	}
	add(q.Text, t.Base.Bold(true), -1)
	lines = append(lines, quizLine{"", t.Base, -1})
	for i, ch := range q.Choices {
		st := t.Base
		mark := "  "
		if qv.revealed {
			switch {
			case i == q.Answer:
				st, mark = t.Good, "✓ "
			case i == qv.choice:
				st, mark = t.Warn, "✗ "
			default:
				st = t.Dim
			}
		}
		add(fmt.Sprintf("%s%d  %s", mark, i+1, ch), st, i)
	}
	for _, l := range classQuizLines(t, qv, inner) {
		add(l.text, l.style, l.choice)
	}
	if qv.revealed {
		lines = append(lines, quizLine{"", t.Base, -1})
		for _, why := range q.Why {
			add(why, t.Base, -1)
		}
	}
	h := min(len(lines)+2, c.h)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	title := " question · 1–" + strconv.Itoa(len(q.Choices)) + " answers · esc skips "
	if qv.revealed {
		title = " answer · → shows the event "
	}
	box.frame(title, t)
	p.rows = make([]int, len(q.Choices))
	for i, l := range lines {
		if 1+i >= h-1 {
			break
		}
		box.text(2, 1+i, l.text, l.style)
		if l.choice >= 0 {
			p.rows[l.choice] = box.y + 1 + i
		}
	}
}

type quizLine struct {
	text   string
	style  tcell.Style
	choice int // the choice on this row, or -1
}
