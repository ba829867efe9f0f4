package sim

import "math/bits"

// Agenda holds the wake-ups still to come. Pop returns them in order of
// time; wake-ups for the same time come out in the order they were pushed,
// which is what makes the order of simultaneous actors well defined.
//
// The payload type T should be a small value (ids and a kind), so that
// cloning an agenda for a snapshot is a plain copy.
//
// Nearly every wake-up a simulation step pushes is due within a few
// microseconds of the one it popped (an M's next step after a small
// cost), so those go to a calendar ring: buckets of ringWidth ns each,
// covering the ringSize buckets from the last popped time on, each bucket
// a list kept in (time, push order). Pushing appends to a short list and
// popping takes the head of the first bucket a bitmap shows non-empty,
// where a binary heap of some fifty wake-ups moved each one down about
// four levels, comparing two items a level. Wake-ups further out, or
// before the last popped one, go to a heap, far. The ring and the heap
// give the same order: Pop takes the earlier of their two heads, and
// every (time, push order) pair is distinct.
//
// The heap's Pop leaves the popped item in place, marked as a hole, and
// the next Push to the heap fills the hole with a single sift-down instead
// of the two sifts a removal and an insertion cost. Every other method
// removes the hole first, so the trick cannot be observed.
type Agenda[T any] struct {
	items []agendaItem[T] // far: a binary heap
	seq   uint64
	hole  bool // items[0] was popped and awaits replacement

	// The ring: heads[b] is the first node of bucket b plus one (0: the
	// bucket is empty), full has bit b set when it is not, and nodes
	// holds every node, the unused ones on a list from free (plus one).
	// base is the latest popped time: the ring holds wake-ups from
	// base's bucket to ringSize-1 buckets after it, so a circular scan
	// from base's bucket meets them in order of time.
	heads [ringSize]int32
	full  [ringSize / 64]uint64
	nodes []agendaNode[T]
	free  int32
	base  Time
	near  int // wake-ups in the ring
}

// The ring covers ringSize buckets of 1<<ringShift ns: 65µs, past the
// costs of one step in the model (at most tens of microseconds).
const (
	ringShift = 8
	ringSize  = 256
)

type agendaItem[T any] struct {
	at  Time
	seq uint64
	val T
}

type agendaNode[T any] struct {
	agendaItem[T]
	next int32 // the next node in the bucket plus one, or 0
}

// Len reports the number of pending wake-ups.
func (a *Agenda[T]) Len() int {
	n := len(a.items) + a.near
	if a.hole {
		n--
	}
	return n
}

// Push schedules val at time at.
//
// The node is written field by field where it lies, not made apart and
// copied in, and the usual case, an empty bucket, links it without the
// walk: Push runs about once a step, and these were a third of its
// instructions.
func (a *Agenda[T]) Push(at Time, val T) {
	a.seq++
	// In the ring if its bucket is base's or one of the ringSize-1 after
	// (before base's, the difference wraps to a huge number). One before
	// base in base's bucket is in order there too.
	if uint64(at>>ringShift-a.base>>ringShift) >= ringSize {
		a.pushFar(agendaItem[T]{at: at, seq: a.seq, val: val})
		return
	}
	// A node, from the free list or new.
	n := a.free - 1
	if n < 0 {
		n = a.newNode()
	}
	nodes := a.nodes
	nd := &nodes[n]
	a.free = nd.next // 0 for a new node, which left the list empty
	nd.at, nd.seq, nd.val = at, a.seq, val
	a.near++
	b := int(at>>ringShift) & (ringSize - 1)
	link := &a.heads[b]
	if *link == 0 {
		a.full[b>>6] |= 1 << (b & 63)
		nd.next = 0
		*link = n + 1
		return
	}
	// The bucket's list is walked past the wake-ups due no later, which
	// were pushed before.
	for *link != 0 && nodes[*link-1].at <= at {
		link = &nodes[*link-1].next
	}
	nd.next = *link
	*link = n + 1
}

// newNode adds a node to the ring's store, with the free list empty, and
// returns its index.
func (a *Agenda[T]) newNode() int32 {
	a.nodes = append(a.nodes, agendaNode[T]{})
	return int32(len(a.nodes) - 1)
}

// pushFar puts it on the heap.
func (a *Agenda[T]) pushFar(it agendaItem[T]) {
	if a.hole {
		a.hole = false
		a.down(0, it)
		return
	}
	a.items = append(a.items, it)
	a.up(len(a.items)-1, it)
}

// firstNear returns the bucket holding the ring's earliest wake-up; the
// ring must not be empty. It is nearly always in base's word of the
// bitmap; the rest of the scan is apart. PopBy has its own copy.
func (a *Agenda[T]) firstNear() int {
	b := int(a.base>>ringShift) & (ringSize - 1)
	if m := a.full[b>>6] >> (b & 63); m != 0 {
		return b + bits.TrailingZeros64(m)
	}
	return a.firstNearWrapped(b >> 6)
}

// firstNearWrapped is kept out of line: PopBy's copy of firstNear is
// the word test alone, with this as its rare call.
//
//go:noinline
func (a *Agenda[T]) firstNearWrapped(w int) int {
	for i := 1; i <= len(a.full); i++ {
		j := (w + i) % len(a.full)
		if m := a.full[j]; m != 0 {
			return j<<6 + bits.TrailingZeros64(m)
		}
	}
	panic("sim: the agenda's ring is empty")
}

