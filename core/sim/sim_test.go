package sim

import (
	"sort"
	"testing"
	"testing/quick"
	"time"
)

func TestAgendaOrdersByTimeThenPushOrder(t *testing.T) {
	var a Agenda[string]
	a.Push(30, "c")
	a.Push(10, "a1")
	a.Push(20, "b")
	a.Push(10, "a2")
	a.Push(10, "a3")
	var got []string
	for a.Len() > 0 {
		_, v, _ := a.Pop()
		got = append(got, v)
	}
	want := []string{"a1", "a2", "a3", "b", "c"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// The heap must agree with a stable sort of the same pushes.
func TestAgendaAgainstStableSort(t *testing.T) {
	f := func(times []uint8) bool {
		var a Agenda[int]
		type pushed struct {
			at Time
			i  int
		}
		var ref []pushed
		for i, x := range times {
			a.Push(Time(x%16), i)
			ref = append(ref, pushed{Time(x % 16), i})
		}
		sort.SliceStable(ref, func(i, j int) bool { return ref[i].at < ref[j].at })
		for _, r := range ref {
			at, v, ok := a.Pop()
			if !ok || at != r.at || v != r.i {
				return false
			}
		}
		return a.Len() == 0
	}
	if err := quick.Check(f, nil); err != nil {
		t.Fatal(err)
	}
}

// Interleaved pushes, pops, peeks, PopBys and clones must agree with a naive
// list kept in (time, push order), whatever state the ring and the heap
// are in when each operation arrives (Pop leaves a hole in the heap that
// the next Push fills).
func TestAgendaInterleavedAgainstNaiveList(t *testing.T) {
	type item struct {
		at  Time
		seq int
	}
	f := func(ops []uint16) bool {
		var a Agenda[int]
		var ref []item // sorted by (at, seq)
		seq := 0
		// last is the time of the last wake-up taken: pushes land near
		// it (the same time, the same ring bucket, across a bucket's
		// edge), past the ring, or before it, so that every path of
		// the ring and the heap is taken.
		var last Time
		const span = ringSize << ringShift
		spread := []Time{0, 0, 1, 7, 255, 256, 257, 1000, span - 1, span, span + 300, 5 * span, -3}
		popRef := func() item {
			it := ref[0]
			ref = ref[1:]
			last = it.at
			return it
		}
		for _, op := range ops {
			switch op % 5 {
			case 0, 1: // push
				seq++
				at := last + spread[int(op/5)%len(spread)]
				a.Push(at, seq)
				i := sort.Search(len(ref), func(i int) bool { return ref[i].at > at })
				ref = append(ref[:i], append([]item{{at, seq}}, ref[i:]...)...)
			case 2: // pop
				at, v, ok := a.Pop()
				if ok != (len(ref) > 0) {
					return false
				}
				if ok {
					if r := popRef(); r.at != at || r.seq != v {
						return false
					}
				}
			case 3: // peek, and every other time take what it saw if due by a limit (PopBy)
				at, v, ok := a.Peek()
				if ok != (len(ref) > 0) || ok && (ref[0].at != at || ref[0].seq != v) {
					return false
				}
				if op/5%2 == 1 {
					// The limit is the first wake-up's time, a
					// moment before it, or after it.
					limit := at + Time(op/10%3) - 1
					bat, bv, due := a.PopBy(limit)
					if due != (ok && at <= limit) || due && (bat != at || bv != v) {
						return false
					}
					if due {
						popRef()
					}
				}
			case 4: // a clone drains to the same order and leaves a alone
				c := a.Clone()
				if c.Len() != len(ref) {
					return false
				}
				for _, r := range ref {
					at, v, ok := c.Pop()
					if !ok || at != r.at || v != r.seq {
						return false
					}
				}
			}
			if a.Len() != len(ref) {
				return false
			}
			n := 0
			a.Each(func(Time, int) { n++ })
			if n != len(ref) {
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
		t.Fatal(err)
	}
}

func TestAgendaCloneIsIndependent(t *testing.T) {
	var a Agenda[int]
	a.Push(5, 1)
	b := a.Clone()
	a.Push(1, 2)
	if b.Len() != 1 {
		t.Fatalf("clone saw a later push: len %d", b.Len())
	}
	at, v, _ := b.Pop()
	if at != 5 || v != 1 {
		t.Fatalf("clone popped (%v,%v)", at, v)
	}
}

func TestRandIsReproducibleAndCopyable(t *testing.T) {
	a := NewRand(42)
	b := NewRand(42)
	for range 100 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("equal seeds diverged")
		}
	}
	c := a // a snapshot is a copy
	x, y := a.Uint64(), c.Uint64()
	if x != y {
		t.Fatal("copied generator diverged")
	}
	d, e := NewRand(43), NewRand(42)
	if e.Uint64() == d.Uint64() {
		t.Fatal("different seeds gave the same first value")
	}
}

func TestRandInt63nStaysInRangeAndCoversIt(t *testing.T) {
	r := NewRand(1)
	seen := make([]int, 7)
	for range 7000 {
		v := r.Int63n(7)
		if v < 0 || v >= 7 {
			t.Fatalf("Int63n(7) = %d", v)
		}
		seen[v]++
	}
	for v, n := range seen {
		if n < 800 || n > 1200 {
			t.Errorf("value %d drawn %d times out of 7000; expected about 1000", v, n)
		}
	}
}

func TestRandExpHasMeanOne(t *testing.T) {
	r := NewRand(7)
	sum := 0.0
	const n = 20000
	for range n {
		v := r.ExpFloat64()
		if v < 0 {
			t.Fatalf("negative exponential draw %v", v)
		}
		sum += v
	}
	if mean := sum / n; mean < 0.97 || mean > 1.03 {
		t.Fatalf("mean of exponential draws = %v, want about 1", mean)
	}
}

func TestFormatMillis(t *testing.T) {
	cases := map[time.Duration]string{
		0:                          "0.000000ms",
		20 * time.Microsecond:      "0.020000ms",
		1500 * time.Microsecond:    "1.500000ms",
		12*time.Second + 7:         "12000.000007ms",
		-3 * time.Microsecond:      "-0.003000ms",
		time.Duration(20_130_000):  "20.130000ms",
		time.Duration(123_456_789): "123.456789ms",
	}
	for d, want := range cases {
		if got := FormatMillis(d); got != want {
			t.Errorf("FormatMillis(%d) = %q, want %q", d, got, want)
		}
	}
}

// counter is a toy model: each step emits step%3 events, and its state is
// the running total, so a replay can be compared with the first run.
type counter struct {
	step, emitted, limit int
	sink                 *[]int
}

func (c *counter) Clone() *counter { cp := *c; cp.sink = nil; return &cp }
func (c *counter) Emitted() int    { return c.emitted }
func (c *counter) Step() bool {
	if c.step >= c.limit {
		return false
	}
	for range c.step % 3 {
		if c.sink != nil {
			*c.sink = append(*c.sink, c.step)
		}
		c.emitted++
	}
	c.step++
	return c.step < c.limit
}

func TestHistoryReplaysToEveryEvent(t *testing.T) {
	var log []int
	h := NewHistory(&counter{limit: 500, sink: &log}, 16)
	h.Extend(1 << 30)
	if !h.Done() {
		t.Fatal("history did not reach the end")
	}
	if h.Checkpoints() < 10 {
		t.Fatalf("only %d checkpoints for %d events", h.Checkpoints(), len(log))
	}
	// Visit events in a scrambled order, as a viewer stepping back and forth would.
	for _, i := range []int{len(log) - 1, 0, 17, 3, len(log) / 2, 1, len(log) - 2} {
		s, ok := h.At(i)
		if !ok {
			t.Fatalf("At(%d) not found", i)
		}
		// After the step that emitted event i, the last step run is log[i].
		if s.step-1 != log[i] {
			t.Fatalf("At(%d): state after step %d, want after step %d", i, s.step-1, log[i])
		}
		if s.emitted <= i {
			t.Fatalf("At(%d): only %d events emitted", i, s.emitted)
		}
	}
	if _, ok := h.At(len(log)); ok {
		t.Fatal("At past the end succeeded")
	}
	// Steps 1,4,…,499 emit one event each (167) and 2,5,…,497 two (166).
	if len(log) != 167+2*166 {
		t.Fatalf("log has %d events, want %d", len(log), 167+2*166)
	}
}

// weighted is counter with a Weight: History spaces its checkpoints at
// least that far apart.
type weighted struct{ *counter }

func (w weighted) Clone() weighted { return weighted{w.counter.Clone()} }
func (w weighted) Weight() int     { return 100 }

func TestHistorySpacesCheckpointsByWeight(t *testing.T) {
	var log []int
	h := NewHistory(weighted{&counter{limit: 3000, sink: &log}}, 16)
	h.Extend(1 << 30)
	// About 3000 events in all: with every 16 that would be ~190
	// checkpoints, with every 100 about 30.
	if n := h.Checkpoints(); n < 20 || n > 35 {
		t.Fatalf("%d checkpoints for %d events at weight 100", n, len(log))
	}
	for _, i := range []int{len(log) - 1, 5, len(log) / 2} {
		s, ok := h.At(i)
		if !ok || s.step-1 != log[i] {
			t.Fatalf("At(%d) wrong with weighted spacing", i)
		}
	}
}

// A long run keeps at most MaxCheckpoints checkpoints, thinned as it
// grows, and every event is still reached.
func TestHistoryThinsItsCheckpoints(t *testing.T) {
	var log []int
	h := NewHistory(&counter{limit: 200_000, sink: &log}, 16)
	h.Extend(1 << 30)
	// 200,000 steps emit about 200,000 events: every 16 would be 12,500
	// checkpoints.
	if n := h.Checkpoints(); n > MaxCheckpoints || n < MaxCheckpoints/4 {
		t.Fatalf("%d checkpoints for %d events, want at most %d and not far fewer", n, len(log), MaxCheckpoints)
	}
	for _, i := range []int{len(log) - 1, 0, 1, 99_999, len(log) / 3, 12_345} {
		s, ok := h.At(i)
		if !ok || s.step-1 != log[i] {
			t.Fatalf("At(%d) wrong after thinning", i)
		}
	}
}
