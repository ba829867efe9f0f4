package tui

import (
	"fmt"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// pace is how fast playback goes: so many events a second, which reads
// each event in turn, or so much simulated time a second, which keeps the
// run's own rhythm (a burst flies by, an idle gap takes its time). p
// switches between them; + and - change the rate.
type pace struct {
	byTime bool
	ev, tm int // indices into eventRates and timeRates
}

// eventRates are the playback rates in events a second.
var eventRates = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000}

// timeRates are the playback rates in simulated time a second.
var timeRates = []time.Duration{
	time.Microsecond, 2 * time.Microsecond, 5 * time.Microsecond,
	10 * time.Microsecond, 20 * time.Microsecond, 50 * time.Microsecond,
	100 * time.Microsecond, 200 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second,
}

// newPace starts at 10 events a second, slow enough to read along, and at
// 1ms of simulated time a second when switched.
func newPace() pace { return pace{ev: 3, tm: 9} }

func (p pace) String() string {
	if p.byTime {
		return short(timeRates[p.tm]) + "/s"
	}
	return fmt.Sprintf("%d ev/s", eventRates[p.ev])
}

func (p *pace) faster() {
	if p.byTime {
		p.tm = min(p.tm+1, len(timeRates)-1)
	} else {
		p.ev = min(p.ev+1, len(eventRates)-1)
	}
}

func (p *pace) slower() {
	if p.byTime {
		p.tm = max(p.tm-1, 0)
	} else {
		p.ev = max(p.ev-1, 0)
	}
}

// player turns the passing of wall time into playback: how many events
// are due, or up to which simulated time.
type player struct {
	owed float64  // events due and not yet stepped
	at   sim.Time // by time: the simulated moment playback has reached
}

// start begins playback from the simulated moment now.
func (pl *player) start(now sim.Time) { pl.owed, pl.at = 0, now }

// events returns how many events dt of playback makes due.
func (pl *player) events(p pace, dt time.Duration) int {
	pl.owed += float64(eventRates[p.ev]) * dt.Seconds()
	n := int(pl.owed)
	pl.owed -= float64(n)
	return n
}

// until moves the playback moment on by dt at p's rate and returns it.
func (pl *player) until(p pace, dt time.Duration) sim.Time {
	pl.at += sim.Time(float64(timeRates[p.tm]) * dt.Seconds())
	return pl.at
}