// fillHole removes the popped item still at the top, if there is one.
// It is apart from removeHole so that the compiler inlines the test into
// Peek and PopBy, which run on every step and mostly find no hole.
func (a *Agenda[T]) fillHole() {
	if a.hole {
		a.removeHole()
	}
}

func (a *Agenda[T]) removeHole() {
	a.hole = false
	last := len(a.items) - 1
	it := a.items[last]
	a.items = a.items[:last]
	if last > 0 {
		a.down(0, it)
	}
}

// Peek returns the earliest wake-up without removing it.
func (a *Agenda[T]) Peek() (Time, T, bool) {
	a.fillHole()
	if a.near > 0 {
		nd := &a.nodes[a.heads[a.firstNear()]-1]
		if len(a.items) == 0 || nd.before(&a.items[0]) {
			return nd.at, nd.val, true
		}
	}
	if len(a.items) == 0 {
		var zero T
		return 0, zero, false
	}
	return a.items[0].at, a.items[0].val, true
}

// Pop removes and returns the earliest wake-up.
func (a *Agenda[T]) Pop() (Time, T, bool) {
	return a.PopBy(maxTime)
}

// maxTime is the latest Time there is.
const maxTime = Time(1<<63 - 1)

// PopBy removes and returns the earliest wake-up if it is due at or
// before limit, and otherwise removes nothing and reports false (Peek
// then says whether the agenda is empty or its first wake-up is later).
// A simulation step takes its wake-up unless the run stops first: one
// call that looks and takes costs a step less than a Peek and a Pop.
func (a *Agenda[T]) PopBy(limit Time) (Time, T, bool) {
	var zero T
	a.fillHole()
	if a.near > 0 {
		// firstNear, written out: with its rare case a call, the
		// compiler counts it too big to inline, and it was a call on
		// every step.
		b := int(a.base>>ringShift) & (ringSize - 1)
		if m := a.full[b>>6] >> (b & 63); m != 0 {
			b += bits.TrailingZeros64(m)
		} else {
			b = a.firstNearWrapped(b >> 6)
		}
		n := a.heads[b] - 1
		nd := &a.nodes[n]
		if len(a.items) == 0 || nd.before(&a.items[0]) {
			if nd.at > limit {
				return 0, zero, false
			}
			// Only a wake-up pushed before base in base's bucket
			// is before base, and then base stays in its bucket.
			a.base = nd.at
			a.heads[b] = nd.next
			if nd.next == 0 {
				a.full[b>>6] &^= 1 << (b & 63)
			}
			nd.next = a.free
			a.free = n + 1
			a.near--
			return nd.at, nd.val, true
		}
	}
	if len(a.items) == 0 || a.items[0].at > limit {
		return 0, zero, false
	}
	top := &a.items[0]
	if top.at > a.base {
		a.base = top.at
	}
	a.hole = true
	return top.at, top.val, true
}

// Each calls f for every pending wake-up in no particular order. It is for
// inspection (what is pending for an actor), not for deciding anything.
func (a *Agenda[T]) Each(f func(at Time, val T)) {
	items := a.items
	if a.hole {
		items = items[1:]
	}
	for _, it := range items {
		f(it.at, it.val)
	}
	for _, h := range a.heads {
		for n := h; n != 0; n = a.nodes[n-1].next {
			f(a.nodes[n-1].at, a.nodes[n-1].val)
		}
	}
}

// Clone returns an independent copy. It leaves a untouched, so that
// clones of one checkpoint may be taken from several goroutines.
func (a *Agenda[T]) Clone() Agenda[T] {
	c := *a
	c.items = append([]agendaItem[T](nil), a.items...)
	c.nodes = append([]agendaNode[T](nil), a.nodes...)
	c.fillHole()
	return c
}

func (x *agendaItem[T]) before(y *agendaItem[T]) bool {
	if x.at != y.at {
		return x.at < y.at
	}
	return x.seq < y.seq
}

// up and down move a hole rather than swapping items: each item on the
// path is copied once, and the item being placed is written only at the
// end. The agenda sits on the simulation's hottest path (one pop and about
// one push per step), so this is worth the few extra lines. down takes
// the item to place as an argument rather than reading it back from the
// hole: a read of 32 bytes just stored cost a twentieth of a whole run's
// time (the processor cannot always forward a store to a load of another
// width, and then the load waits for the store to reach the cache).
// up places it at hole i, or above it.
func (a *Agenda[T]) up(i int, it agendaItem[T]) {
	items := a.items
	for i > 0 {
		parent := (i - 1) / 2
		if !it.before(&items[parent]) {
			break
		}
		items[i] = items[parent]
		i = parent
	}
	items[i] = it
}

// down places it at hole i, or below it.
func (a *Agenda[T]) down(i int, it agendaItem[T]) {
	items := a.items
	n := len(items)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		small := l
		if r := l + 1; r < n {
			// Branch-free: which child is earlier is a coin toss the
			// CPU cannot predict.
			small += b2i(items[r].before(&items[l]))
		}
		if !items[small].before(&it) {
			break
		}
		items[i] = items[small]
		i = small
	}
	items[i] = it
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
