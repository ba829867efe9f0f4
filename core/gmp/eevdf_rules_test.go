package gmp

import (
	"testing"
	"time"
)

// oneCPU is a kernel model of one CPU on which thread 0 runs and threads
// 1.. wait, each at the vruntime given, with a request of a slice from
// its vruntime; thread 0 was picked at its vruntime, so its request
// protects it for a slice.
func oneCPU(vrs ...time.Duration) *cpuModel {
	c := newCPUModel(2, 0)
	for i, v := range vrs {
		t := c.thread(MID(i))
		t.cpu, t.vr, t.dl = 0, v, v+c.slice
		if i == 0 {
			t.state, t.prot = thRunning, t.dl
			c.cpus[0].curr = 0
			continue
		}
		t.state = thWaiting
		c.cpus[0].queue = append(c.cpus[0].queue, int32(i))
	}
	return c
}

// The zero-lag point is the average vruntime, and a thread's lag is how
// far below it the thread is.
func TestZeroLagPointIsTheAverage(t *testing.T) {
	c := oneCPU(4*time.Millisecond, 2*time.Millisecond)
	if V, n := c.avgVR(0, -1); V != 3*time.Millisecond || n != 2 {
		t.Errorf("V %v of %d threads, want 3ms of 2", V, n)
	}
	if lag := c.lagOf(0, &c.th[1], 1); lag != time.Millisecond {
		t.Errorf("the waiting thread's lag %v, want 1ms", lag)
	}
}

// The running thread keeps its CPU while its request protects it and it
// is eligible; once it has had more than its share, the eligible waiting
// thread is picked, protected or not.
func TestPickKeepsAProtectedEligibleThread(t *testing.T) {
	c := oneCPU(2*time.Millisecond, 2*time.Millisecond)
	if got := c.pickEEVDF(0, -1); got != 0 {
		t.Errorf("at equal vruntimes the protected running thread should keep the CPU, got %d", got)
	}
	c.th[0].vr = 3 * time.Millisecond // it ran 1ms: above V, ineligible
	if got := c.pickEEVDF(0, -1); got != 1 {
		t.Errorf("an ineligible running thread should lose the CPU to the eligible one, got %d", got)
	}
}

// A thread back from a short sleep owed service comes back owed it and
// preempts the thread that took its CPU meanwhile (which had had more
// than the thread waiting beside it); a thread back from a long park with
// no lag waits behind the waiting thread's earlier deadline; a thread
// that slept having had more than its share waits where it was.
func TestASleepersLagDecidesWhetherItPreempts(t *testing.T) {
	const ms = time.Millisecond
	for _, c := range []struct {
		name    string
		lag     time.Duration
		delayed bool
		want    bool // it preempts
	}{
		{"owed service", ms, false, true},
		{"no lag", 0, false, false},
		{"overdrawn", -ms, true, false},
	} {
		m := oneCPU(6*ms, 5*ms) // thread 0 runs, within its request
		w := m.thread(2)
		w.cpu, w.lag, w.delayed, w.sleepVR = 0, c.lag, c.delayed, 5*ms-c.lag
		m.placeEntity(0, w, 2, false)
		if got := m.pickEEVDF(0, 2) == 2; got != c.want {
			t.Errorf("%s: preempts %v, want %v (vruntime %v, deadline %v)", c.name, got, c.want, w.vr, w.dl)
		}
	}
}

// A thread that sleeps keeps its lag, bounded, and is delayed when the
// lag is negative.
func TestSaveLagBoundsAndDelays(t *testing.T) {
	c := oneCPU(30*time.Millisecond, 0)
	c.saveLag(0, &c.th[0], 0)
	if lim := c.lagLimit(); c.th[0].lag != -lim || !c.th[0].delayed {
		t.Errorf("lag %v delayed %v, want -%v and delayed", c.th[0].lag, c.th[0].delayed, lim)
	}
	c.saveLag(0, &c.th[1], 1)
	if c.th[1].lag <= 0 || c.th[1].delayed {
		t.Errorf("the waiting thread's lag %v delayed %v, want positive, not delayed", c.th[1].lag, c.th[1].delayed)
	}
}

// A request renewed at the tick gives the CPU to the eligible waiting
// thread, and so does a protection that has ended without a renewal.
func TestRescheduleWhenTheRequestRunsOut(t *testing.T) {
	c := oneCPU(0, 0)
	if c.reschedule(0) {
		t.Error("a thread within its request should not be rescheduled")
	}
	c.th[0].vr = c.slice
	if !c.reschedule(0) || c.th[0].dl != 2*c.slice {
		t.Errorf("a used request should be renewed a slice on: deadline %v", c.th[0].dl)
	}
	if got := c.pickEEVDF(0, -1); got != 1 {
		t.Errorf("after its request the running thread, ahead of the other, should lose the CPU, got %d", got)
	}
}
