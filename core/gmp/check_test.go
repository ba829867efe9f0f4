package gmp

import (
	"strings"
	"testing"
	"time"
)

// midRun steps a busy 4-P machine until some P's ring holds work, several
// Ms exist and the idle lists are in use: a state every check has
// something to look at.
func midRun(t *testing.T) *Machine {
	t.Helper()
	prog := &Program{Name: t.Name(), Main: []Op{goN(40, cpu(30*time.Microsecond), gosched(), cpu(30*time.Microsecond)), waitKids()}}
	m, err := New(Config{Procs: 4, Seed: 1, Costs: DefaultCosts()}, prog)
	if err != nil {
		t.Fatal(err)
	}
	for m.Step() {
		if busyP(m) != nil && len(m.ms) > 2 {
			if err := m.CheckInvariants(); err != nil {
				t.Fatalf("a clean machine fails its checks: %v", err)
			}
			return m
		}
	}
	t.Fatal("the run ended before it got busy")
	return nil
}

// busyP is a P with an M and more than two Gs in its ring, or nil.
func busyP(m *Machine) *P {
	for i := range m.ps {
		if m.ps[i].runq.len() > 2 && m.ps[i].M != NoM {
			return &m.ps[i]
		}
	}
	return nil
}

// Each structure's check notices a corruption of that structure.
func TestCheckInvariantsNoticesEachCorruption(t *testing.T) {
	base := midRun(t)
	busy := func(m *Machine) *P {
		pp := busyP(m)
		if pp == nil {
			t.Fatal("no busy P")
		}
		return pp
	}
	cases := []struct {
		name    string
		corrupt func(m *Machine)
		want    string
	}{
		{"a G in two rings", func(m *Machine) {
			pp := busy(m)
			m.sched.runq.pushBack(pp.runq.at(0))
		}, "found a second time, in the global queue"},
		{"a P that forgets its M", func(m *Machine) {
			pp := busy(m)
			pp.M = NoM
		}, "is running without an M"},
		{"npidle off by one", func(m *Machine) { m.sched.Npidle++ }, "npidle is"},
		{"nmspinning off by one", func(m *Machine) { m.sched.Nmspinning++ }, "nmspinning is"},
		{"a netpoll waiter nobody holds", func(m *Machine) { m.sched.NetpollWaiters++ }, "netpollWaiters is"},
		{"a runnable G lost", func(m *Machine) {
			busy(m).runq.pop()
		}, "is in 0 places"},
		{"the live count drifts", func(m *Machine) { m.live++ }, "goroutines are live but the count says"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := base.Clone()
			if err := m.CheckInvariants(); err != nil {
				t.Fatalf("the clone fails before corruption: %v", err)
			}
			tc.corrupt(m)
			err := m.CheckInvariants()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckInvariants = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}
