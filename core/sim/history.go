package sim

import "sort"

// Model is what History needs from a simulation.
type Model[S any] interface {
	// Clone returns an independent copy of the whole state. The copy must
	// not deliver events to the original's observers.
	Clone() S
	// Step advances by one step and reports whether the run can go on.
	Step() bool
	// Emitted is the number of events emitted from the start of the run.
	Emitted() int
}

// History lets a viewer move to any event of a run, backward as well as
// forward. The run itself only goes forward: History keeps a checkpoint
// (a clone) every Every events and reaches an earlier event by cloning the
// nearest checkpoint before it and replaying. Determinism makes the
// replayed state identical to the one first seen.
type History[S Model[S]] struct {
	every       int // the spacing asked for
	next        int // the spacing in force, which grows with the state
	frontier    S
	done        bool
	checkpoints []checkpoint[S]
	// quiet counts the steps since the last checkpoint: a run can take
	// millions of steps between two events, and a step back must not
	// replay them all.
	quiet int
}

// quietSteps is the most steps between two checkpoints, whatever the
// events: a replay from one takes tens of milliseconds at most.
const quietSteps = 1 << 20

type checkpoint[S any] struct {
	emitted int
	state   S
}

// DefaultEvery is the checkpoint spacing used when NewHistory gets 0.
const DefaultEvery = 2048

// MaxCheckpoints bounds how many checkpoints a history keeps, whatever the
// length of the run: past it, every other one goes and the spacing
// doubles, so memory stays bounded and a step back replays at most a
// spacing's worth of events.
const MaxCheckpoints = 1024

// Weigher is implemented by models whose snapshots cost more as they
// grow. Weight should be proportional to the cost of a Clone in units of
// the cost of one event's replay; History then spaces checkpoints at least
// that far apart, so that restoring one costs about as much as replaying
// up to the next, and a run's checkpoints never outweigh its replay.
type Weigher interface {
	Weight() int
}

// NewHistory starts a history at start, which keeps running forward and
// delivering events to its observers. every is the checkpoint spacing in
// events (DefaultEvery if <= 0).
func NewHistory[S Model[S]](start S, every int) *History[S] {
	if every <= 0 {
		every = DefaultEvery
	}
	h := &History[S]{every: every, next: every, frontier: start}
	h.checkpoints = append(h.checkpoints, checkpoint[S]{emitted: start.Emitted(), state: start.Clone()})
	return h
}

// Frontier is the furthest state reached. Callers must not step it
// themselves; use Extend.
func (h *History[S]) Frontier() S { return h.frontier }

// Done reports whether the run has ended.
func (h *History[S]) Done() bool { return h.done }

// Checkpoints reports how many checkpoints are held (for memory reports).
func (h *History[S]) Checkpoints() int { return len(h.checkpoints) }

// Extend steps the frontier until at least n events have been emitted or
// the run ends. It reports whether n events exist.
func (h *History[S]) Extend(n int) bool { return h.ExtendSteps(n, -1) }

// ExtendSteps is Extend taking at most steps steps (no bound when steps
// is negative): a viewer that must stay responsive grows the run a
// bounded slice at a time, since a step may emit no event at all and
// millions of them can pass between two events. It reports whether n
// events exist.
func (h *History[S]) ExtendSteps(n, steps int) bool {
	for ; !h.done && h.frontier.Emitted() < n && steps != 0; steps-- {
		if !h.frontier.Step() {
			h.done = true
		}
		h.quiet++
		last := h.checkpoints[len(h.checkpoints)-1].emitted
		if e := h.frontier.Emitted(); e-last >= h.next || h.quiet >= quietSteps {
			h.quiet = 0
			h.checkpoints = append(h.checkpoints, checkpoint[S]{emitted: e, state: h.frontier.Clone()})
			if len(h.checkpoints) > MaxCheckpoints {
				h.thin()
			}
			h.next = h.every
			if w, ok := any(h.frontier).(Weigher); ok {
				h.next = max(h.every, w.Weight())
			}
		}
	}
	return h.frontier.Emitted() >= n
}

// thin keeps every other checkpoint (the first always) and doubles the
// spacing of those to come.
func (h *History[S]) thin() {
	kept := h.checkpoints[:1]
	for i := 2; i < len(h.checkpoints); i += 2 {
		kept = append(kept, h.checkpoints[i])
	}
	clear(h.checkpoints[len(kept):])
	h.checkpoints = kept
	h.every *= 2
}

// At returns an independent state positioned just after the step that
// emitted event i (0-based), or false if the run never emits event i.
// Asking for i = -1 returns the state before the first event.
func (h *History[S]) At(i int) (S, bool) {
	var zero S
	if !h.Extend(i + 1) {
		return zero, false
	}
	// The last checkpoint that has not yet emitted event i.
	k := sort.Search(len(h.checkpoints), func(k int) bool { return h.checkpoints[k].emitted > i }) - 1
	if k < 0 {
		k = 0
	}
	s := h.checkpoints[k].state.Clone()
	for s.Emitted() <= i {
		if !s.Step() {
			break
		}
	}
	return s, true
}
