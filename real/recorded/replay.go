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

// State is what the run shows after an event. Goroutines are counted and
// listed through its methods; exited ones are kept (GDead) so that the
// counts stay whole.
type State struct {
	T     time.Duration
	Procs []Proc
	// gs holds each goroutine's state at its place in ids, the run's
	// goroutines in increasing order (shared with the run, never
	// written); 0 for one not seen yet.
	gs     []GState
	ids    []int64
	counts tally
}

// tally counts the goroutines in each state, kept as they change so that
// counting costs nothing however many goroutines a run has.
type tally [GDead + 1]int

// Count returns how many goroutines are in st.
func (s *State) Count(st GState) int {
	if int(st) >= len(s.counts) {
		return 0
	}
	return s.counts[st]
}

// List returns the goroutines in st, in increasing order.
func (s *State) List(st GState) []int64 { return s.First(st, s.Count(st)) }

// First returns the first n goroutines in st, in increasing order: what a
// view has room for, without listing hundreds of thousands.
func (s *State) First(st GState, n int) []int64 {
	n = min(n, s.Count(st))
	if n <= 0 {
		return nil
	}
	out := make([]int64, 0, n)
	for x, v := range s.gs {
		if v == st {
			out = append(out, s.ids[x])
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// Of returns goroutine g's state, 0 if the run has not seen it yet.
func (s *State) Of(g int64) GState {
	x, ok := slices.BinarySearch(s.ids, g)
	if !ok {
		return 0
	}
	return s.gs[x]
}

// stepProcs moves the Ps past e. A P's state depends on its own events
// alone, never on the goroutines', so the two are replayed apart.
func stepProcs(ps []Proc, e Event) {
	if e.P < 0 || int(e.P) >= len(ps) {
		return
	}
	p := &ps[e.P]
	switch e.Kind {
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
		if p.G == e.G {
			p.G = -1
		}
	case gmp.KindGoStart:
		p.G, p.Since, p.M = e.G, e.T, int64(e.M)
	case gmp.KindSyscallExit:
		p.G, p.M = e.G, int64(e.M)
	case gmp.KindProcStart:
		p.M = int64(e.M)
	case gmp.KindProcStop, gmp.KindProcSteal:
		if p.G >= 0 && e.Kind == gmp.KindProcSteal {
			// The goroutine stays in its syscall, without a P.
			p.G = -1
		}
		p.M = -1
	}
}

// stepG moves the goroutines past e, whose goroutine is at place x of gs
// (-1 for none), keeping c whole.
func stepG(gs []GState, c *tally, x int32, e Event) {
	if x < 0 {
		return
	}
	var to GState
	switch e.Kind {
	case gmp.KindGoCreate, gmp.KindGoUnblock, gmp.KindGoStop:
		to = GRunnable
	case gmp.KindGoStart:
		to = GRunning
	case gmp.KindGoBlock:
		to = GWaiting
	case gmp.KindGoExit:
		to = GDead
	case gmp.KindSyscallEnter:
		to = GSyscall
	case gmp.KindSyscallExit:
		to = GRunnable
		if e.P >= 0 {
			to = GRunning
		}
	default:
		return
	}
	c[gs[x]]--
	c[to]++
	gs[x] = to
}

// checkpointEvery is the least spacing, in events, of kept states: going
// back replays at most a spacing's worth.
const checkpointEvery = 2048

// marksPerGoroutine bounds the memory of kept goroutine states: a
// snapshot costs a byte a goroutine, and snapshots are spaced at least
// goroutines/marksPerGoroutine events apart, so that together they weigh
// at most marksPerGoroutine bytes an event (and one snapshot more),
// whatever the run. Kept every checkpointEvery events, they weighed
// events × goroutines / 2048: gigabytes for go test -trace of a busy test.
// A seek replays at most goroutines/marksPerGoroutine events, a few
// milliseconds even for millions of goroutines.
const marksPerGoroutine = 8

// procMarkSpacing is the same bound for the Ps' snapshots, 24 bytes a P:
// at most 6 bytes an event.
const procMarkSpacing = 4

// Run is a finished run: its events, and states kept along them.
type Run struct {
	// Label names the run: "model", "real".
	Label  string
	Events []Event
	procs  int
	// gids lists the goroutines the events name, in increasing order; a
	// goroutine's place in it indexes the states' dense arrays. gix[i] is
	// the place of Events[i].G, or -1.
	gids []int64
	gix  []int32
	// procMarks[k] is the Ps before event k*procEvery; gMarks[k] the
	// goroutines before event k*gEvery. The Ps are kept often, being
	// few, for the timeline, which needs only them.
	procEvery, gEvery int
	procMarks         [][]Proc
	gMarks            []gMark
	// Note says what the run cannot show, or why it is cut short.
	Note string
	// describe says what event i means, in the describer's words.
	describe func(i int) string
}

type gMark struct {
	gs     []GState
	counts tally
}

// New returns the run of events on procs Ps (or as many as its events
// name); describe says what each event means.
func New(label string, procs int, events []Event, describe func(i int) string) *Run {
	for _, e := range events {
		procs = max(procs, int(e.P)+1)
	}
	r := &Run{Label: label, Events: events, procs: procs, describe: describe}
	r.gids, r.gix = intern(events)
	r.procEvery = max(checkpointEvery, procMarkSpacing*procs)
	r.gEvery = max(checkpointEvery, len(r.gids)/marksPerGoroutine)
	ps := idleProcs(procs)
	gs := make([]GState, len(r.gids))
	var c tally
	c[0] = len(gs) // none seen yet
	for i, e := range events {
		if i%r.procEvery == 0 {
			r.procMarks = append(r.procMarks, slices.Clone(ps))
		}
		if i%r.gEvery == 0 {
			r.gMarks = append(r.gMarks, gMark{gs: slices.Clone(gs), counts: c})
		}
		stepProcs(ps, e)
		stepG(gs, &c, r.gix[i], e)
	}
	if len(events) == 0 {
		r.procMarks = append(r.procMarks, ps)
		r.gMarks = append(r.gMarks, gMark{gs: gs})
	}
	return r
}

func idleProcs(n int) []Proc {
	ps := make([]Proc, n)
	for i := range ps {
		ps[i] = Proc{M: -1, G: -1}
	}
	return ps
}

// intern numbers the goroutines events name densely, in increasing order
// of their ids, which may be anything a trace says.
func intern(events []Event) (ids []int64, gix []int32) {
	all := make([]int64, 0, len(events))
	for _, e := range events {
		if e.G >= 0 {
			all = append(all, e.G)
		}
	}
	slices.Sort(all)
	// A copy, so that the events' worth of ids is not kept.
	ids = slices.Clone(slices.Compact(all))
	gix = make([]int32, len(events))
	for i, e := range events {
		gix[i] = -1
		if e.G >= 0 {
			x, _ := slices.BinarySearch(ids, e.G)
			gix[i] = int32(x)
		}
	}
	return ids, gix
}

// Text says what event i means.
func (r *Run) Text(i int) string { return r.describe(i) }

// Procs returns how many Ps the run had (at least the Ps its events name).
func (r *Run) Procs() int { return r.procs }

// StateAfter returns the state after event i (before the first if i < 0).
func (r *Run) StateAfter(i int) *State {
	s, _ := r.stateAfter(i)
	return s
}

// stateAfter is StateAfter, also saying how many events it replayed.
func (r *Run) stateAfter(i int) (*State, int) {
	i = max(min(i, len(r.Events)-1), -1)
	ps, n := r.procsAfter(i)
	// The snapshot before event i+1 is the state after event i.
	k := min((i+1)/r.gEvery, len(r.gMarks)-1)
	m := r.gMarks[k]
	s := &State{Procs: ps, gs: slices.Clone(m.gs), ids: r.gids, counts: m.counts}
	for j := k * r.gEvery; j <= i; j++ {
		stepG(s.gs, &s.counts, r.gix[j], r.Events[j])
		n++
	}
	if i >= 0 {
		s.T = r.Events[i].T
	}
	return s, n
}

// procsAfter returns the Ps after event i (i >= -1), and how many events
// it replayed.
func (r *Run) procsAfter(i int) ([]Proc, int) {
	k := min((i+1)/r.procEvery, len(r.procMarks)-1)
	ps := slices.Clone(r.procMarks[k])
	n := 0
	for j := k * r.procEvery; j <= i; j++ {
		stepProcs(ps, r.Events[j])
		n++
	}
	return ps, n
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
	if p < 0 || p >= int64(r.procs) {
		return
	}
	at := r.At(from)
	ps, _ := r.procsAfter(at)
	open := ps[p]
	start := from
	for i := at + 1; i < len(r.Events); i++ {
		e := r.Events[i]
		if e.T > to {
			break
		}
		if int64(e.P) != p {
			continue
		}
		before := open.G
		stepProcs(ps, e)
		open = ps[p]
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
