package tui

import (
	"slices"
	"sort"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// eventLog holds a run's events in chunks, only the most recently used of
// them in memory. A chunk that was let go is made again when it is needed
// by replaying the run from the checkpoint before it: determinism gives
// the same events. So a session's memory does not grow with the length of
// its run (the UI's part of keeping every run under 500 MB), and a chunk
// comes back in the time it takes to replay one.
type eventLog struct {
	chunks      []*eventChunk
	n           int   // events recorded
	lru         []int // closed chunks in memory, least recently used first
	maxResident int
	chunkSize   int
	// regen replays the run's events [start, end), with each event's step.
	regen func(start, end int) ([]gmp.Event, []uint64)
	// regenerated counts chunks made again (for tests and reports).
	regenerated int
}

// eventChunk is a run of consecutive events that starts a step: a chunk
// never splits a step, so its first event's state is a checkpointed one.
type eventChunk struct {
	start, n int
	firstT   sim.Time
	events   []gmp.Event // nil while let go
	steps    []uint64
	// carry is each P's open timeline segment when the chunk starts (G
	// NoG for none), from which its part of the timeline is drawn.
	carry []Segment
}

// Defaults: chunks of 64Ki events, 16 in memory besides the first (about
// 130 MB of events).
const (
	chunkEvents    = 1 << 16
	residentChunks = 16
)

func newEventLog(regen func(start, end int) ([]gmp.Event, []uint64)) *eventLog {
	return &eventLog{maxResident: residentChunks, chunkSize: chunkEvents, regen: regen}
}

// add records the run's next event, emitted by step; carry gives the
// timeline's open segments, asked for only when a chunk begins.
func (l *eventLog) add(e gmp.Event, step uint64, carry func() []Segment) {
	tail := l.tail()
	if tail == nil || tail.n >= l.chunkSize && tail.steps[tail.n-1] != step {
		// The first chunk stays: it holds the events the machine emits
		// when it is made, which no replay from a checkpoint emits again.
		if tail != nil && len(l.chunks) > 1 {
			l.lru = append(l.lru, len(l.chunks)-1)
			l.evict()
		}
		tail = &eventChunk{start: l.n, firstT: e.T, carry: carry(),
			events: make([]gmp.Event, 0, l.chunkSize), steps: make([]uint64, 0, l.chunkSize)}
		l.chunks = append(l.chunks, tail)
	}
	tail.events = append(tail.events, e)
	tail.steps = append(tail.steps, step)
	tail.n++
	l.n++
}

func (l *eventLog) tail() *eventChunk {
	if len(l.chunks) == 0 {
		return nil
	}
	return l.chunks[len(l.chunks)-1]
}

// chunkOf returns the index of the chunk holding event i.
func (l *eventLog) chunkOf(i int) int {
	return sort.Search(len(l.chunks), func(k int) bool { return l.chunks[k].start > i }) - 1
}

// chunk returns chunk k with its events in memory.
func (l *eventLog) chunk(k int) *eventChunk {
	c := l.chunks[k]
	if k == 0 || k == len(l.chunks)-1 {
		return c // the first and the tail are always in memory
	}
	if c.events == nil {
		c.events, c.steps = l.regen(c.start, c.start+c.n)
		l.regenerated++
		l.lru = append(l.lru, k)
		l.evict()
		return c
	}
	// Used: to the back of the line.
	if j := slices.Index(l.lru, k); j >= 0 && j != len(l.lru)-1 {
		l.lru = append(slices.Delete(l.lru, j, j+1), k)
	}
	return c
}

// evict lets go of the least recently used chunks beyond the limit.
func (l *eventLog) evict() {
	for len(l.lru) > l.maxResident-1 { // the tail takes one place
		c := l.chunks[l.lru[0]]
		c.events, c.steps = nil, nil
		l.lru = l.lru[1:]
	}
}

// at returns event i.
func (l *eventLog) at(i int) gmp.Event {
	c := l.chunk(l.chunkOf(i))
	return c.events[i-c.start]
}

// step returns the step that emitted event i.
func (l *eventLog) step(i int) uint64 {
	c := l.chunk(l.chunkOf(i))
	return c.steps[i-c.start]
}

// startAt returns the chunk whose events cover time t: the last that
// begins at or before it.
func (l *eventLog) startAt(t sim.Time) int {
	k := sort.Search(len(l.chunks), func(k int) bool { return l.chunks[k].firstT > t }) - 1
	return max(k, 0)
}

// resident counts the chunks in memory.
func (l *eventLog) resident() int {
	n := 0
	for _, c := range l.chunks {
		if c.events != nil {
			n++
		}
	}
	return n
}
