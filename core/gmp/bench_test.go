package gmp

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/cputime"
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

// BenchmarkEvents measures the model's cost per scheduling event on whole
// runs: ns/event, allocs/event, and bytes/G, the memory the finished
// machine holds per goroutine it ran. Each goroutine computes, sleeps and
// computes again (three actions). The shapes are the ones the project
// promises figures for, 100k goroutines on 8 Ps and 1M on 64, plus
// smaller and larger siblings that show the cost per event staying flat
// as runs grow.
func BenchmarkEvents(b *testing.B) {
	for _, c := range []struct{ procs, gs int }{
		{8, 10_000}, {8, 100_000}, {8, 1_000_000},
		{64, 100_000}, {64, 1_000_000},
	} {
		b.Run(fmt.Sprintf("procs=%d/gs=%d", c.procs, c.gs), func(b *testing.B) {
			prog, cfg := eventsShape(c.procs, c.gs)
			var events, mallocs, retained uint64
			var cpu time.Duration
			var before, after runtime.MemStats
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&before)
				m, err := New(cfg, prog)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				cpu0 := processCPU()
				for m.Step() {
				}
				cpu += processCPU() - cpu0
				b.StopTimer()
				runtime.ReadMemStats(&after)
				mallocs += after.Mallocs - before.Mallocs
				runtime.GC()
				runtime.ReadMemStats(&after)
				retained += after.HeapAlloc - before.HeapAlloc
				if m.End().Reason != MainReturned || m.NumG() != c.gs+2 {
					b.Fatalf("run ended with %v after %d goroutines", m.End(), m.NumG()-2)
				}
				events += uint64(m.Emitted())
				runtime.KeepAlive(m)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(events), "cpu-ns/event")
			b.ReportMetric(float64(mallocs)/float64(events), "allocs/event")
			b.ReportMetric(float64(retained)/float64(b.N)/float64(c.gs+1), "bytes/G")
		})
	}
}

// eventsShape is BenchmarkEvents' program: gs goroutines that compute,
// sleep and compute again, on procs Ps.
func eventsShape(procs, gs int) (*Program, Config) {
	prog := &Program{Main: []Op{
		goN(gs, cpu(50*time.Microsecond), sleep(time.Millisecond), cpu(50*time.Microsecond)),
		waitKids(),
	}}
	// No sink reads causes here, as none does in --format none.
	return prog, Config{Procs: procs, Seed: 1, Costs: DefaultCosts(), MaxEvents: 1 << 40, NoCauses: true}
}

// firstRunEnv makes the test binary, started again by BenchmarkFirstRun,
// run TestFirstRunChild: "procs/gs".
const firstRunEnv = "SCHEDLAB_FIRST_RUN"

// BenchmarkFirstRun measures what the CLI pays: the first run in a
// process, whose heap starts empty and grows (fresh pages, more GC
// cycles), against later runs in the same process. Within one benchmark
// process earlier benchmarks would have grown the heap already, so each
// iteration starts a fresh copy of the test binary (TestFirstRunChild),
// which times New plus the whole run four times. It reports ns/event of
// the first run, the mean of the three later ones, and their ratio, in
// wall time and in CPU time (which a busy machine disturbs less).
func BenchmarkFirstRun(b *testing.B) {
	for _, c := range []struct{ procs, gs int }{{8, 100_000}, {64, 1_000_000}} {
		b.Run(fmt.Sprintf("procs=%d/gs=%d", c.procs, c.gs), func(b *testing.B) {
			var first, later, firstCPU, laterCPU float64
			for range b.N {
				cmd := exec.Command(os.Args[0], "-test.run=^TestFirstRunChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d/%d", firstRunEnv, c.procs, c.gs))
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				t, ok := parseFirstRun(string(out))
				if !ok {
					b.Fatalf("no timings in the child's output:\n%s", out)
				}
				first += t[0]
				later += t[1]
				firstCPU += t[2]
				laterCPU += t[3]
			}
			b.ReportMetric(0, "ns/op") // the time of a child process means nothing
			b.ReportMetric(first/float64(b.N), "first-ns/event")
			b.ReportMetric(later/float64(b.N), "later-ns/event")
			b.ReportMetric(first/later, "first/later")
			if laterCPU > 0 {
				b.ReportMetric(firstCPU/laterCPU, "cpu-first/later")
			}
		})
	}
}

// TestFirstRunChild is BenchmarkFirstRun's child: it runs only when the
// benchmark starts it.
func TestFirstRunChild(t *testing.T) {
	shape := os.Getenv(firstRunEnv)
	if shape == "" {
		t.Skip("started by BenchmarkFirstRun")
	}
	var procs, gs int
	if _, err := fmt.Sscanf(shape, "%d/%d", &procs, &gs); err != nil {
		t.Fatal(err)
	}
	prog, cfg := eventsShape(procs, gs)
	var wall, cpu [4]float64
	for i := range wall {
		start, cpu0 := time.Now(), processCPU()
		m, err := New(cfg, prog)
		if err != nil {
			t.Fatal(err)
		}
		for m.Step() {
		}
		wall[i] = float64(time.Since(start).Nanoseconds()) / float64(m.Emitted())
		cpu[i] = float64((processCPU() - cpu0).Nanoseconds()) / float64(m.Emitted())
	}
	fmt.Printf("firstrun %.2f %.2f %.2f %.2f\n", wall[0], (wall[1]+wall[2]+wall[3])/3, cpu[0], (cpu[1]+cpu[2]+cpu[3])/3)
}

// parseFirstRun reads TestFirstRunChild's line: the first run's wall
// ns/event, the later runs', then the same in CPU time.
func parseFirstRun(out string) ([4]float64, bool) {
	var v [4]float64
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) != 1+len(v) || f[0] != "firstrun" {
			continue
		}
		for i := range v {
			x, err := strconv.ParseFloat(f[1+i], 64)
			if err != nil {
				return v, false
			}
			v[i] = x
		}
		return v, true
	}
	return v, false
}

// BenchmarkStep measures the model's speed in events per second on the
// UI's big program (100k goroutines on 64 Ps, all alive at once).
func BenchmarkStep(b *testing.B) {
	m := newBig(b)
	b.ResetTimer()
	events := 0
	for range b.N {
		before := m.Emitted()
		if !m.Step() {
			b.StopTimer()
			m = newBig(b)
			b.StartTimer()
			continue
		}
		events += m.Emitted() - before
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkClone measures a snapshot of a state with 100k goroutines.
func BenchmarkClone(b *testing.B) {
	m := newBig(b)
	// Step until main has created every goroutine, however many events
	// that takes (a fixed count of events went stale when the model's
	// events per go statement changed), within a bound.
	for m.NumG() < 100_000 && m.Emitted() < 5_000_000 && m.Step() {
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

// processCPU is the process's CPU time so far, 0 where it cannot be read
// (the benchmarks then report 0 CPU per event).
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}
