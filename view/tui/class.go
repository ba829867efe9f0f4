package tui

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/teach/class"
	"github.com/schedlab/schedlab/teach/quiz"
	"github.com/schedlab/schedlab/view/export"
)

// Class mode (schedlab class): the UI is the teacher's, and students
// follow it on their own devices through a server (teach/class). The UI
// publishes what it shows after each frame and reads back how many
// joined and how they answered; the server never calls into the UI.
// A question is posed to the class as --quiz poses it to the teacher;
// enter reveals it, with a bar per choice before the explanation.

// ClassHook is the classroom server as the UI sees it: *class.Server.
type ClassHook interface {
	// Publish makes l what the students see; it never waits for them.
	Publish(l class.Live)
	// Number is the number students answer question id by.
	Number(id string) int
	// Tally is the answers to question q by choice, from 0.
	Tally(q int) []int
	Joined() int
	// JoinURL is the address to share, with the join code.
	JoinURL() string
}

// classState is what the UI keeps of class mode.
type classState struct {
	sent     classKey // what was published last
	svgKey   classKey // what svg shows
	svg      []byte
	showJoin bool     // the URL and QR code are on screen (u)
	qr       [][]bool // the join URL's QR code, made once
	seen     [2]int   // joined and answers when last drawn
}

// classKey is what a published Live depends on.
type classKey struct {
	sess     *Session
	cursor   int
	quizAt   int
	revealed bool
	split    bool
}

// classTimelineEvents is how many of the latest events the students'
// timeline shows: enough to see a steal, little enough to redraw at
// every step.
const classTimelineEvents = 300

// classDrawn publishes what the screen shows to the class, after each
// draw; the join overlay (u) is a panel of the overlay list (joinPanel).
func (a *App) classDrawn() {
	if a.opts.Class == nil {
		return
	}
	a.publishClass()
	a.class.seen = a.classSeen()
}

// joinFrame is the join overlay's data: the address to share and its QR
// code, made once.
type joinFrame struct {
	url string
	qr  [][]bool
}

// joinOf is the join overlay's frame while u shows it, else nil.
func (a *App) joinOf() *joinFrame {
	if a.opts.Class == nil || !a.class.showJoin {
		return nil
	}
	url := a.opts.Class.JoinURL()
	if a.class.qr == nil {
		a.class.qr, _ = class.QR(url)
	}
	return &joinFrame{url: url, qr: a.class.qr}
}

// classTick reports whether the room changed since the last frame (a
// student joined or answered), for the player to draw one: a paused UI
// draws nothing on its own.
func (a *App) classTick() bool {
	return a.opts.Class != nil && a.classSeen() != a.class.seen
}

// classSeen is how many joined and how many answered the open question.
func (a *App) classSeen() [2]int {
	h := a.opts.Class
	n := 0
	if a.quiz != nil {
		if q := a.sess.question(a.quiz.at); q != nil {
			for _, v := range h.Tally(a.classNumber(q.At, q.Text)) {
				n += v
			}
		}
	}
	return [2]int{h.Joined(), n}
}

// classNumber is the number the class answers the session's question
// at event at by: the same question in the same run keeps its number,
// even in another UI after o.
func (a *App) classNumber(at int, text string) int {
	cfg := a.sess.Config()
	return a.opts.Class.Number(fmt.Sprintf("%s|seed %d|procs %d|%v|%d|%s", a.opts.Source, cfg.Seed, cfg.Procs, cfg.Policy, at, text))
}

// publishClass sends the students what the screen shows, when it changed.
func (a *App) publishClass() {
	key := classKey{sess: a.sess, cursor: a.sess.Cursor(), quizAt: -1, split: a.runs.paneRuns() != nil}
	if a.quiz != nil {
		key.quizAt, key.revealed = a.quiz.at, a.quiz.revealed
	}
	if key == a.class.sent {
		return
	}
	a.class.sent = key
	a.opts.Class.Publish(a.classLive())
}

