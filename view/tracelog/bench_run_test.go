package tracelog

import (
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/cputime"
)

// procs64 is issue 30's run (testdata/procs64.yaml): 300,000 goroutines
// on 64 Ps, each computing 10µs, sleeping 1ms and computing 10µs again,
// some 2.2M events. scripts/bench-run.sh runs the same file through the
// command.
func procs64() (*scenarios.Scenario, error) {
	return scenarios.Load(filepath.Join("testdata", "procs64.yaml"))
}

// BenchmarkRun is schedlab run of procs64, model and writer together, to
// io.Discard in each format: what the command costs per event, in
// process. The ratio of jsonl to none is what the JSON lines cost
// (issue 30 asks for at most 2.0).
//
//	go test -run XXX -bench 'Run$' -count 6 ./view/tracelog/
func BenchmarkRun(b *testing.B) {
	sc, err := procs64()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"none", "text", "jsonl"} {
		format, err := ParseFormat(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("format="+name, func(b *testing.B) {
			var events uint64
			var cpu time.Duration
			for b.Loop() {
				cpu0, _ := cputime.Process()
				end, m, err := Run(sc, Options{Format: format}, io.Discard)
				if err != nil || end.Err != nil {
					b.Fatal(err, end.Err)
				}
				cpu1, _ := cputime.Process()
				cpu += cpu1 - cpu0
				events += uint64(m.Emitted())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(events), "cpu-ns/event")
		})
	}
}

// BenchmarkRunParts splits what the JSON lines of procs64 cost beyond the
// run itself, each part on top of the one before: the model with no sink
// (quiet, what --format none costs), the model handing every event with
// its cause to a sink that reads one field (events), each event's
// sentence written into a reused buffer (sentences), and the whole line
// (jsonl). The differences are what the events, the sentences and the
// rest of the line cost per event.
//
//	go test -run XXX -bench RunParts -count 6 ./view/tracelog/
func BenchmarkRunParts(b *testing.B) {
	sc, err := procs64()
	if err != nil {
		b.Fatal(err)
	}
	for _, part := range []string{"quiet", "events", "sentences", "jsonl"} {
		b.Run("part="+part, func(b *testing.B) {
			var events uint64
			var cpu time.Duration
			var sink int64
			for b.Loop() {
				o := Options{Format: JSONL}
				if part == "quiet" {
					// No sink and no causes: the machine builds no event.
					o.Format = None
				}
				m, err := gmp.New(o.Config(sc), sc.Program())
				if err != nil {
					b.Fatal(err)
				}
				d := gmp.NewDescriber(sc.Program())
				line := make([]byte, 0, 1024)
				switch part {
				case "events":
					m.SetEventSink(func(e *gmp.Event) { sink += int64(e.Cause) })
				case "sentences":
					m.SetEventSink(func(e *gmp.Event) {
						line = d.AppendDescribe(line[:0], e)
						sink += int64(len(line))
					})
				case "jsonl":
					m.SetEventSink(New(io.Discard, JSONL, d, sc.Notes).eventRef)
				}
				cpu0, _ := cputime.Process()
				if end := m.Run(); end.Err != nil {
					b.Fatal(end.Err)
				}
				cpu1, _ := cputime.Process()
				cpu += cpu1 - cpu0
				events += uint64(m.Emitted())
			}
			if sink == 42 {
				b.Log(sink) // keeps the sinks' work
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(events), "cpu-ns/event")
		})
	}
}
