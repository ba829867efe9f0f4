package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// The goto prompt (:) moves the cursor to an event by its number, as the
// header counts them, or to the first event at or after a time. Far
// targets ahead run as a job, which esc stops.

func (a *App) startGoto() {
	a.ask(&prompt{label: " go to event or time: ", hint: "e.g. 120 or 1.5ms · enter: go · esc: cancel", max: 20, enter: (*App).goTo})
}

// goTo moves to what text names: an event number or a time.
func (a *App) goTo(text string) {
	text = strings.TrimSpace(text)
	a.stopAt()
	if n, err := strconv.Atoi(text); err == nil {
		if n < 1 {
			a.message = fmt.Sprintf("event %d: events are counted from 1", n)
			return
		}
		a.goToEvent(n - 1)
		return
	}
	d, err := time.ParseDuration(strings.ReplaceAll(text, "us", "µs"))
	if err != nil || d < 0 {
		a.message = fmt.Sprintf("%q: type an event number such as 120, or a time such as 1.5ms", text)
		return
	}
	a.goToTime(sim.Time(d))
}

func (a *App) goToEvent(target int) {
	if target <= a.sess.Cursor() {
		a.sess.Seek(target)
		return
	}
	a.startJob(&job{what: fmt.Sprintf("going to event %d", target+1), step: func() bool {
		a.sess.ForwardSteps(min(jobSlice, target-a.sess.Cursor()), stepSlice)
		if a.sess.Cursor() >= target {
			return true
		}
		if a.sess.AtEnd() {
			a.message = fmt.Sprintf("the run ends at event %d", a.sess.Cursor()+1)
			return true
		}
		return false
	}})
}

func (a *App) goToTime(at sim.Time) {
	known := a.sess.Known()
	if known > 0 && a.sess.Event(known-1).T >= at {
		// Already simulated: the first known event at or after at.
		i := sort.Search(known, func(i int) bool { return a.sess.Event(i).T >= at })
		a.sess.Seek(i)
		return
	}
	a.startJob(&job{what: "going to " + sim.FormatMillis(at.D()), step: func() bool {
		b := a.sess.budget(stepSlice)
		for range jobSlice {
			next := a.sess.Cursor() + 1
			if ok, more := a.sess.reach(next+1, b.left()); !ok && more {
				return false // on in the next slice
			}
			if a.sess.Forward(1) == 0 {
				a.message = fmt.Sprintf("the run ends at %s, before %s", sim.FormatMillis(a.sess.State().Now().D()), sim.FormatMillis(at.D()))
				return true
			}
			if a.sess.Event(a.sess.Cursor()).T >= at {
				return true
			}
		}
		return false
	}})
}
