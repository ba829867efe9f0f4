package tui

import (
	"runtime"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/cputime"
)

// big is the shape of the UI's performance targets: 64 Ps and 100k
// goroutines computing, talking over a channel and sleeping. Each sleeps
// first, so that all 100k are alive before the first wakes up (main
// creates them in about 60ms of simulated time).
const big = `
procs: 64
chans: {c: 64}
main:
  - go:
      count: 100000
      do:
        - sleep: 150ms
        - loop:
            times: 4
            do:
              - cpu: 200us
              - send: c
              - recv: c
              - sleep: 1ms
  - wait: children
`

// small is a typical teaching-sized state: 4 Ps and 100 goroutines,
// running long enough for a million events.
const small = `
procs: 4
main:
  - go:
      count: 100
      do:
        - loop:
            times: 100000
            do:
              - cpu: 50us
              - gosched
              - sleep: 100us
  - wait: children
`

func bigSession(tb testing.TB) *Session { return sessionOf(tb, big) }

func sessionOf(tb testing.TB, src string) *Session {
	tb.Helper()
	sc, err := scenarios.Parse("bench.yaml", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := NewSession(sc, sc.Config())
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkDrawFrame draws one 160×48 frame of a state with 64 Ps and
// 100k goroutines.
func BenchmarkDrawFrame(b *testing.B) {
	s := bigSession(b)
	for s.State().Live() <= 100_000 {
		if s.Forward(10_000) == 0 {
			b.Fatalf("the run ended with %d goroutines alive at most", s.State().Live())
		}
	}
	s.Forward(50_000) // into the thick of it
	a := &App{sess: s, theme: NewTheme(Options{}), keys: bindings(), pace: newPace()}
	a.runs = solo{a}
	a.root = newRootView(a)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	scr.SetSize(160, 48)
	a.root.SetRect(0, 0, 160, 48)
	live := s.State().Live()
	b.ResetTimer()
	// CPU time as well as wall time: on a shared machine the wall time of
	// a frame moves with the load, its CPU time much less.
	cpu0, cpuOK := cputime.Process()
	for range b.N {
		a.root.Draw(scr)
	}
	if cpu1, _ := cputime.Process(); cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(live), "live-Gs")
}

// BenchmarkSeek moves the cursor to points spread over a run of a million
// events, back and forth, as a viewer jumping around would. It reports the
// memory the history holds for the run.
func BenchmarkSeek(b *testing.B) {
	b.Run("64P-100kG", func(b *testing.B) { benchSeek(b, big) })
	b.Run("4P-100G", func(b *testing.B) { benchSeek(b, small) })
}

func benchSeek(b *testing.B, src string) {
	const events = 1_000_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := sessionOf(b, src)
	s.Forward(events)
	if s.Known() < events {
		b.Fatalf("the run has only %d events", s.Known())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ResetTimer()
	var worst time.Duration
	x := uint64(12345)
	for range b.N {
		x = x*6364136223846793005 + 1442695040888963407
		start := time.Now()
		s.Seek(int(x>>33) % events)
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-held")
	b.ReportMetric(float64(s.Checkpoints()), "checkpoints")
}
