package gmp

import (
	"testing"
	"time"
)

// bigProgram: 100k goroutines over 64 Ps, computing, sleeping and talking
// over a channel: the shape of the UI's performance targets.
func bigProgram() *Program {
	return &Program{
		Chans: []ChanDecl{{Name: "c", Cap: 64}},
		Main: []Op{
			goN(100_000, loop(4, cpu(200*time.Microsecond), send(0), recv(0), sleep(time.Millisecond))),
			waitKids(),
		},
	}
}

func newBig(b *testing.B) *Machine {
	m, err := New(Config{Procs: 64, Seed: 1, Costs: DefaultCosts()}, bigProgram())
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkStep measures the model's speed in events per second.
func BenchmarkStep(b *testing.B) {
	m := newBig(b)
	b.ResetTimer()
	start := m.Emitted()
	for range b.N {
		if !m.Step() {
			b.StopTimer()
			m = newBig(b)
			start -= m.Emitted()
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(m.Emitted()-start)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkClone measures a snapshot of a state with 100k goroutines.
func BenchmarkClone(b *testing.B) {
	m := newBig(b)
	for m.Emitted() < 300_000 && m.Step() {
	}
	if m.NumG() < 100_000 {
		b.Fatalf("only %d goroutines created", m.NumG())
	}
	b.ReportMetric(float64(m.Live()), "live-Gs")
	b.ResetTimer()
	for range b.N {
		_ = m.Clone()
	}
}
