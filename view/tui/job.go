package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
)

// Long work — running to the end of a long run, looking far ahead for a
// goroutine's next event — is done a slice at a time, as many slices a
// frame as fit in most of it, so that the screen shows how far it got and
// esc, q or ctrl-c stop it. A short job ends within its first slice,
// before anything is drawn.

// A slice ends after jobSlice events or stepSlice steps of the model,
// whichever comes first: a run may emit an event every few steps, or take
// millions of steps between two events (two nested loops of compute), and
// either way a slice takes a few milliseconds on this project's machine.
const (
	jobSlice  = 20_000
	stepSlice = 50_000
)

// job is the long work in progress.
type job struct {
	what string
	// step does one slice and reports whether the job is done.
	step func() bool
}

// startJob does the first slice of j at once, and the rest one slice a
// frame.
func (a *App) startJob(j *job) {
	if j.step() {
		return
	}
	a.job = j
	a.message = a.jobLine()
}

// jobBudget is how long a frame gives the job in progress: most of a
// frame, leaving the rest to drawing and keys.
const jobBudget = tickEvery * 3 / 4

// stepJob does a frame's worth of the job in progress: at least one
// slice, and more while the frame's budget lasts.
func (a *App) stepJob() {
	for start := time.Now(); a.stepJobOnce() && time.Since(start) < jobBudget; {
	}
}

// stepJobOnce does one slice of the job in progress and reports whether
// the job goes on.
func (a *App) stepJobOnce() bool {
	if a.job == nil {
		return false
	}
	if a.job.step() {
		a.job = nil
		return false
	}
	a.message = a.jobLine()
	return true
}

// jobLine is the status bar's progress line: the cursor's event, and how
// far the model has run, which moves on even while no event comes. It is
// short: the status bar gives a message two thirds of its width.
func (a *App) jobLine() string {
	steps, now := a.sess.Progress()
	return fmt.Sprintf("%s: event %d · %s, %s steps… esc stops", a.job.what, a.sess.Cursor()+1, short(now.D()), compactCount(steps))
}

// compactCount writes n in at most five characters: 950, 12.3k, 20.0M.
func compactCount(n uint64) string {
	switch {
	case n < 10_000:
		return strconv.FormatUint(n, 10)
	case n < 10_000_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// jobKey handles a key while a job runs: esc, q and ctrl-c stop it where
// it got to; other keys wait. It reports whether it took the key.
func (a *App) jobKey(ev *tcell.EventKey) bool {
	if a.job == nil {
		return false
	}
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyCtrlC,
		ev.Key() == tcell.KeyRune && ev.Rune() == 'q':
		a.message = "stopped " + a.job.what + fmt.Sprintf(" at event %d", a.sess.Cursor()+1)
		a.job = nil
	default:
		a.message = a.jobLine()
	}
	return true
}

// toEnd is the job of running to the end of the run.
func (a *App) toEnd() *job {
	return &job{what: "running to the end", step: func() bool {
		if a.runs.runOn() {
			a.message = a.runs.endMessage()
			return true
		}
		return false
	}}
}

// toNextOf is the job of finding the next event of g after the cursor.
func (a *App) toNextOf(g gmp.GID) *job {
	from := a.sess.Cursor() + 1
	return &job{what: "looking for " + g.String(), step: func() bool {
		i, next := a.sess.findEventOf(g, from, jobSlice, stepSlice)
		switch {
		case i >= 0:
			a.sess.Seek(i)
			return true
		case next < 0:
			a.message = fmt.Sprintf("no later event of %v", g)
			if made, _ := a.sess.madeGs(); int(g) >= made {
				a.message = noSuchG(g, made)
			}
			return true
		}
		from = next
		return false
	}}
}
