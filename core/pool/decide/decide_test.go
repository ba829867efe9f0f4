package decide

import (
	"math/rand/v2"
	"testing"
)

// The decision chain, case by case, in package pool's documented order.
func TestOnSubmit(t *testing.T) {
	for _, c := range []struct {
		name string
		c    Counts
		l    Limits
		want Submit
	}{
		{"an idle worker comes first, even with room", Counts{Idle: 1, Running: 1, Capacity: 4}, Limits{}, ToIdle},
		{"an idle worker comes first, even when nonblocking and full", Counts{Idle: 1, Running: 2, Capacity: 2}, Limits{Nonblocking: true}, ToIdle},
		{"room starts a worker", Counts{Running: 3, Capacity: 4}, Limits{}, NewWorker},
		{"an unlimited pool always has room", Counts{Running: 1 << 20, Capacity: -1, Waiting: 5}, Limits{Nonblocking: true}, NewWorker},
		{"full and nonblocking rejects", Counts{Running: 4, Capacity: 4}, Limits{Nonblocking: true}, Reject},
		{"full with MaxBlocking reached rejects", Counts{Running: 4, Capacity: 4, Waiting: 2}, Limits{MaxBlocking: 2}, Reject},
		{"full with MaxBlocking not reached waits", Counts{Running: 4, Capacity: 4, Waiting: 1}, Limits{MaxBlocking: 2}, Wait},
		{"full and blocking waits", Counts{Running: 4, Capacity: 4, Waiting: 1000}, Limits{}, Wait},
		{"shrunk below running waits", Counts{Running: 6, Capacity: 4}, Limits{}, Wait},
	} {
		if got := OnSubmit(c.c, c.l); got != c.want {
			t.Errorf("%s: OnSubmit(%+v, %+v) = %v, want %v", c.name, c.c, c.l, got, c.want)
		}
	}
}

func TestAfterTask(t *testing.T) {
	for _, c := range []struct {
		name     string
		c        Counts
		released bool
		want     After
	}{
		{"released stops, waiters or not", Counts{Running: 1, Capacity: 4, Waiting: 3}, true, StopReleased},
		{"shrinking stops before serving a waiter", Counts{Running: 5, Capacity: 4, Waiting: 3}, false, StopShrunk},
		{"a waiter is served", Counts{Running: 4, Capacity: 4, Waiting: 1}, false, Handoff},
		{"nobody waits: idle", Counts{Running: 4, Capacity: 4}, false, GoIdle},
		{"unlimited never shrinks", Counts{Running: 9, Capacity: -1}, false, GoIdle},
	} {
		if got := AfterTask(c.c, c.released); got != c.want {
			t.Errorf("%s: AfterTask(%+v, %v) = %v, want %v", c.name, c.c, c.released, got, c.want)
		}
	}
	if !ServeWaiter(Counts{Running: 3, Capacity: 4, Waiting: 1}) || ServeWaiter(Counts{Running: 4, Capacity: 4, Waiting: 1}) || ServeWaiter(Counts{Running: 0, Capacity: 4}) {
		t.Error("ServeWaiter: a waiter is served exactly when there is one and room for a worker")
	}
	if !ArmPurge(true, false) || ArmPurge(true, true) || ArmPurge(false, false) {
		t.Error("ArmPurge: the purge is armed exactly when enabled and not pending")
	}
}

// The queue's decisions (Limits.Queue): after the idle workers and the
// room, before the line, and never past someone in it.
func TestQueueDecisions(t *testing.T) {
	q := Limits{Queue: 4}
	for _, c := range []struct {
		name string
		c    Counts
		l    Limits
		want Submit
	}{
		{"an idle worker before the queue", Counts{Idle: 1, Running: 2, Capacity: 2}, q, ToIdle},
		{"room before the queue", Counts{Running: 1, Capacity: 2}, q, NewWorker},
		{"full: the queue", Counts{Running: 2, Capacity: 2, Queued: 3}, q, Enqueue},
		{"a full queue: wait", Counts{Running: 2, Capacity: 2, Queued: 4}, q, Wait},
		{"room in the queue but someone waits: wait behind them", Counts{Running: 2, Capacity: 2, Queued: 3, Waiting: 1}, q, Wait},
		{"a full queue, nonblocking: reject", Counts{Running: 2, Capacity: 2, Queued: 4}, Limits{Queue: 4, Nonblocking: true}, Reject},
		{"nonblocking queues while it can", Counts{Running: 2, Capacity: 2}, Limits{Queue: 4, Nonblocking: true}, Enqueue},
		{"no queue: wait as before", Counts{Running: 2, Capacity: 2}, Limits{}, Wait},
	} {
		if got := OnSubmit(c.c, c.l); got != c.want {
			t.Errorf("%s: OnSubmit(%+v, %+v) = %v, want %v", c.name, c.c, c.l, got, c.want)
		}
	}
	for _, c := range []struct {
		name     string
		c        Counts
		released bool
		want     After
	}{
		{"a queued task before a waiter", Counts{Running: 2, Capacity: 2, Queued: 1, Waiting: 1}, false, TakeQueued},
		{"a released pool's worker runs the queue out", Counts{Running: 2, Capacity: 2, Queued: 1}, true, TakeQueued},
		{"a shrinking pool's worker stops, queue or not", Counts{Running: 3, Capacity: 2, Queued: 1}, false, StopShrunk},
	} {
		if got := AfterTask(c.c, c.released); got != c.want {
			t.Errorf("%s: AfterTask(%+v, %v) = %v, want %v", c.name, c.c, c.released, got, c.want)
		}
	}
	for _, c := range []struct {
		c    Counts
		want int
	}{
		{Counts{Queued: 3, Waiting: 5}, 0}, // more than half left
		{Counts{Queued: 2, Waiting: 5}, 2}, // half: as many as fit
		{Counts{Queued: 0, Waiting: 1}, 1},
		{Counts{Queued: 1}, 0}, // nobody waits
	} {
		if got := Refill(c.c, q); got != c.want {
			t.Errorf("Refill(%+v, queue 4) = %d, want %d", c.c, got, c.want)
		}
	}
	if Refill(Counts{Waiting: 3}, Limits{}) != 0 {
		t.Error("Refill without a queue lets someone in")
	}
	if !ServeQueued(Counts{Running: 1, Capacity: 2, Queued: 1}) || ServeQueued(Counts{Running: 2, Capacity: 2, Queued: 1}) {
		t.Error("ServeQueued: a queued task gets a worker exactly when there is room")
	}
	if ServeWaiter(Counts{Running: 1, Capacity: 2, Queued: 1, Waiting: 1}) {
		t.Error("ServeWaiter serves the line before the queue")
	}
}

