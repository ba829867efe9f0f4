// Package replay holds a finished run as a list of scheduler events, real
// (a runtime trace, through package rtrace) or simulated (the model's, in
// the same vocabulary), and rebuilds what the Ps and goroutines were doing
// after any event: the state a trace can show, no run queues. It is what
// the terminal UI steps through for schedlab trace and schedlab tui --vs
// real. It is pure: no clock, no goroutines.
package recorded

import (
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// Event is one scheduler event, kept small: a run holds millions.
type Event struct {
	T    time.Duration // since the run's first event
	G    int64         // the goroutine concerned, or -1
	G2   int64         // the goroutine acting on it, or -1
	P    int32         // the P, or -1
	M    int32         // the thread, or -1
	Kind gmp.Kind      // the model's kinds, which a real trace's share
	// Reason indexes the run's reasons: why a goroutine stopped or
	// blocked, in a real trace's words (0: none).
	Reason uint16
}

// GState is what a goroutine is doing, as far as a trace can tell.
type GState uint8

const (
	GRunnable GState = iota + 1
	GRunning
	GWaiting
	GSyscall
	GDead
)

func (s GState) String() string {
	return [...]string{"?", "runnable", "running", "waiting", "in a syscall", "exited"}[s]
}

// Proc is a P after an event.
type Proc struct {
	M     int64         // the thread holding it, or -1 if it is idle
	G     int64         // the goroutine it runs, or -1
	Since time.Duration // when G started on it
}

// State is what the run shows after an event.
type State struct {
	T     time.Duration
	Procs []Proc
	// Gs maps each goroutine seen to its state; exited ones are kept
	// (GDead) so that the counts stay whole.
	Gs map[int64]GState
}

// Count returns how many goroutines are in st.
func (s *State) Count(st GState) int {
	n := 0
	for _, v := range s.Gs {
		if v == st {
			n++
		}
	}
	return n
}

// List returns the goroutines in st, in order.
func (s *State) List(st GState) []int64 {
	var out []int64
	for g, v := range s.Gs {
		if v == st {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

func (s *State) clone() *State {
	c := &State{T: s.T, Procs: slices.Clone(s.Procs), Gs: make(map[int64]GState, len(s.Gs))}
	for g, v := range s.Gs {
		c.Gs[g] = v
	}
	return c
}

// apply moves s past e.
func (s *State) apply(e Event) {
	s.T = e.T
	if int(e.P) >= len(s.Procs) {
		for len(s.Procs) <= int(e.P) {
			s.Procs = append(s.Procs, Proc{M: -1, G: -1})
		}
	}
	var p *Proc
	if e.P >= 0 {
		p = &s.Procs[e.P]
	}
	leave := func() {
		if p != nil && p.G == e.G {
			p.G = -1
		}
	}
	switch e.Kind {
	case gmp.KindGoCreate, gmp.KindGoUnblock, gmp.KindGoStop:
		s.Gs[e.G] = GRunnable
		if e.Kind == gmp.KindGoStop {
			leave()
		}
	case gmp.KindGoStart:
		s.Gs[e.G] = GRunning
		if p != nil {
			p.G, p.Since, p.M = e.G, e.T, int64(e.M)
		}
	case gmp.KindGoBlock:
		s.Gs[e.G] = GWaiting
		leave()
	case gmp.KindGoExit:
		s.Gs[e.G] = GDead
		leave()
	case gmp.KindSyscallEnter:
		s.Gs[e.G] = GSyscall
	case gmp.KindSyscallExit:
		if e.P >= 0 {
			s.Gs[e.G] = GRunning
			if p != nil {
				p.G, p.M = e.G, int64(e.M)
			}
		} else {
			s.Gs[e.G] = GRunnable
		}
	case gmp.KindProcStart:
		if p != nil {
			p.M = int64(e.M)
		}
	case gmp.KindProcStop, gmp.KindProcSteal:
		if p != nil {
			if p.G >= 0 && e.Kind == gmp.KindProcSteal {
				// The goroutine stays in its syscall, without a P.
				p.G = -1
			}
			p.M = -1
		}
	}
}

// checkpointEvery is how many events lie between kept states: going back
// replays at most this many.
const checkpointEvery = 2048

// Run is a finished run: its events, and states kept along them.
type Run struct {
	// Label names the run: "model", "real".
	Label  string
	Events []Event
	procs  int
	// checkpoints[i] is the state before event i*checkpointEvery.
	checkpoints []*State
	// Note says what the run cannot show, or why it is cut short.
	Note string
	// describe says what event i means, in the describer's words.
	describe func(i int) string
}

// New returns the run of events on procs Ps; describe says what each
// event means.
func New(label string, procs int, events []Event, describe func(i int) string) *Run {
	r := &Run{Label: label, Events: events, procs: procs, describe: describe}
	s := &State{Procs: make([]Proc, procs), Gs: map[int64]GState{}}
	for i := range s.Procs {
		s.Procs[i] = Proc{M: -1, G: -1}
	}
	for i, e := range events {
		if i%checkpointEvery == 0 {
			r.checkpoints = append(r.checkpoints, s.clone())
		}
		s.apply(e)
	}
	if len(events) == 0 {
		r.checkpoints = append(r.checkpoints, s)
	}
	return r
}

// Text says what event i means.
func (r *Run) Text(i int) string { return r.describe(i) }

// Procs returns how many Ps the run had (at least the Ps its events name).
func (r *Run) Procs() int { return r.procs }

// StateAfter returns the state after event i (before the first if i < 0).
func (r *Run) StateAfter(i int) *State {
	i = min(i, len(r.Events)-1)
	if i < 0 {
		return r.checkpoints[0].clone()
	}
	c := i / checkpointEvery
	s := r.checkpoints[c].clone()
	for j := c * checkpointEvery; j <= i; j++ {
		s.apply(r.Events[j])
	}
	return s
}

// At returns the index of the last event at or before t, or -1.
func (r *Run) At(t time.Duration) int {
	i, _ := slices.BinarySearchFunc(r.Events, t, func(e Event, t time.Duration) int {
		if e.T <= t {
			return -1
		}
		return 1
	})
	return i - 1
}

// End is when the run's last event happened.
func (r *Run) End() time.Duration {
	if len(r.Events) == 0 {
		return 0
	}
	return r.Events[len(r.Events)-1].T
}

// Segment is a stretch of time a P ran one goroutine.
type Segment struct {
	From, To time.Duration
	G        int64
}

// Segments calls f for each stretch P p ran a goroutine that overlaps
// [from, to], cut at to.
func (r *Run) Segments(p int64, from, to time.Duration, f func(Segment)) {
	s := r.StateAfter(r.At(from))
	cur := s.Procs
	if p >= int64(len(cur)) {
		return
	}
	open := cur[p]
	start := from
	for i := r.At(from) + 1; i < len(r.Events); i++ {
		e := r.Events[i]
		if e.T > to {
			break
		}
		if int64(e.P) != p {
			continue
		}
		before := open.G
		s.apply(e)
		open = s.Procs[p]
		if open.G != before {
			if before >= 0 {
				f(Segment{From: start, To: e.T, G: before})
			}
			start = e.T
		}
	}
	if open.G >= 0 {
		f(Segment{From: start, To: to, G: open.G})
	}
}
