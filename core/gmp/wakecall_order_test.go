package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// A starving mutex's Unlock hands it to the first waiter, readies it
// into the releaser's runnext and yields (semrelease1, goyield). When the
// ready wakes a parked M for an idle P (wakep), the releaser's thread
// makes that futex call before it yields: its go-stop comes the call's
// cost after the waiter's go-unblock, and the waiter starts at the
// switch's cost after the go-stop, not the call's. Before, the call was
// paid after the go-stop, and a real trace's switch of 0.8µs was 12.7µs
// in verify's model of mutex-starvation.
func TestHandoffYieldsAfterItsWakeUpCall(t *testing.T) {
	const src = `procs: 2
mutexes: [mu]
main:
  - go:
      count: 3
      do:
        - loop:
            times: 30
            do:
              - lock: mu
              - cpu: 100us
              - unlock: mu
              - cpu: 5us
  - wait: children
`
	const call = 10 * time.Microsecond
	m := wakeCallMachine(t, src, false, call)
	var unblocked, stopped sim.Time
	woke := false
	waker := gmp.NoG
	checked := 0
	m.SetSink(func(e gmp.Event) {
		switch {
		case e.Kind == gmp.KindGoUnblock && e.Rule == gmp.RuleReadyMutex && e.Flag:
			unblocked, woke, waker = e.T, false, e.G2
		case e.Kind == gmp.KindMStart && e.Rule == gmp.RuleWakep && e.T == unblocked:
			woke = !e.Flag
		case e.Kind == gmp.KindGoStop && e.Rule == gmp.RuleGoyield:
			if e.G != waker {
				t.Errorf("%v yields after a handoff by %v", e.G, waker)
			}
			want := time.Duration(0)
			if woke {
				want = call
			}
			if got := e.T.Sub(unblocked); got != want {
				t.Errorf("at %v: %v yields %v after readying the waiter (an M woken: %v), want %v", e.T, e.G, got, woke, want)
			}
			stopped = e.T
		case e.Kind == gmp.KindGoStart && stopped != 0:
			if gap := e.T.Sub(stopped); gap >= call {
				t.Errorf("at %v: the waiter starts %v after the yield, want the switch's cost, under the wake-up call's %v", e.T, gap, call)
			}
			if woke {
				checked++
			}
			stopped = 0
		}
	})
	if end := m.Run(); end.Err != nil {
		t.Fatal(end.Err)
	}
	if checked == 0 {
		t.Fatal("no handoff woke an M: the test checks nothing")
	}
}

// A goroutine's Done readies a waiter before the goroutine ends, and a
// worker's task readies its submitter before the worker's bookkeeping and
// idle park: when that ready wakes a parked M (wakep), the thread makes
// the futex call first, and the go-exit or go-block comes the call's cost
// after the go-unblock.
func TestLeavingAfterAReadyWaitsForItsWakeUpCall(t *testing.T) {
	const call = 10 * time.Microsecond
	for _, tc := range []struct {
		name, src string
		ready     gmp.Rule
		leaves    gmp.Kind
	}{
		{"exit", "procs: 2\nmain:\n  - go: {do: [{cpu: 100us}]}\n  - wait: children\n", gmp.RuleReadyChildren, gmp.KindGoExit},
		{"pool", "procs: 2\npools: {p: {size: 1}}\nmain:\n  - submit: {pool: p, do: [{cpu: 100us}]}\n  - wait: children\n", gmp.RuleReadyTasks, gmp.KindGoBlock},
	} {
		for _, warm := range []bool{true, false} {
			m := wakeCallMachine(t, tc.src, warm, call)
			var unblocked sim.Time
			readier := gmp.NoG
			woke, checked := false, false
			m.SetSink(func(e gmp.Event) {
				switch {
				case e.Kind == gmp.KindGoUnblock && e.Rule == tc.ready:
					unblocked, readier, woke = e.T, e.G2, false
				case e.Kind == gmp.KindMStart && e.Rule == gmp.RuleWakep && e.T == unblocked && readier != gmp.NoG:
					woke = !e.Flag
				case e.Kind == tc.leaves && e.G == readier:
					want := time.Duration(0)
					if woke {
						want = call
					}
					if got := e.T.Sub(unblocked); got != want {
						t.Errorf("%s, warm %v: %v leaves %v after its ready (an M woken: %v), want %v", tc.name, warm, e.G, got, woke, want)
					}
					checked = checked || woke
					readier = gmp.NoG
				}
			})
			if end := m.Run(); end.Err != nil {
				t.Fatal(end.Err)
			}
			if warm && !checked {
				t.Errorf("%s: no ready woke an M on a warm start: the test checks nothing", tc.name)
			}
		}
	}
}
