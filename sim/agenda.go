package sim

// Agenda holds the wake-ups still to come. Pop returns them in order of
// time; wake-ups for the same time come out in the order they were pushed,
// which is what makes the order of simultaneous actors well defined.
//
// The payload type T should be a small value (ids and a kind), so that
// cloning an agenda for a snapshot is a plain copy.
type Agenda[T any] struct {
	items []agendaItem[T]
	seq   uint64
}

type agendaItem[T any] struct {
	at  Time
	seq uint64
	val T
}

// Len reports the number of pending wake-ups.
func (a *Agenda[T]) Len() int { return len(a.items) }

// Push schedules val at time at.
func (a *Agenda[T]) Push(at Time, val T) {
	a.seq++
	a.items = append(a.items, agendaItem[T]{at: at, seq: a.seq, val: val})
	a.up(len(a.items) - 1)
}

// Peek returns the earliest wake-up without removing it.
func (a *Agenda[T]) Peek() (Time, T, bool) {
	if len(a.items) == 0 {
		var zero T
		return 0, zero, false
	}
	return a.items[0].at, a.items[0].val, true
}

// Pop removes and returns the earliest wake-up.
func (a *Agenda[T]) Pop() (Time, T, bool) {
	if len(a.items) == 0 {
		var zero T
		return 0, zero, false
	}
	top := a.items[0]
	last := len(a.items) - 1
	a.items[0] = a.items[last]
	a.items = a.items[:last]
	if last > 0 {
		a.down(0)
	}
	return top.at, top.val, true
}

// Each calls f for every pending wake-up in no particular order. It is for
// inspection (what is pending for an actor), not for deciding anything.
func (a *Agenda[T]) Each(f func(at Time, val T)) {
	for _, it := range a.items {
		f(it.at, it.val)
	}
}

// Clone returns an independent copy.
func (a *Agenda[T]) Clone() Agenda[T] {
	return Agenda[T]{items: append([]agendaItem[T](nil), a.items...), seq: a.seq}
}

func (a *Agenda[T]) less(i, j int) bool {
	x, y := &a.items[i], &a.items[j]
	if x.at != y.at {
		return x.at < y.at
	}
	return x.seq < y.seq
}

func (a *Agenda[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !a.less(i, parent) {
			return
		}
		a.items[i], a.items[parent] = a.items[parent], a.items[i]
		i = parent
	}
}

func (a *Agenda[T]) down(i int) {
	n := len(a.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		small := l
		if r := l + 1; r < n && a.less(r, l) {
			small = r
		}
		if !a.less(small, i) {
			return
		}
		a.items[i], a.items[small] = a.items[small], a.items[i]
		i = small
	}
}
