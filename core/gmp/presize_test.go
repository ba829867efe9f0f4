package gmp

import (
	"runtime"
	"testing"
	"time"
)

func TestGoroutinesIn(t *testing.T) {
	work := []Op{cpu(time.Microsecond)}
	for _, c := range []struct {
		ops  []Op
		want int
	}{
		{[]Op{goN(1000, work...)}, 1000},
		{[]Op{loop(3, goN(10, goN(2, work...)), waitKids())}, 3 * 10 * (1 + 2)},
		{[]Op{{Kind: OpGroup, Count: 5, Body: []Op{goN(1, work...)}}}, 5 * 2},
		{[]Op{goN(0, work...), loop(0, goN(5))}, 0},
		{[]Op{loop(1<<30, goN(1<<30))}, maxPresizedIDs},
	} {
		if got := goroutinesIn(c.ops, maxPresizedIDs); got != c.want {
			t.Errorf("goroutinesIn(%v) = %d, want %d", c.ops, got, c.want)
		}
	}
}

// Once a run's tables have grown (descriptors, free lists, timer heaps,
// run queues), its steps allocate nothing, though every goroutine takes
// a new id: the ids' records were reserved by New from the program.
//
// The count is the whole process's, and the runtime allocates now and then
// on its own (a finalizer that a collection queued runs on its goroutine).
// The model is deterministic, so an allocation of its own happens in every
// run: the test passes if any of three identical runs allocates nothing.
func TestStepsDoNotAllocateOnceGrown(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of 600k events")
	}
	prog := &Program{Main: []Op{
		loop(50, goN(2000, cpu(50*time.Microsecond), sleep(time.Millisecond), cpu(50*time.Microsecond)), waitKids()),
	}}
	var counts []uint64
	for range 3 {
		m, err := New(Config{Procs: 8, Seed: 1, Costs: DefaultCosts(), MaxEvents: 1 << 40}, prog)
		if err != nil {
			t.Fatal(err)
		}
		for m.NumG() < 10*2000 && m.Step() { // the first ten rounds grow the tables
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for m.Step() {
		}
		runtime.ReadMemStats(&after)
		if m.End().Reason != MainReturned {
			t.Fatalf("run ended with %v", m.End())
		}
		n := after.Mallocs - before.Mallocs
		if n == 0 {
			return
		}
		counts = append(counts, n)
	}
	t.Errorf("three identical runs each allocated after their tables had grown: %v allocations", counts)
}
