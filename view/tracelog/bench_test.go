package tracelog

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/cputime"
)

// benchScenario is the run issue 15 measures output speed on: 200,000
// goroutines of 10µs on 4 Ps, some 611,000 events, almost all of them
// go-create, go-start and go-exit.
const benchScenario = `name: big
procs: 4
main:
  - go: {count: 200000, do: [{cpu: 10us}]}
`

// recorded runs benchScenario once and keeps its events, so that the
// benchmark times the writer alone and not the model.
var recorded = sync.OnceValues(func() (*scenarios.Scenario, []gmp.Event) {
	return record(benchScenario)
})

// recorded64 is issue 30's run on 64 Ps at a tenth of its size (30,000
// goroutines, some 223,000 events): every kind of line the run writes,
// steals, timers and sleeps among them.
var recorded64 = sync.OnceValues(func() (*scenarios.Scenario, []gmp.Event) {
	yaml, err := os.ReadFile(filepath.Join("testdata", "procs64.yaml"))
	if err != nil {
		panic(err)
	}
	return record(strings.Replace(string(yaml), "count: 300000", "count: 30000", 1))
})

// record runs a scenario with causes, as the JSON lines have them, and
// keeps its events.
func record(yaml string) (*scenarios.Scenario, []gmp.Event) {
	sc, err := scenarios.Parse("big.yaml", []byte(yaml))
	if err != nil {
		panic(err)
	}
	m, err := gmp.New(Options{Format: JSONL}.Config(sc), sc.Program())
	if err != nil {
		panic(err)
	}
	var evs []gmp.Event
	m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
	m.Run()
	return sc, evs
}

// BenchmarkWrite writes the recorded events to io.Discard in each format.
// events/s is the writer's output rate; allocs/event should be 0 (the
// buffer and the line are reused). "none" is the writer's cost when it
// writes no events: placing notes, which every format pays. The runs are
// issue 15's (4 Ps, go-create, go-start and go-exit almost only) and
// issue 30's on 64 Ps.
func BenchmarkWrite(b *testing.B) {
	for _, run := range []struct {
		name string
		rec  func() (*scenarios.Scenario, []gmp.Event)
	}{{"procs=4", recorded}, {"procs=64", recorded64}} {
		sc, evs := run.rec()
		for _, name := range []string{"text", "jsonl", "none"} {
			format, err := ParseFormat(name)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(run.name+"/format="+name, func(b *testing.B) {
				d := gmp.NewDescriber(sc.Program())
				b.ReportAllocs()
				var allocs uint64
				var cpu time.Duration
				for b.Loop() {
					w := New(io.Discard, format, d, sc.Notes)
					w.Events = format != None
					allocs -= mallocs()
					cpu0, _ := cputime.Process()
					for _, e := range evs {
						w.Event(e)
					}
					cpu1, _ := cputime.Process()
					cpu += cpu1 - cpu0
					allocs += mallocs()
				}
				n := float64(b.N) * float64(len(evs))
				b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
				b.ReportMetric(b.Elapsed().Seconds()*1e9/n, "ns/event")
				// CPU time, which a busy machine disturbs less.
				b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/event")
				b.ReportMetric(float64(allocs)/n, "allocs/event")
			})
		}
	}
}

// mallocs is how many heap allocations the program has made so far.
func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// Writing an event allocates nothing, in either format, for the events
// of every built-in scenario (which between them take most rules): the
// line is appended into the output buffer, the sentence too.
func TestWritingAnEventAllocatesNothing(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		m, err := gmp.New(Options{Format: JSONL}.Config(sc), sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var evs []gmp.Event
		m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
		m.Run()
		d := gmp.NewDescriber(sc.Program())
		for _, format := range []Format{Text, JSONL} {
			// Without the scenario's notes: placing one allocates
			// (NoteTracker.Observe returns a slice), once a note, not
			// once an event.
			w := New(io.Discard, format, d, nil)
			// A pass over the events, three times: a stray allocation
			// of the runtime's averages to none, one per event would
			// be len(evs) a pass.
			if n := testing.AllocsPerRun(3, func() {
				for _, e := range evs {
					w.Event(e)
				}
			}); n != 0 {
				t.Errorf("%s, format %d: %v allocations a pass over %d events", sc.Name, format, n, len(evs))
			}
		}
	}
}

// BenchmarkAppendString quotes a typical sentence, as the JSON lines'
// "why" does for every event.
func BenchmarkAppendString(b *testing.B) {
	s := []byte("G1 creates G634 into P0's runnext; G633, kicked out of runnext, goes to the ring's tail (141/256)")
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = appendString(buf[:0], s)
	}
}