// classLive is the screen as the students see it.
func (a *App) classLive() class.Live {
	s := a.sess
	sc := s.Scenario()
	l := class.Live{Title: sc.Name}
	if sc.Title != "" {
		l.Title += " — " + sc.Title
	}
	if a.runs.paneRuns() != nil {
		l.Event = "The teacher is comparing two runs side by side."
		return l
	}
	st := s.State()
	if s.Cursor() < 0 {
		l.Event = "Before the first event."
	} else {
		e := s.Event(s.Cursor())
		l.Event = fmt.Sprintf("Event %d, at %v: %s", s.Cursor()+1, st.Now(), s.Describer().Describe(e))
	}
	if end := s.EndSummary(); end != "" {
		l.Event += " The run ended: " + end + "."
	}
	if notes := s.CurrentNotes(); len(notes) > 0 && s.Cursor()-notes[0].Event <= noteAge {
		var texts []string
		for _, n := range notes {
			texts = append(texts, reflow(n.Text))
		}
		l.Note = strings.Join(texts, "\n\n")
	}
	for i := range st.Procs() {
		l.Procs = append(l.Procs, a.classProc(gmp.PID(i)))
	}
	l.Queues = a.classQueues()
	l.Timeline = a.classTimeline()
	if qv := a.quiz; qv != nil {
		if q := s.question(qv.at); q != nil {
			l.Question = &class.Question{Number: a.classNumber(q.At, q.Text), Text: q.Text, Choices: q.Choices}
			if qv.revealed {
				l.Reveal = &class.Reveal{Answer: q.Answer, Why: q.Why}
			}
		}
	}
	return l
}

// classProc is P id's row as the Ps panel shows it.
func (a *App) classProc(id gmp.PID) class.ProcRow {
	st := a.sess.State()
	p := st.P(id)
	state, _, m := procState(a.theme, st, id)
	row := class.ProcRow{P: id.String(), State: state, M: "-", G: "-", Next: "-"}
	if m != nil {
		row.M = m.ID.String()
		if m.CurG != gmp.NoG {
			row.G = m.CurG.String()
		}
	}
	if p.Runnext != gmp.NoG {
		row.Next = p.Runnext.String()
	}
	row.Ring = gNames(p.RunqLen(), p.RunqAt)
	return row
}

// classQueues is the global queue and what waits outside the Ps.
func (a *App) classQueues() string {
	st := a.sess.State()
	q := st.Sched()
	head := q.RunqHead(12)
	lines := []string{"global queue: " + gNames(q.RunqLen(), func(i int) gmp.GID { return head[i] })}
	lines = append(lines, "timers: "+timersText(st), "netpoller: "+netpollText(st))
	return strings.Join(lines, "\n")
}

// gNames lists up to twelve of n goroutines, and how many more.
func gNames(n int, at func(int) gmp.GID) string {
	if n == 0 {
		return "empty"
	}
	var names []string
	for i := range min(n, 12) {
		names = append(names, at(i).String())
	}
	out := strings.Join(names, " ")
	if n > 12 {
		out += " +" + strconv.Itoa(n-12)
	}
	return out
}

// classTimeline is the SVG export of the latest events up to the cursor,
// made again only when the cursor moves.
func (a *App) classTimeline() []byte {
	s := a.sess
	key := classKey{sess: s, cursor: s.Cursor()}
	if key == a.class.svgKey {
		return a.class.svg
	}
	a.class.svgKey, a.class.svg = key, nil
	if s.Cursor() < 0 {
		return nil
	}
	first := max(s.Cursor()-classTimelineEvents+1, 0)
	var b bytes.Buffer
	st := s.State()
	from, to := s.Event(first).T.D(), st.Now().D()
	// The state at the cursor stands in for the machine: it has the Ps;
	// the global queue's line is left out (it needs every step).
	x, err := export.NewSVG(&b, "the latest events", st, export.SVGOptions{From: from, To: max(to, from+time.Microsecond), Width: 960})
	if err != nil {
		return nil
	}
	for i := first; i <= s.Cursor(); i++ {
		x.Event(s.Event(i))
	}
	if err := x.End(st); err != nil {
		return nil
	}
	a.class.svg = b.Bytes()
	return a.class.svg
}

// classScore is the header's class line: how many joined.
func (a *App) classScore() string {
	return fmt.Sprintf("class: %d joined", a.opts.Class.Joined())
}

// classQuizKey takes the class's keys while a question is open, and
// reports whether it took ev. Enter reveals the question to the class,
// with no answer of the teacher's: it counts as skipped in the teacher's
// own score and is not asked again on the way back. u still shows the
// join overlay, and esc closes it first, rather than skip the question
// under it.
func (a *App) classQuizKey(ev *tcell.EventKey) bool {
	if a.opts.Class == nil {
		return false
	}
	switch {
	case ev.Key() == tcell.KeyRune && ev.Rune() == 'u':
		a.toggleJoin()
		return true
	case a.class.showJoin && ev.Key() == tcell.KeyEscape:
		a.class.showJoin = false
		return true
	}
	if ev.Key() != tcell.KeyEnter {
		return false
	}
	qv := a.quiz
	qv.choice, qv.revealed = -1, true
	a.sess.Skip(qv.at)
	q := a.sess.question(qv.at)
	a.message = "revealed to the class: " + classResult(q, a.opts.Class.Tally(a.classNumber(q.At, q.Text))) + " · → shows the event"
	return true
}

