package pool_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// ants #141: submitters waiting when the pool was released waited forever.
func TestReleaseWakesEveryWaiterWithErrPoolClosed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		busy := newGate()
		b.submit(busy)
		var results []<-chan error
		for range 3 {
			results = append(results, submitAsync(func() error { return b.pool.Submit(func() { t.Error("ran") }) }))
		}
		b.rec.take()
		b.pool.Release()
		closed := pool.ErrPoolClosed.Error()
		b.expect(
			"unblock #1: "+closed+" @0s", "reject from #1: "+closed+" @0s",
			"unblock #2: "+closed+" @0s", "reject from #2: "+closed+" @0s",
			"unblock #3: "+closed+" @0s", "reject from #3: "+closed+" @0s",
		)
		for _, r := range results {
			if err := <-r; !errors.Is(err, pool.ErrPoolClosed) {
				t.Fatalf("waiter got %v, want ErrPoolClosed", err)
			}
		}
		if err := b.pool.Submit(func() {}); !errors.Is(err, pool.ErrPoolClosed) {
			t.Fatalf("Submit after Release = %v", err)
		}
		if !b.pool.IsClosed() || b.pool.Waiting() != 0 || b.pool.Running() != 1 {
			t.Fatalf("closed %v, Waiting %d, Running %d", b.pool.IsClosed(), b.pool.Waiting(), b.pool.Running())
		}
		b.rec.take()
		busy.open() // the busy worker stops once its task returns
		b.expect("exit w1 (released) @0s")
		b.release()
	})
}

func TestReleaseStopsIdleWorkersAndThePurgeTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3, pool.WithExpiry(time.Minute))
		b.idleAt(0, time.Second)
		b.rec.take()
		b.pool.Release()
		b.expect("exit w2 (released) @1s", "exit w1 (released) @1s")
		if b.clock.Pending() != 0 {
			t.Fatal("purge timer still armed after Release")
		}
		b.pool.Release() // a second Release does nothing
		b.expect()
		b.release()
	})
}

func TestReleaseTimeoutWaitsOnThePoolClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2)
		busy := newGate()
		b.submit(busy)
		result := submitAsync(func() error { return b.pool.ReleaseTimeout(5 * time.Second) })
		b.clock.Advance(5*time.Second - time.Nanosecond)
		synctest.Wait()
		select {
		case err := <-result:
			t.Fatalf("ReleaseTimeout returned %v before its timeout", err)
		default:
		}
		b.clock.Advance(time.Nanosecond)
		if err := <-result; !errors.Is(err, pool.ErrTimeout) {
			t.Fatalf("ReleaseTimeout = %v, want ErrTimeout", err)
		}
		// Called again on the released pool, it waits for the busy worker.
		result = submitAsync(func() error { return b.pool.ReleaseTimeout(5 * time.Second) })
		busy.open()
		if err := <-result; err != nil {
			t.Fatalf("ReleaseTimeout after the worker stopped = %v", err)
		}
		if b.clock.Pending() != 0 {
			t.Fatal("ReleaseTimeout left its timer armed")
		}
		b.release()
	})
}

func TestReleaseTimeoutWithoutWorkersReturnsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2)
		if err := b.pool.ReleaseTimeout(time.Hour); err != nil {
			t.Fatal(err)
		}
		b.release()
	})
}

func TestReleaseContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2)
		busy := newGate()
		b.submit(busy)
		ctx, cancel := context.WithCancel(context.Background())
		result := submitAsync(func() error { return b.pool.ReleaseContext(ctx) })
		cancel()
		if err := <-result; err != context.Canceled {
			t.Fatalf("ReleaseContext = %v, want context.Canceled", err)
		}
		result = submitAsync(func() error { return b.pool.ReleaseContext(context.Background()) })
		select {
		case err := <-result:
			t.Fatalf("ReleaseContext returned %v with a busy worker", err)
		default:
		}
		busy.open()
		if err := <-result; err != nil {
			t.Fatal(err)
		}
		b.release()
	})
}

// A nil context releases without waiting, as ants does; the busy worker
// still finishes its task and exits.
func TestReleaseContextNilDoesNotWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2)
		busy := newGate()
		b.submit(busy)
		var none context.Context
		if err := b.pool.ReleaseContext(none); err != nil {
			t.Fatalf("ReleaseContext(nil) = %v", err)
		}
		if !b.pool.IsClosed() {
			t.Fatal("ReleaseContext(nil) did not release the pool")
		}
		if got := b.pool.Running(); got != 1 {
			t.Fatalf("Running = %d right after, want the busy worker", got)
		}
		busy.open()
		if err := b.pool.ReleaseContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := b.pool.Running(); got != 0 {
			t.Fatalf("Running = %d after waiting, want 0", got)
		}
		b.release()
	})
}

func TestRebootReopensAndContinuesNumbering(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		old := newGate()
		b.submit(old)
		b.pool.Reboot() // not closed: nothing happens
		b.pool.Release()
		if err := b.pool.Submit(func() {}); !errors.Is(err, pool.ErrPoolClosed) {
			t.Fatalf("Submit on a released pool = %v", err)
		}
		b.pool.Reboot()
		if b.pool.IsClosed() {
			t.Fatal("still closed after Reboot")
		}
		// w1 still runs its task from before the Release, and fills the pool.
		next := newGate()
		result := submitAsync(func() error { return b.pool.Submit(next.task()) })
		b.rec.take()
		old.open()
		b.expect(
			"exit w1 (released) @0s",
			"unblock #1 -> w2 @0s", "submit t2 from #1 @0s", "start w2 @0s", "dispatch t2 -> w2 (new) @0s",
		)
		if err := <-result; err != nil {
			t.Fatal(err)
		}
		next.open()
		s := b.pool.Stats()
		if s.Submitted != 2 || s.Rejected != 1 || s.WorkersStarted != 2 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}
