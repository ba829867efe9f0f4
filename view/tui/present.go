package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
)

// Presenter mode (schedlab tui --present) is the UI in front of a class:
// playback pauses at each note and at each of the scenario's questions,
// the note of the moment is shown large, in a box of its own, the key
// hints leave the status bar, b blanks the screen, and ' jumps to the
// moments the scenario names (marks:). The presenter's position is
// published for a second terminal that follows it with the notes to come
// (follow.go).

// atNoteNow reports whether the cursor is on the event of the note shown:
// a note just reached.
func (a *App) atNoteNow() bool {
	ns := a.sess.CurrentNotes()
	return len(ns) > 0 && ns[0].Event == a.sess.Cursor()
}

// pauseAtNote stops playback on reaching a note, in presenter mode, and
// says how to go on. It reports whether it did.
func (a *App) pauseAtNote() bool {
	if !a.opts.Present || !a.playing || !a.atNoteNow() || a.sess.CurrentNotes()[0].Held {
		return false
	}
	a.playing = false
	n := a.sess.CurrentNotes()[0]
	a.message = fmt.Sprintf("note %d/%d: space plays on", n.Number, len(a.sess.Scenario().Notes))
	return true
}

// toggleBlank blanks the screen, or brings it back: a presenter turns the
// class's eyes away from it.
func (a *App) toggleBlank() {
	a.blank = !a.blank
	if a.blank {
		a.playing = false
	}
}

// blankKey takes the key that brings a blanked screen back: any key does,
// and does nothing else, as on a slide projector; ctrl-c still quits.
func (a *App) blankKey(ev *tcell.EventKey) bool {
	if !a.blank || ev.Key() == tcell.KeyCtrlC {
		return false
	}
	a.blank = false
	return true
}

// startMark asks which mark to jump to.
func (a *App) startMark() {
	marks := a.sess.Scenario().Marks
	if len(marks) == 0 {
		a.message = "this scenario names no marks: a marks: list in its file names moments to jump to"
		return
	}
	var names []string
	for i, m := range marks {
		if i < 9 {
			names = append(names, strconv.Itoa(i+1)+" "+m.Name)
		}
	}
	a.ask(&prompt{label: " jump to mark: ", hint: strings.Join(names, " · ") + " · enter: go · esc: cancel", max: 32, enter: (*App).toMark})
}

// toMark jumps to the mark text names: its number or its name (or the
// start of it).
func (a *App) toMark(text string) {
	text = strings.TrimSpace(text)
	marks := a.sess.Scenario().Marks
	k := -1
	if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(marks) {
		k = n - 1
	}
	for i, m := range marks {
		if k < 0 && text != "" && strings.HasPrefix(m.Name, strings.ToLower(text)) {
			k = i
		}
	}
	if k < 0 {
		var names []string
		for _, m := range marks {
			names = append(names, m.Name)
		}
		a.message = fmt.Sprintf("no mark %q: the marks are %s", text, strings.Join(names, ", "))
		return
	}
	a.stopAt()
	name := marks[k].Name
	a.startJob(&job{what: "going to mark " + name, step: func() bool {
		at, more := a.sess.markEvent(k, stepSlice)
		switch {
		case at >= 0:
			a.sess.Seek(at)
			a.message = "mark " + name
			return true
		case !more:
			a.message = fmt.Sprintf("the run never reaches mark %s (%s)", name, strings.Replace(marks[k].Moment.String(), ": ", " ", 1))
			return true
		}
		return false
	}})
}

// marksOf places a scenario's marks as the session's run goes.
func marksOf(sc *scenarios.Scenario) *scenarios.NoteTracker {
	return scenarios.NewMarkTracker(sc.Marks)
}

// markEvent is the event mark k is on, running the model on at most steps
// steps to find it; -1 and more while it may still come.
func (s *Session) markEvent(k, steps int) (at int, more bool) {
	b := s.budget(steps)
	for {
		if at := s.marks.At(k); at >= 0 {
			return at, false
		}
		if s.hist.Done() {
			return -1, false
		}
		if s.hist.ExtendSteps(s.log.n+4096, b.left()); b.left() <= 1 && s.marks.At(k) < 0 {
			return -1, !s.hist.Done()
		}
	}
}

// noteBox draws the note of the moment large, in presenter mode: a box
// over the lower part of the screen, its text whole, bold on the
// terminal's own colours (the theme's most contrast), with room around it.
type noteBox struct{}

func (noteBox) shows(f frame) bool {
	return f.present && f.quiz == nil && len(f.notes) > 0 && f.notes[0].Event == f.cursor && !f.notes[0].Held
}

func (noteBox) draw(c canvas, f frame) {
	t := f.theme
	n := f.notes[0]
	w := min(c.w-2, 100)
	heading := fmt.Sprintf(" note %d/%d · space plays on · ] next note ", n.Number, len(f.sc.Notes))
	if n.HasAt && f.events.Event(n.Event).T != n.At {
		heading = fmt.Sprintf(" note %d/%d, at %s · space plays on · ] next note ", n.Number, len(f.sc.Notes), short(n.At.D()))
	}
	body := reflow(n.Text)
	if n.More > 0 {
		body += fmt.Sprintf(" (] shows %d more of this moment)", n.More)
	}
	lines := wrap(body, w-6)
	h := min(len(lines)+4, c.h-2)
	// The rows behind the box are cleared whole: nothing peeks out
	// beside it, and the status bar under it stays.
	for row := c.h - 1 - h; row < c.h-1; row++ {
		c.fill(0, c.w, row, ' ', t.Base)
	}
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + c.h - 1 - h, w: w, h: h}
	box.frame(heading, t)
	lines = cutLines(lines, h-4, w-6)
	for i, l := range lines {
		box.text(3, 2+i, l, t.Slide)
	}
}
