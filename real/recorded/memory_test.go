package recorded

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// heapInUse returns the bytes of live heap, after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestKeptStatesStayFewBytesAnEvent holds issue 22's fifth defect fixed:
// a run of a busy program's trace (about 4.5 events a goroutine, as
// go test -trace gives) and the states a viewer seeks to cost a few bytes
// an event and a goroutine beyond the events themselves. Cloning every
// goroutine ever seen every 2048 events cost events × goroutines / 2048
// entries of a map: for this run, 250 MB; for a real trace of 686k
// goroutines, more than the machine.
func TestKeptStatesStayFewBytesAnEvent(t *testing.T) {
	const events, gs, procs = 400_000, 90_000, 8
	evs := synthetic(7, events, gs, procs)
	before := heapInUse()
	r := New("test", procs, evs, describeKind(evs))
	rng := rand.New(rand.NewPCG(7, 3))
	// The states sought are let go, as a viewer does, but the last.
	for range 200 {
		r.StateAfter(rng.IntN(events))
	}
	s := r.StateAfter(events - 1)
	used := heapInUse() - before
	// The dense numbering costs 12 bytes a goroutine and 4 an event, the
	// kept states at most 8 + 6 bytes an event: 18 and 12, with room.
	bound := uint64(24*events + 24*gs + 1<<20)
	if used > bound {
		t.Errorf("a run of %d events over %d goroutines holds %d MB beyond its events; at most %d MB expected", events, gs, used>>20, bound>>20)
	}
	t.Logf("%d events over %d goroutines: %.1f MB beyond the events (%.1f bytes an event)", events, gs, float64(used)/(1<<20), float64(used)/events)
	runtime.KeepAlive(r)
	runtime.KeepAlive(s)
}

// TestASeekReplaysAtMostASpacing counts a seek's work rather than timing
// it: whatever the event, StateAfter replays at most the spacing of the
// goroutines' kept states and that of the Ps', and those are bounded by
// the run's size as the memory bound allows.
func TestASeekReplaysAtMostASpacing(t *testing.T) {
	const events, gs, procs = 300_000, 70_000, 4
	evs := synthetic(11, events, gs, procs)
	r := New("test", procs, evs, describeKind(evs))
	gEvery := max(checkpointEvery, len(r.gids)/marksPerGoroutine)
	pEvery := max(checkpointEvery, procMarkSpacing*procs)
	if r.gEvery != gEvery || r.procEvery != pEvery {
		t.Fatalf("spacings %d and %d, want %d and %d", r.gEvery, r.procEvery, gEvery, pEvery)
	}
	rng := rand.New(rand.NewPCG(11, 4))
	worst := 0
	for range 500 {
		_, n := r.stateAfter(rng.IntN(events+2) - 1)
		worst = max(worst, n)
	}
	if worst > gEvery+pEvery {
		t.Errorf("a seek replayed %d events; at most %d + %d expected", worst, gEvery, pEvery)
	}
	// Right before a kept state is the dearest seek.
	if _, n := r.stateAfter(gEvery - 2); n != gEvery-1+(gEvery-1)%pEvery {
		t.Errorf("the seek before the second kept state replayed %d events", n)
	}
}

// BenchmarkSeek seeks at random in a run the size of the longest a trace
// gives (MaxEvents) over as many goroutines as go test -trace of a busy
// test creates in that many events.
func BenchmarkSeek(b *testing.B) {
	const events, gs, procs = MaxEvents, 440_000, 8
	evs := synthetic(1, events, gs, procs)
	r := New("bench", procs, evs, describeKind(evs))
	rng := rand.New(rand.NewPCG(1, 5))
	b.ResetTimer()
	for b.Loop() {
		r.StateAfter(rng.IntN(events))
	}
}
