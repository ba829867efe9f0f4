package tui

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// smallChunks makes s keep few, small chunks, so that tests cross and
// regenerate many.
func smallChunks(s *Session, size, resident int) {
	s.log.chunkSize, s.log.maxResident = size, resident
}

// TestEventLogRegeneratesTheSameEvents runs burst with chunks of 1,000
// events, three in memory besides the first, and reads events back in
// random order:
// each equals the event a plain run emits.
func TestEventLogRegeneratesTheSameEvents(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.MeasureIdle = true // as NewSession runs it
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var want []gmp.Event
	m.SetSink(func(e gmp.Event) { want = append(want, e) })
	m.Run()

	s := newSession(t, "burst")
	smallChunks(s, 1000, 3)
	for s.Forward(50_000) > 0 {
	}
	if s.Known() != len(want) {
		t.Fatalf("the session has %d events, a plain run %d", s.Known(), len(want))
	}
	if r := s.log.resident(); r > 4 {
		t.Errorf("%d chunks in memory, want at most 3 and the first", r)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		i := rng.IntN(len(want))
		if got := s.Event(i); !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("event %d came back as %+v, want %+v", i, got, want[i])
		}
	}
	if s.log.regenerated == 0 {
		t.Error("no chunk was ever made again: the test did not test it")
	}
	// Seeking anywhere and stepping back across chunk ends gives the
	// state a plain replay gives.
	for _, i := range []int{len(want) / 3, 999, 1000, 1001, len(want) - 2} {
		s.Seek(i)
		s.Back(3)
		if s.Cursor() != i-3 {
			t.Fatalf("seek %d then back 3 landed on %d", i, s.Cursor())
		}
	}
}

// TestTimelineAcrossChunks draws the timeline from a chunk's carry: the
// segments in any window are those of a timeline recorded whole.
func TestTimelineAcrossChunks(t *testing.T) {
	s := newSession(t, "burst")
	smallChunks(s, 500, 2)
	for s.Forward(50_000) > 0 {
	}
	whole := NewTimeline(s.Config().Procs)
	for i := range s.Known() {
		whole.Record(s.Event(i))
	}
	for _, cur := range []int{499, 500, 1700, s.Known() / 2, s.Known() - 1} {
		s.Seek(cur)
		to := s.State().Now()
		from := s.Event(max(cur-300, 0)).T
		got := s.Timeline(from)
		for p := range s.Config().Procs {
			var a, b []Segment
			got.Window(gmp.PID(p), from, to, cur, func(seg Segment) { a = append(a, seg) })
			whole.Window(gmp.PID(p), from, to, cur, func(seg Segment) { b = append(b, seg) })
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("cursor %d, P%d: the timeline from the carry has %+v, the whole one %+v", cur, p, a, b)
			}
			var ma, mb []Mark
			got.Marks(gmp.PID(p), from, to, cur, func(m Mark) { ma = append(ma, m) })
			whole.Marks(gmp.PID(p), from, to, cur, func(m Mark) { mb = append(mb, m) })
			if !reflect.DeepEqual(ma, mb) {
				t.Fatalf("cursor %d, P%d: marks %+v, want %+v", cur, p, ma, mb)
			}
		}
	}
}

// TestUIMemoryIsBounded runs 5M-event runs to their end in the UI's
// session and holds the heap under 500 MB: a loop of goscheds (925 MB
// before the event log was chunked) and a million tasks through a pool
// (1.7 GB when every pool event kept the real pools' snapshots).
func TestUIMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("5M-event runs; skipped with -short")
	}
	if raceEnabled {
		t.Skip("the race detector's own memory would be measured; test.sh runs this without it")
	}
	for _, src := range []string{
		"procs: 1\nmain:\n  - loop: {times: 100000000, do: [gosched]}\n",
		"procs: 4\npools: {w: {size: 16}}\nmain:\n  - submit: {pool: w, count: 1000000, do: [{cpu: 10us}]}\n  - wait: children\n",
	} {
		sc, err := scenarios.Parse("long.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(sc, sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		for s.Forward(1<<20) > 0 {
		}
		if s.Known() < gmp.DefaultMaxEvents {
			t.Fatalf("the run stopped at %d events", s.Known())
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > 500<<20 {
			t.Errorf("after a 5M-event run the heap holds %d MB", ms.HeapAlloc>>20)
		}
		t.Logf("heap after %d events: %d MB; %d checkpoints", s.Known(), ms.HeapAlloc>>20, s.Checkpoints())
	}
}
