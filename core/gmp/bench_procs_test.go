package gmp

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkProcs is the cost per event as the number of Ps grows, on one
// program: 100,000 goroutines that each compute 10µs, sleep 1ms and
// compute 10µs again, on 8, 64 and 256 Ps. A scheduler model whose passes
// look at every P costs more per event with more Ps even where the
// runtime's own cost does not; the ratio of procs=256 to procs=8 in
// cpu-ns/event is that growth.
//
//	go test -run XXX -bench Procs -count 6 ./core/gmp/
func BenchmarkProcs(b *testing.B) {
	for _, procs := range []int{8, 64, 256} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			prog := &Program{Main: []Op{
				goN(100_000, cpu(10*time.Microsecond), sleep(time.Millisecond), cpu(10*time.Microsecond)),
				waitKids(),
			}}
			cfg := Config{Procs: procs, Seed: 1, Costs: DefaultCosts(), MaxEvents: 1 << 40, NoCauses: true}
			var events uint64
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				m, err := New(cfg, prog)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				cpu0 := processCPU()
				for m.Step() {
				}
				cpu += processCPU() - cpu0
				if m.End().Reason != MainReturned {
					b.Fatalf("run ended with %v", m.End())
				}
				events += uint64(m.Emitted())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(events), "cpu-ns/event")
		})
	}
}
