package gmp

import (
	"testing"
	"time"
)

// A program that computed for 20ms before its scenario (schedlab real's
// programs calibrate their cpu loop first) starts the scenario with sysmon
// backed off: its sleeps are milliseconds long, so it does not look twice
// within a 5ms syscall and the syscall keeps its P, though four Gs wait
// on it. Measured: the real syscall-busy program kept P0 through the 5ms
// syscall in 8 of 10 runs (makespan 14.2–15.4ms); the same program with
// the calibration taken out had P0 retaken 100–260µs into the syscall in
// 10 of 10.
func TestSysmonPreludeBacksOff(t *testing.T) {
	prog := &Program{Name: t.Name(), Main: []Op{goN(4, cpu(2*time.Millisecond)), syscall(20 * time.Microsecond), syscall(5 * time.Millisecond), cpu(time.Millisecond), waitKids()}}
	for seed := uint64(1); seed <= 10; seed++ {
		for _, tc := range []struct {
			prelude time.Duration
			retake  bool
		}{{0, true}, {20 * time.Millisecond, false}} {
			cfg := Config{Procs: 1, Seed: seed, Noise: true, Costs: DefaultCosts(), Check: true, SysmonPrelude: tc.prelude}
			m, err := New(cfg, prog)
			if err != nil {
				t.Fatal(err)
			}
			retook := false
			m.SetSink(func(e Event) {
				if e.Kind == KindProcSteal && e.Rule == RuleRetake {
					retook = true
				}
			})
			if end := m.Run(); end.Err != nil {
				t.Fatal(end.Err)
			}
			if retook != tc.retake {
				t.Errorf("seed %d, prelude %v: retake %v, want %v", seed, tc.prelude, retook, tc.retake)
			}
			if tc.prelude > 0 && m.mon.Delay < 5*time.Millisecond {
				t.Errorf("seed %d: sysmon's sleep %v after a 20ms prelude, want backed off to 5ms or more", seed, m.mon.Delay)
			}
		}
	}
}

// A prelude of 0 is today's start: the same trace, event for event.
func TestSysmonPreludeZeroIsDefault(t *testing.T) {
	prog := &Program{Name: t.Name(), Main: []Op{goN(2, cpu(15*time.Millisecond)), syscall(3 * time.Millisecond), waitKids()}}
	trace := func(cfg Config) []Event {
		m, err := New(cfg, prog)
		if err != nil {
			t.Fatal(err)
		}
		var evs []Event
		m.SetSink(func(e Event) { evs = append(evs, e) })
		m.Run()
		return evs
	}
	a := trace(Config{Procs: 2, Seed: 3, Noise: true, Costs: DefaultCosts()})
	b := trace(Config{Procs: 2, Seed: 3, Noise: true, Costs: DefaultCosts(), SysmonPrelude: 0})
	if len(a) != len(b) {
		t.Fatalf("%d events against %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("event %d differs: %+v against %+v", i, a[i], b[i])
		}
	}
}

func TestSysmonPreludeBounded(t *testing.T) {
	for _, d := range []time.Duration{-time.Nanosecond, MaxSysmonPrelude + 1} {
		if _, err := New(Config{Procs: 1, SysmonPrelude: d}, &Program{Name: "p"}); err == nil {
			t.Errorf("prelude %v accepted", d)
		}
	}
}
