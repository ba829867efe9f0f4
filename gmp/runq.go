package gmp

// runqSize is the capacity of a P's local run queue (runtime2.go: runq [256]guintptr).
const runqSize = 256

// ring is a P's local run queue: a fixed array indexed by free-running
// head and tail counters, exactly like p.runq/runqhead/runqtail. The
// number of Gs is tail-head; the slot of index i is i%256.
type ring struct {
	buf        [runqSize]GID
	head, tail uint32
	peak       uint32 // the most Gs it has held, for comparisons
}

func (r *ring) len() int { return int(r.tail - r.head) }

func (r *ring) full() bool { return r.len() == runqSize }

// push appends g at the tail. The caller has checked there is room.
func (r *ring) push(g GID) {
	r.buf[r.tail%runqSize] = g
	r.tail++
	r.peak = max(r.peak, r.tail-r.head)
}

// pop removes the G at the head.
func (r *ring) pop() GID {
	g := r.buf[r.head%runqSize]
	r.buf[r.head%runqSize] = NoG
	r.head++
	return g
}

// at returns the i-th G from the head.
func (r *ring) at(i int) GID { return r.buf[(r.head+uint32(i))%runqSize] }

// Items returns the queued Gs from head to tail.
func (r *ring) Items() []GID {
	out := make([]GID, r.len())
	for i := range out {
		out[i] = r.at(i)
	}
	return out
}

// gqueue is the global run queue (sched.runq): an unbounded FIFO. It is a
// slice with a moving head, compacted when the dead prefix dominates, so
// that pushes and pops are O(1) amortised and a clone copies only live Gs.
type gqueue struct {
	items []GID
	head  int
	peak  int // the most Gs it has held, for comparisons
}

func (q *gqueue) len() int { return len(q.items) - q.head }

func (q *gqueue) pushBack(g GID) {
	q.items = append(q.items, g)
	q.peak = max(q.peak, len(q.items)-q.head)
}

func (q *gqueue) pop() GID {
	g := q.items[q.head]
	q.head++
	if q.head > 64 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		q.items = q.items[:n]
		q.head = 0
	}
	return g
}

func (q *gqueue) at(i int) GID { return q.items[q.head+i] }

func (q *gqueue) clone() gqueue {
	return gqueue{items: append([]GID(nil), q.items[q.head:]...), peak: q.peak}
}

// Items returns the queued Gs from head to tail.
func (q *gqueue) Items() []GID { return append([]GID(nil), q.items[q.head:]...) }
