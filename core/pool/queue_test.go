package pool_test

import (
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// With a queue, a submit that finds no worker queues its task and returns;
// a worker that finishes takes the oldest queued task before it would
// park, and goes idle only once the queue is empty.
func TestQueuedTasksAreTakenBeforeParking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithQueue(2))
		gates := []gate{newGate(), newGate(), newGate()}
		for _, g := range gates {
			b.submit(g) // none of them waits
		}
		b.expect(
			"submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s",
			"submit t2 @0s", "queue t2 (1 queued) @0s",
			"submit t3 @0s", "queue t3 (2 queued) @0s",
		)
		if s := b.pool.Snapshot(); len(s.Queued) != 2 || s.Queued[0].Task != 2 || b.pool.Waiting() != 0 {
			t.Fatalf("queued %v, %d waiting", s.Queued, b.pool.Waiting())
		}
		b.clock.Advance(time.Second)
		for _, g := range gates {
			g.open()
		}
		b.expect("dispatch t2 -> w1 (queued) @1s", "dispatch t3 -> w1 (queued) @1s", "idle w1 @1s")
		s := b.pool.Stats()
		if s.Submitted != 3 || s.Queued != 2 || s.WorkersStarted != 1 || s.WorkersReused != 2 || s.Completed != 3 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}

// Once the queue is full, submitters wait in line, and nobody overtakes
// them; they are let into the queue, first come first served, when it has
// drained to half its length, as many as then fit, each woken to return
// nil.
func TestWaitersEnterTheQueueWhenItHasDrainedToHalf(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithQueue(4))
		gates := make([]gate, 8)
		for i := range gates {
			gates[i] = newGate()
		}
		for _, g := range gates[:5] {
			b.submit(g) // one running, four queued
		}
		var results []<-chan error
		for _, g := range gates[5:] {
			results = append(results, submitAsync(func() error { return b.pool.Submit(g.task()) }))
		}
		if b.pool.Waiting() != 3 {
			t.Fatalf("Waiting = %d, want 3", b.pool.Waiting())
		}
		b.rec.take()
		gates[0].open() // three left in the queue: more than half
		b.expect("dispatch t2 -> w1 (queued) @0s")
		gates[1].open() // two left: half; two waiters fit
		b.expect("dispatch t3 -> w1 (queued) @0s",
			"unblock #1 -> queue @0s", "submit t6 from #1 @0s", "queue t6 from #1 (3 queued) @0s",
			"unblock #2 -> queue @0s", "submit t7 from #2 @0s", "queue t7 from #2 (4 queued) @0s")
		for _, r := range results[:2] {
			if err := <-r; err != nil {
				t.Fatalf("a waiter let into the queue: %v", err)
			}
		}
		// A new submit does not overtake the one still waiting.
		late := newGate()
		lateResult := submitAsync(func() error { return b.pool.Submit(late.task()) })
		b.expect("block #4 @0s")
		for _, g := range gates[2:4] {
			g.open()
		}
		b.expect("dispatch t4 -> w1 (queued) @0s", "dispatch t5 -> w1 (queued) @0s",
			"unblock #3 -> queue @0s", "submit t8 from #3 @0s", "queue t8 from #3 (3 queued) @0s",
			"unblock #4 -> queue @0s", "submit t9 from #4 @0s", "queue t9 from #4 (4 queued) @0s")
		if err := <-results[2]; err != nil {
			t.Fatal(err)
		}
		if err := <-lateResult; err != nil {
			t.Fatal(err)
		}
		for _, g := range append(gates[4:], late) {
			g.open()
		}
		if s := b.pool.Stats(); s.Submitted != 9 || s.Queued != 8 || s.Blocked != 4 || s.Completed != 9 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}

// A queued task was accepted: Release does not drop it. The workers run
// the queue out, then stop.
func TestReleaseRunsTheQueuedTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithQueue(2))
		gates := []gate{newGate(), newGate(), newGate()}
		for _, g := range gates {
			b.submit(g)
		}
		b.pool.Release()
		b.rec.take()
		for _, g := range gates {
			g.open()
		}
		b.expect("dispatch t2 -> w1 (queued) @0s", "dispatch t3 -> w1 (queued) @0s", "exit w1 (released) @0s")
		if s := b.pool.Stats(); s.Completed != 3 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}

// A worker lost to runtime.Goexit makes room: the oldest queued task gets
// a new worker, even after Release, and that worker stops with the queue
// empty.
func TestQueuedTasksAreNotStrandedByGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithQueue(2))
		exit := make(chan struct{})
		if err := b.pool.Submit(func() { <-exit; runtime.Goexit() }); err != nil {
			t.Fatal(err)
		}
		g := newGate()
		b.submit(g)
		b.pool.Release()
		b.rec.take()
		close(exit)
		synctest.Wait()
		b.expect("exit w1 (goexit) @0s", "start w2 @0s", "dispatch t2 -> w2 (new) @0s")
		g.open()
		b.expect("exit w2 (released) @0s")
		b.release()
	})
}

func TestNegativeQueueIsAnError(t *testing.T) {
	if _, err := pool.New(1, pool.WithQueue(-1)); !errors.Is(err, pool.ErrInvalidQueue) {
		t.Fatalf("New with a queue of -1: %v, want ErrInvalidQueue", err)
	}
}
