package gmp

import (
	"slices"
	"testing"
	"testing/quick"
	"unsafe"
)

// The ring and the global queue against plain slices: any sequence of
// operations leaves them holding the same Gs in the same order.
func TestRingAgainstSlice(t *testing.T) {
	f := func(ops []uint8) bool {
		var r ring
		var ref []GID
		next := GID(1)
		for _, op := range ops {
			switch op % 4 {
			case 0, 1: // push, when there is room
				if len(ref) < runqSize {
					r.push(next)
					ref = append(ref, next)
					next++
				}
			case 2: // pop
				if len(ref) > 0 {
					if r.pop() != ref[0] {
						return false
					}
					ref = ref[1:]
				}
			case 3: // push a burst, as a go loop does
				for range int(op) % 40 {
					if len(ref) < runqSize {
						r.push(next)
						ref = append(ref, next)
						next++
					}
				}
			}
			if r.len() != len(ref) || r.full() != (len(ref) == runqSize) || !slices.Equal(r.Items(), ref) {
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
		t.Fatal(err)
	}
}

func TestGlobalQueueAgainstSlice(t *testing.T) {
	f := func(ops []uint8) bool {
		var q gqueue
		var ref []GID
		next := GID(1)
		for _, op := range ops {
			if op%3 != 0 {
				for range int(op%7) + 1 {
					q.pushBack(next)
					ref = append(ref, next)
					next++
				}
			} else {
				for range int(op % 11) {
					if len(ref) == 0 {
						break
					}
					if q.pop() != ref[0] {
						return false
					}
					ref = ref[1:]
				}
			}
			c := q.clone()
			if q.len() != len(ref) || !slices.Equal(q.Items(), ref) || !slices.Equal(c.Items(), ref) {
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
		t.Fatal(err)
	}
}

// runqput/runqputslow against a naive model of R2.3-R2.5: a runnext slot,
// a FIFO of at most 256, and overflow of the oldest 128 plus the kicked G.
func TestRunqputAgainstNaiveModel(t *testing.T) {
	f := func(nexts []bool) bool {
		m := &Machine{ps: []P{{ID: 0, M: NoM}}}
		m.gs.reserveG0()
		pp := &m.ps[0]
		var runnext GID
		var ring, global []GID
		for i, next := range nexts {
			id := GID(i + 1)
			m.gs.add(G{Desc: m.gs.newDesc()}, 0)
			m.runqput(pp, id, next)
			put := id
			if next {
				put, runnext = runnext, id
			}
			if put != NoG {
				if len(ring) == runqSize {
					global = append(global, ring[:128]...)
					global = append(global, put)
					ring = append([]GID(nil), ring[128:]...)
				} else {
					ring = append(ring, put)
				}
			}
			if pp.Runnext != runnext || !slices.Equal(pp.Runq(), ring) || !slices.Equal(m.Sched().Runq(), global) {
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 300, MaxCountScale: 0}); err != nil {
		t.Fatal(err)
	}
	// quick's random slices are short; run one long sequence too.
	long := make([]bool, 1000)
	for i := range long {
		long[i] = i%3 != 0
	}
	if !f(long) {
		t.Fatal("a 1000-put sequence diverged from the naive model")
	}
}

// globrunqgetbatch takes min(128, len, len/GOMAXPROCS+1).
func TestGlobrunqgetbatchSize(t *testing.T) {
	cases := []struct{ procs, queued, want int }{
		{1, 300, 128}, {4, 100, 26}, {4, 3, 1}, {2, 5, 3}, {8, 1, 1}, {1, 7, 7},
	}
	for _, c := range cases {
		m := &Machine{ps: make([]P, c.procs)}
		m.gs.reserveG0()
		for i := 1; i <= c.queued; i++ {
			m.gs.add(G{Desc: m.gs.newDesc()}, 0)
			m.globrunqput(GID(i))
		}
		pk := m.globrunqgetbatch(&m.ps[0], RuleGlobalBatch)
		if pk.n != c.want || pk.g != 1 || m.ps[0].runq.len() != c.want-1 || m.sched.runq.len() != c.queued-c.want {
			t.Errorf("procs=%d queued=%d: took %d (first %v, ring %d, left %d), want %d",
				c.procs, c.queued, pk.n, pk.g, m.ps[0].runq.len(), m.sched.runq.len(), c.want)
		}
		if got := m.ps[0].Runq(); len(got) > 0 && got[0] != 2 {
			t.Errorf("ring starts with %v, want G2: order is kept", got[0])
		}
	}
}

// The steal order visits every P exactly once, for every start value.
func TestRandomOrderVisitsEachPOnce(t *testing.T) {
	for count := 1; count <= 12; count++ {
		o := newRandomOrder(count)
		for r := uint32(0); r < 500; r++ {
			seen := make([]int, count)
			for e := o.start(r * 2654435761); !e.done(); e.next() {
				seen[e.pos]++
			}
			for p, n := range seen {
				if n != 1 {
					t.Fatalf("count=%d r=%d: P%d visited %d times", count, r, p, n)
				}
			}
		}
	}
}

// G is laid out in two cache lines (see its comment); a field added
// carelessly would push it over and slow every large run.
func TestGLayout(t *testing.T) {
	if size := unsafe.Sizeof(G{}); size != 128 {
		t.Errorf("G is %d bytes, want 128", size)
	}
	// The first two frames, which nextOp reads on every run of a G, are
	// in the first cache line, with the fields the scheduler reads.
	if end := unsafe.Offsetof(G{}.frames) + 2*unsafe.Sizeof(frame{}); end > 64 {
		t.Errorf("the first two frames end at byte %d, past the first cache line", end)
	}
	if off := unsafe.Offsetof(G{}.RunStart); off != 96 {
		t.Errorf("the fields after the frames start at byte %d, want 96", off)
	}
}
