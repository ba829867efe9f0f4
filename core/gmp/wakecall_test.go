package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// A wake-up of a parked M costs the thread that makes it Costs.WakeCall:
// main's go statement wakes an idle M for the new goroutine (wakep), and
// main goes on that much later. A thread created for it instead (no idle M
// at a bare start: newm) is no futex wake, and costs main nothing here.
func TestAWakeUpCostsTheWaker(t *testing.T) {
	const src = "procs: 2\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - cpu: 100us\n  - exit\n"
	for _, warm := range []bool{true, false} {
		ends := map[time.Duration]sim.Time{}
		woke := map[time.Duration]bool{}
		for _, call := range []time.Duration{0, 10 * time.Microsecond} {
			m := wakeCallMachine(t, src, warm, call)
			var mainDone sim.Time
			m.SetSink(func(e gmp.Event) {
				switch {
				case e.Kind == gmp.KindMStart && e.Rule == gmp.RuleWakep:
					woke[call] = !e.Flag // an idle M woken, not one created
				case e.G == 1 && (e.Kind == gmp.KindGoExit || e.Kind == gmp.KindGoBlock):
					if mainDone == 0 {
						mainDone = e.T
					}
				}
			})
			m.Run()
			ends[call] = mainDone
		}
		got := ends[10*time.Microsecond].Sub(ends[0])
		switch {
		case warm && (!woke[0] || got != 10*time.Microsecond):
			t.Errorf("warm start: an idle M woken: %v; main's computing ended %v later with a 10µs wake-up call, want 10µs", woke[0], got)
		case !warm && (woke[0] || got != 0):
			t.Errorf("bare start: an idle M woken: %v; main's computing ended %v later, want no change (a new thread, not a wake-up)", woke[0], got)
		}
	}
}

// wakeCallMachine is a machine for the scenario src with the default
// costs but a wake-up of a parked M costing its waker call, started warm
// (idle Ms to wake) or bare.
func wakeCallMachine(t *testing.T, src string, warm bool, call time.Duration) *gmp.Machine {
	t.Helper()
	sc := parse(t, src)
	cfg := sc.Config()
	cfg.WarmStart = warm
	cfg.Costs = gmp.DefaultCosts()
	cfg.Costs.WakeCall = call
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	return m
}
