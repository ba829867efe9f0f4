package gmp

// The run queues: a P's 256-slot ring and runnext, the global queue, and
// the operations of proc.go on them (runqput, runqputslow, runqputbatch,
// globrunqput, runqget, globrunqgetbatch; docs/rules.md §2, §3).

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

// runqput puts g on pp's local queue (R2.3, R2.4): into runnext if next,
// kicking the old runnext to the tail; to the tail otherwise; and through
// runqputslow when the ring is full.
func (s *Machine) runqput(pp *P, gid GID, next bool) { s.runqputG(pp, s.g(gid), next) }

// runqputG is runqput of a G the caller holds (a go statement's new G, a
// readied one), which it does not look up again.
func (s *Machine) runqputG(pp *P, g *G, next bool) {
	gid := g.ID
	if next {
		old := pp.Runnext
		pp.Runnext = gid
		g.Where = at(LocRunnext, pp.ID)
		if old == NoG {
			s.noteQueue(pp)
			return
		}
		gid, g = old, nil // the G kicked out of runnext, looked up if it goes to the ring
	}
	if !pp.runq.full() {
		pp.runq.push(gid)
		if g == nil {
			g = s.g(gid)
		}
		g.Where = at(LocRunq, pp.ID)
		s.noteQueue(pp)
		return
	}
	s.kicked = gid // out of runnext, not yet in the global queue
	s.runqputslow(pp, gid)
	s.kicked = NoG
	s.noteQueue(pp)
}

// runqputslow moves the older half of a full ring (128 Gs) plus gid to the
// tail of the global queue, oldest first and gid last (R2.5).
func (s *Machine) runqputslow(pp *P, gid GID) {
	n := pp.runq.len() / 2
	s.emit(&Event{Kind: KindRunqOverflow, Rule: RuleRunqputslow, G: gid, P: pp.ID, M: pp.M,
		From: at(LocRunq, pp.ID), To: Loc{Kind: LocGlobal}, N: n + 1, N2: s.sched.runq.len() + n + 1})
	for range n {
		g := pp.runq.pop()
		s.globrunqput(g)
	}
	s.globrunqput(gid)
}

// runqputbatch moves n Gs from the head of q to pp's ring, as far as it
// has room; those that do not fit go back to the tail of the global queue.
// The runtime hands the batch over in a local gQueue; taking the Gs
// straight from q saves a slice on nearly every batch. Since q held at
// least n Gs, no pop reaches a G this puts back.
func (s *Machine) runqputbatch(pp *P, q *gqueue, n int) {
	for range n {
		g := q.pop()
		if pp.runq.full() {
			s.globrunqput(g)
			continue
		}
		pp.runq.push(g)
		s.g(g).Where = at(LocRunq, pp.ID)
	}
	s.noteQueue(pp)
}

func (s *Machine) globrunqput(gid GID) {
	s.sched.runq.pushBack(gid)
	s.g(gid).Where = Loc{Kind: LocGlobal}
}

// runqget takes runnext, which inherits the current time slice, or else
// the head of the ring (R3.3 step 7).
func (s *Machine) runqget(pp *P) (pick, bool) {
	if g := pp.Runnext; g != NoG {
		pp.Runnext = NoG
		s.noteQueue(pp)
		return pick{g: g, inherit: true, rule: RuleRunnext, from: at(LocRunnext, pp.ID)}, true
	}
	if pp.runq.len() > 0 {
		g := pp.runq.pop()
		s.noteQueue(pp)
		return pick{g: g, rule: RuleRunqHead, from: at(LocRunq, pp.ID)}, true
	}
	return pick{}, false
}

// globrunqgetbatch takes min(128, len, len/GOMAXPROCS+1) Gs from the
// global queue: the first is returned to run, the rest go to pp's ring
// (R3.3 step 8). The caller has checked the queue is not empty.
func (s *Machine) globrunqgetbatch(pp *P, rule Rule) pick {
	q := &s.sched.runq
	n := min(runqSize/2, q.len(), q.len()/len(s.ps)+1)
	first := q.pop()
	s.runqputbatch(pp, q, n-1) // the ring is empty here: all fit
	return pick{g: first, rule: rule, from: Loc{Kind: LocGlobal}, n: n}
}