// classResult says how many of the class answered q and how many right.
func classResult(q *quiz.Question, tally []int) string {
	total, right := 0, 0
	for i, n := range tally {
		total += n
		if i == q.Answer {
			right += n
		}
	}
	out := fmt.Sprintf("%d answered", total)
	if total > 0 {
		out += fmt.Sprintf(", %d right (%d%%)", right, (100*right+total/2)/total)
	}
	return out
}

// classQuizLines are the class's lines in the question's box: how many
// answered so far while it is open (not which: the screen is projected,
// and the spread would sway the room), and a bar per choice once it is
// revealed, before the explanation.
func classQuizLines(t *Theme, qf *quizFrame, inner int) []quizLine {
	if qf.class == nil {
		return nil
	}
	q, tally := qf.q, qf.class.counts
	total := 0
	for _, n := range tally {
		total += n
	}
	joined := qf.class.joined
	if !qf.revealed {
		return []quizLine{{"", t.Base, -1}, {fmt.Sprintf("class: %d of %d answered · enter reveals the answer", total, joined), t.Note.Bold(true), -1}}
	}
	lines := []quizLine{{"", t.Base, -1}}
	most := 1
	for _, n := range tally {
		most = max(most, n)
	}
	barW := max(min(inner-16, 40), 4)
	full, empty := "█", "·"
	if t.ASCII {
		full, empty = "#", "."
	}
	for i := range q.Choices {
		n := 0
		if i < len(tally) {
			n = tally[i]
		}
		pct := 0
		if total > 0 {
			pct = (100*n + total/2) / total
		}
		w := (n*barW + most/2) / most
		st := t.Base
		if i == q.Answer {
			st = t.Good
		}
		lines = append(lines, quizLine{fmt.Sprintf("%d %s%s %3d %3d%%", i+1, strings.Repeat(full, w), strings.Repeat(empty, barW-w), n, pct), st, -1})
	}
	return append(lines, quizLine{"class: " + classResult(q, tally), t.Note.Bold(true), -1})
}

// classTally is what the class has answered to the open question, for the
// quiz panel: the count per choice and how many joined.
type classTally struct {
	counts []int
	joined int
}

// classTallyOf is the class's answers to qv, or nil outside class mode.
func (a *App) classTallyOf(qv *quizView) *classTally {
	if a.opts.Class == nil {
		return nil
	}
	q := a.sess.question(qv.at)
	return &classTally{counts: a.opts.Class.Tally(a.classNumber(q.At, q.Text)), joined: a.opts.Class.Joined()}
}

// toggleJoin shows or hides the join URL and its QR code (u).
func (a *App) toggleJoin() {
	a.class.showJoin = !a.class.showJoin
}

// joinPanel draws the join URL, and its QR code when the terminal has the
// room and the characters for it, in a box in the middle.
type joinPanel struct{}

func (joinPanel) shows(f frame) bool { return f.join != nil }

func (joinPanel) draw(c canvas, f frame) {
	t := f.theme
	url, qr := f.join.url, f.join.qr
	const quiet = 2 // modules of light margin a phone needs to find the code
	n := len(qr)
	qrW, qrH := n+2*quiet, (n+2*quiet+1)/2
	lines := []string{"Students join at:", url}
	showQR := n > 0 && !t.ASCII && qrH+len(lines)+4 <= c.h && qrW+4 <= c.w
	if !showQR && n > 0 {
		reason := "a larger terminal shows the QR code"
		if t.ASCII {
			reason = "the QR code needs a UTF-8 terminal"
		}
		lines = append(lines, "", reason)
	}
	w := 0
	for _, l := range lines {
		w = max(w, width(l))
	}
	if showQR {
		w = max(w, qrW)
	}
	w = min(w+4, c.w)
	h := len(lines) + 2
	if showQR {
		h += qrH + 1
	}
	h = min(h, c.h)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	box.frame(" join the class · u or esc closes ", t)
	for i, l := range lines {
		st := t.Base
		if i == 1 {
			st = t.Title
		}
		box.text(2, 1+i, truncate(l, w-4), st)
	}
	if !showQR {
		return
	}
	// Light modules are white on black whatever the theme: a phone reads
	// dark-on-light, and the terminal's own colours may be either.
	qs := tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorBlack)
	dark := func(x, y int) bool {
		x, y = x-quiet, y-quiet
		return x >= 0 && y >= 0 && x < n && y < n && qr[y][x]
	}
	x0 := (w - qrW) / 2
	for row := range qrH {
		for col := range qrW {
			top, bottom := !dark(col, 2*row), !dark(col, 2*row+1)
			ch := " "
			switch {
			case top && bottom:
				ch = "█"
			case top:
				ch = "▀"
			case bottom:
				ch = "▄"
			}
			box.text(x0+col, 2+len(lines)+row, ch, qs)
		}
	}
}
