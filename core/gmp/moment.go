package gmp

import (
	"fmt"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Moment names a point of a run the way a scenario's notes and questions
// do: a time (the first event at or after it), or an event — the Nth of a
// kind, optionally only those concerning a goroutine or happening on a P.
type Moment struct {
	At    time.Duration
	HasAt bool
	On    Kind
	// Nth picks the Nth matching event (1, the first, when 0).
	Nth int
	// G and P, when set (HasP for P), keep only events of that goroutine
	// (as G, G2 or G3) or on that P.
	G    GID
	P    PID
	HasP bool
}

// String writes the moment as a scenario does: "at: 1ms", "on: steal",
// "on: {kind: steal, n: 2, p: 1}".
func (m Moment) String() string {
	if m.HasAt {
		return "at: " + m.At.String()
	}
	if m.Nth <= 1 && m.G == NoG && !m.HasP {
		return "on: " + m.On.String()
	}
	s := "on: {kind: " + m.On.String()
	if m.Nth > 1 {
		s += fmt.Sprintf(", n: %d", m.Nth)
	}
	if m.G != NoG {
		s += ", g: " + m.G.String()
	}
	if m.HasP {
		s += ", p: " + m.P.String()
	}
	return s + "}"
}

// MomentMatcher finds a moment in a run fed to it event by event.
type MomentMatcher struct {
	m    Moment
	seen int
	hit  bool
}

// NewMomentMatcher returns a matcher for m.
func NewMomentMatcher(m Moment) *MomentMatcher { return &MomentMatcher{m: m} }

// Match reports whether e, the run's next event, is the moment. It
// reports true once: later events are past it.
func (mm *MomentMatcher) Match(e *Event) bool {
	if mm.hit {
		return false
	}
	m := &mm.m
	if m.HasAt {
		mm.hit = e.T >= sim.Time(m.At)
		return mm.hit
	}
	if e.Kind != m.On || m.G != NoG && !e.Involves(m.G) || m.HasP && e.P != m.P {
		return false
	}
	mm.seen++
	mm.hit = mm.seen >= max(m.Nth, 1)
	return mm.hit
}

// Reached reports whether the moment has been matched.
func (mm *MomentMatcher) Reached() bool { return mm.hit }
