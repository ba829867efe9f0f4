package pool_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// idleAt makes workers 1..len(at) go idle at the given fake times (offsets
// from t0, ascending), in that order.
func (b *bench) idleAt(at ...time.Duration) {
	b.t.Helper()
	gates := make([]gate, len(at))
	for i := range gates {
		gates[i] = newGate()
		b.submit(gates[i])
	}
	for i, d := range at {
		b.clock.AdvanceTo(t0.Add(d))
		gates[i].open()
	}
}

func TestPurgeStopsExactlyTheExpiredWorkersWhenDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3, pool.WithExpiry(10*time.Second))
		b.idleAt(1*time.Second, 3*time.Second, 7*time.Second)
		b.rec.take()
		if due, ok := b.clock.NextDue(); !ok || !due.Equal(t0.Add(11*time.Second)) {
			t.Fatalf("next due = %v %v, want 11s", due.Sub(t0), ok)
		}
		if s := b.pool.Snapshot(); !s.NextPurge.Equal(t0.Add(11 * time.Second)) {
			t.Fatalf("Snapshot.NextPurge = %v, want 11s", s.NextPurge.Sub(t0))
		}

		b.clock.AdvanceTo(t0.Add(11*time.Second - time.Nanosecond))
		b.expect() // one nanosecond early: nothing
		b.clock.Advance(time.Nanosecond)
		b.expect("purge [w1] next 13s @11s", "exit w1 (purged) @11s")
		if b.pool.Running() != 2 {
			t.Fatalf("Running = %d, want 2", b.pool.Running())
		}
		b.clock.AdvanceTo(t0.Add(20 * time.Second))
		b.expect(
			"purge [w2] next 17s @13s", "exit w2 (purged) @13s",
			"purge [w3] next none @17s", "exit w3 (purged) @17s",
		)
		if b.clock.Pending() != 0 {
			t.Fatalf("%d timers pending on an empty pool", b.clock.Pending())
		}
		s := b.pool.Snapshot()
		if s.Running != 0 || len(s.Idle) != 0 || !s.NextPurge.IsZero() || s.Stats.WorkersPurged != 3 {
			t.Fatalf("snapshot after purges: %+v", s)
		}
		synctest.Wait()
		if n := poolGoroutines(); n != 0 {
			t.Fatalf("%d worker goroutines after every worker was purged", n)
		}
		b.release()
	})
}

func TestPurgeRemovesWorkersIdleForTheSameTimeTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3, pool.WithExpiry(time.Second))
		b.idleAt(0, 0, 0)
		b.rec.take()
		b.clock.Advance(time.Second)
		b.expect("purge [w1 w2 w3] next none @1s",
			"exit w1 (purged) @1s", "exit w2 (purged) @1s", "exit w3 (purged) @1s")
		b.release()
	})
}

// The purge timer is not cancelled when the stack empties. When it then fires
// early it purges nothing and re-arms for the oldest idle worker, so no worker
// ever idles longer than the expiry.
func TestPurgeThatFindsNothingRearmsForTheOldest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithExpiry(10*time.Second))
		b.idleAt(time.Second) // w1 idle at 1s: purge due at 11s
		b.clock.AdvanceTo(t0.Add(2 * time.Second))
		g := newGate()
		b.submit(g) // w1 busy again, stack empty, timer left armed
		b.clock.AdvanceTo(t0.Add(5 * time.Second))
		g.open() // w1 idle at 5s
		b.rec.take()
		b.clock.AdvanceTo(t0.Add(15*time.Second - time.Nanosecond))
		b.expect("purge [] next 15s @11s")
		b.clock.Advance(time.Nanosecond)
		b.expect("purge [w1] next none @15s", "exit w1 (purged) @15s")
		b.release()
	})
}

func TestDisablePurgeKeepsIdleWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2, pool.WithDisablePurge(true), pool.WithExpiry(time.Second))
		b.idleAt(0, 0)
		if b.clock.Pending() != 0 {
			t.Fatalf("a purge timer is armed with the purge disabled")
		}
		b.clock.Advance(time.Hour)
		if s := b.pool.Snapshot(); s.Running != 2 || len(s.Idle) != 2 || !s.PurgeDisabled {
			t.Fatalf("snapshot %+v", s)
		}
		b.release()
	})
}

func TestAPoolWithoutWorkersRunsNoGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		if n := poolGoroutines(); n != 0 {
			t.Fatalf("%d worker goroutines before any pool exists", n)
		}
		b := newBench(t, 4, pool.WithExpiry(time.Second))
		synctest.Wait()
		if n := poolGoroutines(); n != 0 || b.clock.Pending() != 0 {
			t.Fatalf("New started %d goroutines and %d timers", n, b.clock.Pending())
		}
		b.idleAt(0, 0, 0)
		if n := poolGoroutines(); n != 3 {
			t.Fatalf("%d worker goroutines for 3 idle workers", n)
		}
		b.clock.Advance(time.Second)
		synctest.Wait()
		if n := poolGoroutines(); n != 0 || b.clock.Pending() != 0 {
			t.Fatalf("after the purge: %d goroutines, %d timers", n, b.clock.Pending())
		}
		if b.pool.IsClosed() {
			t.Fatal("the pool closed itself")
		}
		b.release()
	})
}

// With the system clock inside a synctest bubble, time is virtual: sleeping
// here moves it on at once, and the purge runs on a real time.AfterFunc.
func TestPurgeOnTheSystemClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		rec := newRecorder(start)
		p, _ := pool.New(2, pool.WithExpiry(time.Second), pool.WithHooks(rec.hooks()))
		g := newGate()
		if err := p.Submit(g.task()); err != nil {
			t.Fatal(err)
		}
		g.open()
		time.Sleep(999 * time.Millisecond) // virtual time
		if p.Running() != 1 {
			t.Fatalf("purged early")
		}
		time.Sleep(time.Millisecond) // virtual time
		synctest.Wait()
		if p.Running() != 0 {
			t.Fatalf("not purged after exactly the expiry")
		}
		want := []string{"submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s", "idle w1 @0s",
			"purge [w1] next none @1s", "exit w1 (purged) @1s"}
		if got := rec.take(); !slices.Equal(got, want) {
			t.Fatalf("hooks %q, want %q", got, want)
		}
		p.Release()
	})
}

// Under CoarseClock a worker is stamped with the pool's start until the
// clock first moves at 500ms, and the purge ticks every expiry from the
// start: the tick at 40ms stops a worker that finished its task at 29ms,
// which the exact clock keeps until 49ms. After 500ms the stamps move on.
func TestCoarseClockPurgesAWorkerUsedAMomentAgo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		exact := newBench(t, 2, pool.WithExpiry(20*ms))
		exact.idleAt(29 * ms)
		exact.rec.take()
		exact.clock.AdvanceTo(t0.Add(40 * ms))
		exact.expect()
		exact.clock.AdvanceTo(t0.Add(49 * ms))
		exact.expect("purge [w1] next none @49ms", "exit w1 (purged) @49ms")
		exact.release()

		b := newBench(t, 2, pool.WithExpiry(20*ms), pool.WithCoarseClock(true))
		b.idleAt(29*ms, 35*ms)
		b.expect("submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s",
			"submit t2 @0s", "start w2 @0s", "dispatch t2 -> w2 (new) @0s", "idle w1 @29ms", "idle w2 @35ms")
		s := b.pool.Snapshot()
		if want := []pool.IdleWorker{{ID: 2, LastUsed: t0}, {ID: 1, LastUsed: t0}}; !slices.Equal(s.Idle, want) {
			t.Fatalf("idle %v, want both stamped with the pool's start", s.Idle)
		}
		if !s.NextPurge.Equal(t0.Add(40 * ms)) {
			t.Fatalf("NextPurge = %v, want the 40ms tick", s.NextPurge.Sub(t0))
		}
		b.clock.AdvanceTo(t0.Add(40 * ms))
		b.expect("purge [w1 w2] next none @40ms", "exit w1 (purged) @40ms", "exit w2 (purged) @40ms")

		// Past 500ms the clock has moved: a worker idle at 503ms is
		// stamped 500ms and lives until the 520ms tick.
		b.clock.AdvanceTo(t0.Add(501 * ms))
		g := newGate()
		b.submit(g)
		b.clock.AdvanceTo(t0.Add(503 * ms))
		g.open()
		if s := b.pool.Snapshot(); len(s.Idle) != 1 || !s.Idle[0].LastUsed.Equal(t0.Add(500*ms)) || !s.NextPurge.Equal(t0.Add(520*ms)) {
			t.Fatalf("idle %v, next purge %v: want w3 stamped 500ms, purged at 520ms", s.Idle, s.NextPurge.Sub(t0))
		}
		b.rec.take()
		b.clock.AdvanceTo(t0.Add(519 * ms))
		b.expect()
		b.clock.AdvanceTo(t0.Add(520 * ms))
		b.expect("purge [w3] next none @520ms", "exit w3 (purged) @520ms")
		if b.clock.Pending() != 0 {
			t.Fatalf("%d timers pending on an empty coarse pool: the coarse clock must need none", b.clock.Pending())
		}
		b.release()
	})
}
