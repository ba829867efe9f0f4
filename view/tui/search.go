package tui

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
)

// The find prompt (/) takes a goroutine (5 or G5) or any other text,
// which is looked for in the events' kinds and sentences: n and N go to
// the next and the previous event that matches, and the log marks them.

// matches reports whether event i's kind or sentence holds text (lower
// case).
func (a *App) matches(i int, text string) bool {
	return matches(a.sess.Event(i), a.sess.Describer(), text)
}

// matches reports whether e's kind or its sentence by d holds text.
func matches(e gmp.Event, d *gmp.Describer, text string) bool {
	return strings.Contains(e.Kind.String(), text) ||
		strings.Contains(strings.ToLower(d.Describe(e)), text)
}

// search looks for text from the event after the cursor on, as a job.
func (a *App) search(text string) {
	a.searchText = strings.ToLower(text)
	a.message = ""
	a.startJob(a.toNextMatch())
}

// toNextMatch is the job of finding the next event that matches the
// search, running the simulation on as needed.
func (a *App) toNextMatch() *job {
	i := a.sess.Cursor() + 1
	text := a.searchText
	return &job{what: fmt.Sprintf("looking for %q", text), step: func() bool {
		b := a.sess.budget(stepSlice)
		for range jobSlice / 4 { // a sentence costs more than a step
			if ok, more := a.sess.reach(i, b.left()); !ok {
				if more {
					return false // on in the next slice
				}
				a.message = fmt.Sprintf("no later event says %q", text)
				return true
			}
			if a.matches(i, text) {
				a.sess.Seek(i)
				return true
			}
			i++
		}
		return false
	}}
}

// prevMatch goes to the latest event before the cursor that matches.
func (a *App) prevMatch() {
	for i := a.sess.Cursor() - 1; i >= 0; i-- {
		if a.matches(i, a.searchText) {
			a.sess.Seek(i)
			return
		}
	}
	a.message = fmt.Sprintf("no earlier event says %q", a.searchText)
}

// selected is the event the log is scrolled back to, when the log has
// focus: its bottom row. -1 when none is.
func (a *App) selected() int {
	if a.focus != focusLog || a.log.back == 0 {
		return -1
	}
	return a.sess.Cursor() - a.log.back
}

// jumpToSelected moves the cursor to the event selected in the log.
func (a *App) jumpToSelected() {
	i := a.selected()
	if i < 0 {
		a.message = "select an event first: tab to the events, then ↑ and ↓"
		return
	}
	a.stopAt()
	a.sess.Seek(i)
}
