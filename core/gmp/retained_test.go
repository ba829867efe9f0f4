package gmp

import (
	"runtime"
	"testing"
	"time"
)

// A run keeps, for each goroutine it ever created, only what describes a
// dead goroutine (its parent, when it was created, its last descriptor);
// what only a live goroutine needs, its causes above all, lives in its
// descriptor's slot and is reused with it. A million short goroutines,
// a few alive at a time, leave at most 20 bytes each behind: issue 30's
// bound (the tables by goroutine id used to hold 36, 365 MB at 10M).
func TestRetainedPerGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a million goroutines")
	}
	const gs = 1_000_000
	prog := &Program{Main: []Op{goN(gs, cpu(time.Microsecond)), waitKids()}}
	for _, noCauses := range []bool{false, true} {
		cfg := Config{Procs: 4, Seed: 1, MaxEvents: 1 << 40, NoCauses: noCauses}
		before := heapInUse()
		m, err := New(cfg, prog)
		if err != nil {
			t.Fatal(err)
		}
		for m.Step() {
		}
		if m.End().Reason != MainReturned || m.NumG() != gs+2 {
			t.Fatalf("run ended with %v after %d goroutines", m.End(), m.NumG()-2)
		}
		after := heapInUse()
		runtime.KeepAlive(m)
		perG := float64(after-before) / gs
		t.Logf("NoCauses %v: %.1f bytes retained per goroutine created (%d descriptors, peak %d alive)", noCauses, perG, m.Descriptors(), m.PeakLive())
		if perG > 20 {
			t.Errorf("NoCauses %v: %.1f bytes retained per goroutine created; want at most 20", noCauses, perG)
		}
	}
}

// heapInUse is the heap's bytes in use after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}
