package sim

// Agenda holds the wake-ups still to come. Pop returns them in order of
// time; wake-ups for the same time come out in the order they were pushed,
// which is what makes the order of simultaneous actors well defined.
//
// The payload type T should be a small value (ids and a kind), so that
// cloning an agenda for a snapshot is a plain copy.
//
// A simulation step pops one wake-up and nearly always pushes one (the
// actor's next action), so Pop leaves the popped item in place, marked as
// a hole, and the next Push fills the hole with a single sift-down instead
// of the two sifts a removal and an insertion cost. Every other method
// removes the hole first, so the trick cannot be observed.
type Agenda[T any] struct {
	items []agendaItem[T]
	seq   uint64
	hole  bool // items[0] was popped and awaits replacement
}

type agendaItem[T any] struct {
	at  Time
	seq uint64
	val T
}

// Len reports the number of pending wake-ups.
func (a *Agenda[T]) Len() int {
	if a.hole {
		return len(a.items) - 1
	}
	return len(a.items)
}

// Push schedules val at time at.
func (a *Agenda[T]) Push(at Time, val T) {
	a.seq++
	it := agendaItem[T]{at: at, seq: a.seq, val: val}
	if a.hole {
		a.hole = false
		a.down(0, it)
		return
	}
	a.items = append(a.items, it)
	a.up(len(a.items)-1, it)
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
	if len(a.items) == 0 {
		var zero T
		return 0, zero, false
	}
	return a.items[0].at, a.items[0].val, true
}

// Pop removes and returns the earliest wake-up.
func (a *Agenda[T]) Pop() (Time, T, bool) {
	a.fillHole()
	if len(a.items) == 0 {
		var zero T
		return 0, zero, false
	}
	a.hole = true
	return a.items[0].at, a.items[0].val, true
}

// PopBy removes and returns the earliest wake-up if it is due at or
// before limit, and otherwise removes nothing and reports false (Peek
// then says whether the agenda is empty or its first wake-up is later).
// A simulation step takes its wake-up unless the run stops first: one
// call that looks and takes costs a step less than a Peek and a Pop.
func (a *Agenda[T]) PopBy(limit Time) (Time, T, bool) {
	a.fillHole()
	if len(a.items) == 0 || a.items[0].at > limit {
		var zero T
		return 0, zero, false
	}
	a.hole = true
	return a.items[0].at, a.items[0].val, true
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
}

// Clone returns an independent copy. It leaves a untouched, so that
// clones of one checkpoint may be taken from several goroutines.
func (a *Agenda[T]) Clone() Agenda[T] {
	c := Agenda[T]{items: append([]agendaItem[T](nil), a.items...), seq: a.seq, hole: a.hole}
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