// Expired agrees with a linear count over random sorted lists, ties and
// all.
func TestExpiredIsTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := r.IntN(20)
		at := make([]int64, n)
		var t0 int64
		for i := range at {
			t0 += r.Int64N(3)
			at[i] = t0
		}
		cutoff := r.Int64N(t0+3) - 1
		want := 0
		for _, a := range at {
			if a <= cutoff {
				want++
			}
		}
		if got := Expired(n, func(i int) int64 { return at[i] }, cutoff); got != want {
			t.Fatalf("Expired(%v, cutoff %d) = %d, want %d", at, cutoff, got, want)
		}
	}
}

// The coarse clock: stamps fall back to the last multiple of
// CoarsePeriod, and the purge runs on ticks every expiry from 0, never
// before a stamp is expiry old and never at or before the arming time.
func TestCoarseClock(t *testing.T) {
	const ms = int64(1e6)
	for _, c := range []struct{ now, want int64 }{
		{0, 0}, {29 * ms, 0}, {499 * ms, 0}, {500 * ms, 500 * ms}, {1234 * ms, 1000 * ms},
	} {
		if got := Stamp(c.now, true); got != c.want {
			t.Errorf("Stamp(%dms, coarse) = %dms, want %dms", c.now/ms, got/ms, c.want/ms)
		}
		if got := Stamp(c.now, false); got != c.now {
			t.Errorf("Stamp(%dms, exact) = %dms, want the time itself", c.now/ms, got/ms)
		}
	}
	for _, c := range []struct {
		name                       string
		lastUsed, now, expiry, due int64
	}{
		// A worker idle at 29ms with the stamp of the pool's start: the
		// 40ms tick stops it, 11ms after its last task.
		{"a stale stamp: the next tick", 0, 29 * ms, 20 * ms, 40 * ms},
		{"a worker idle at a tick waits for the next", 0, 40 * ms, 20 * ms, 60 * ms},
		{"a fresh stamp: the first tick it is expiry old", 500 * ms, 503 * ms, 20 * ms, 520 * ms},
		{"a stamp between ticks: rounded up", 500 * ms, 505 * ms, 30 * ms, 540 * ms},
		{"the purge re-arming late: the tick after now", 0, 47 * ms, 20 * ms, 60 * ms},
	} {
		if got := PurgeDue(c.lastUsed, c.now, c.expiry, true); got != c.due {
			t.Errorf("%s: PurgeDue(%dms, %dms, %dms, coarse) = %dms, want %dms", c.name, c.lastUsed/ms, c.now/ms, c.expiry/ms, got/ms, c.due/ms)
		}
		if got := PurgeDue(c.lastUsed, c.now, c.expiry, false); got != c.lastUsed+c.expiry {
			t.Errorf("%s: PurgeDue exact = %dms, want last use + expiry", c.name, got/ms)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		expiry := 1 + r.Int64N(50*ms)
		now := r.Int64N(3000 * ms)
		lastUsed := Stamp(now-r.Int64N(min(now+1, 600*ms)), true)
		due := PurgeDue(lastUsed, now, expiry, true)
		if due%expiry != 0 || due <= now || due < lastUsed+expiry || due-expiry > max(now, lastUsed+expiry-1) {
			t.Fatalf("PurgeDue(%d, %d, %d, coarse) = %d: not the first tick after now with the stamp expiry old", lastUsed, now, expiry, due)
		}
	}
}
