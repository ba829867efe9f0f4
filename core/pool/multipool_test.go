package pool_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
)

func runningByIndex(t *testing.T, m *pool.MultiPool) []int {
	t.Helper()
	var n []int
	for i := range m.Len() {
		r, err := m.RunningByIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		n = append(n, r)
	}
	return n
}

func TestMultiPoolRoundRobin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, err := pool.NewMulti(3, 2, pool.RoundRobin)
		if err != nil {
			t.Fatal(err)
		}
		unblockOnFailure(t, m)
		g := newGate()
		for range 4 {
			if err := m.Submit(g.task()); err != nil {
				t.Fatal(err)
			}
		}
		if got := runningByIndex(t, m); got[0] != 2 || got[1] != 1 || got[2] != 1 {
			t.Fatalf("running by index %v, want [2 1 1]", got)
		}
		if m.Running() != 4 || m.Cap() != 6 || m.Free() != 2 || m.Waiting() != 0 {
			t.Fatalf("Running %d Cap %d Free %d Waiting %d", m.Running(), m.Cap(), m.Free(), m.Waiting())
		}
		g.open()
		if err := m.ReleaseContext(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestMultiPoolLeastTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, _ := pool.NewMulti(3, 4, pool.LeastTasks)
		unblockOnFailure(t, m)
		g := newGate()
		for range 6 {
			if err := m.Submit(g.task()); err != nil {
				t.Fatal(err)
			}
		}
		if got := runningByIndex(t, m); got[0] != 2 || got[1] != 2 || got[2] != 2 {
			t.Fatalf("running by index %v, want [2 2 2]", got)
		}
		g.open()
		m.Release()
		synctest.Wait()
	})
}

func TestMultiPoolRoundRobinFallsBackWhenOverloaded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, _ := pool.NewMulti(2, 1, pool.RoundRobin, pool.WithNonblocking(true))
		unblockOnFailure(t, m)
		g := newGate()
		for _, want := range []error{nil, nil, pool.ErrPoolOverload} {
			if err := m.Submit(g.task()); !errors.Is(err, want) {
				t.Fatalf("Submit = %v, want %v", err, want)
			}
		}
		// Pools 0 and 1 are full. The fourth task goes to pool 1 by turn,
		// is refused, and is offered to the least loaded pool (a tie, so
		// pool 0), which refuses too: the error names pool 0.
		err := m.Submit(g.task())
		if !errors.Is(err, pool.ErrPoolOverload) || err.Error() != "multipool: pool 0: "+pool.ErrPoolOverload.Error() {
			t.Fatalf("Submit = %q", err)
		}
		g.open()
		m.Release()
		synctest.Wait()
	})
}

func TestMultiPoolErrors(t *testing.T) {
	if _, err := pool.NewMulti(0, 1, pool.RoundRobin); !errors.Is(err, pool.ErrInvalidMultiPoolSize) {
		t.Errorf("NewMulti(0) = %v", err)
	}
	if _, err := pool.NewMulti(2, 1, pool.LoadBalancer(42)); !errors.Is(err, pool.ErrInvalidLoadBalancer) {
		t.Errorf("NewMulti(bad balancer) = %v", err)
	}
	if _, err := pool.NewMulti(2, 1, pool.RoundRobin, pool.WithExpiry(-1)); !errors.Is(err, pool.ErrInvalidExpiry) {
		t.Errorf("NewMulti(bad option) = %v", err)
	}
	m, _ := pool.NewMulti(2, 0, pool.RoundRobin)
	if m.Cap() != -1 || m.Free() != -1 {
		t.Errorf("unlimited multi-pool: Cap %d Free %d", m.Cap(), m.Free())
	}
	for _, i := range []int{-1, 2} {
		for name, f := range map[string]func(int) (int, error){
			"RunningByIndex": m.RunningByIndex, "FreeByIndex": m.FreeByIndex, "WaitingByIndex": m.WaitingByIndex,
		} {
			if n, err := f(i); !errors.Is(err, pool.ErrInvalidPoolIndex) || n != -1 {
				t.Errorf("%s(%d) = %d, %v", name, i, n, err)
			}
		}
		if _, err := m.Pool(i); !errors.Is(err, pool.ErrInvalidPoolIndex) {
			t.Errorf("Pool(%d) = %v", i, err)
		}
	}
	if n, err := m.FreeByIndex(1); n != -1 || err != nil {
		t.Errorf("FreeByIndex(1) = %d, %v", n, err)
	}
	m.Release()
	if err := m.Submit(func() {}); !errors.Is(err, pool.ErrPoolClosed) || !m.IsClosed() {
		t.Errorf("Submit on a released multi-pool = %v", err)
	}
	m.Reboot()
	if err := m.Submit(func() {}); err != nil || m.IsClosed() {
		t.Errorf("Submit after Reboot = %v", err)
	}
	if err := m.ReleaseTimeout(time.Minute); err != nil {
		t.Error(err)
	}
}

func TestMultiPoolReleaseTimeoutWrapsErrTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := manualclock.New(t0)
		m, _ := pool.NewMulti(3, 1, pool.RoundRobin, pool.WithClock(clock))
		unblockOnFailure(t, m)
		stuck := newGate()
		if err := m.Submit(func() {}); err != nil { // pool 0: finishes
			t.Fatal(err)
		}
		if err := m.Submit(stuck.task()); err != nil { // pool 1: stuck
			t.Fatal(err)
		}
		synctest.Wait()
		result := submitAsync(func() error { return m.ReleaseTimeout(time.Second) })
		clock.Advance(time.Second)
		err := <-result
		if !errors.Is(err, pool.ErrTimeout) || err.Error() != "multipool: pool 1: "+pool.ErrTimeout.Error() {
			t.Fatalf("ReleaseTimeout = %q, want pool 1 timing out", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		result = submitAsync(func() error { return m.ReleaseContext(ctx) })
		cancel()
		if err := <-result; !errors.Is(err, context.Canceled) {
			t.Fatalf("ReleaseContext = %v", err)
		}
		var none context.Context
		if err := m.ReleaseContext(none); err != nil { // does not wait, as in ants
			t.Fatalf("ReleaseContext(nil) = %v with pool 1 stuck", err)
		}
		m.Release() // a second release does nothing
		stuck.open()
		if err := m.ReleaseContext(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestMultiPoolTune(t *testing.T) {
	m, _ := pool.NewMulti(2, 2, pool.LeastTasks)
	m.Tune(5)
	if m.Cap() != 10 {
		t.Fatalf("Cap after Tune(5) = %d", m.Cap())
	}
	m.Release()
}
