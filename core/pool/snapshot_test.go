package pool_test

import (
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// normal makes empty slices nil, so that snapshots compare by content.
func normal(s pool.Snapshot) pool.Snapshot {
	if len(s.Idle) == 0 {
		s.Idle = nil
	}
	if len(s.Busy) == 0 {
		s.Busy = nil
	}
	if len(s.Waiters) == 0 {
		s.Waiters = nil
	}
	return s
}

func TestSnapshotDescribesThePool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3, pool.WithExpiry(10*time.Second), pool.WithMaxBlocking(5))
		at := func(d time.Duration) time.Time { return t0.Add(d) }
		g1, g2, g3 := newGate(), newGate(), newGate()
		b.submit(g1)
		b.submit(g2)
		b.submit(g3)
		b.clock.AdvanceTo(at(time.Second))
		g2.open()
		b.clock.AdvanceTo(at(2 * time.Second))
		g1.open()

		got := b.pool.Snapshot()
		want := pool.Snapshot{
			At:          at(2 * time.Second),
			Capacity:    3,
			Running:     3,
			Idle:        []pool.IdleWorker{{ID: 1, LastUsed: at(2 * time.Second)}, {ID: 2, LastUsed: at(time.Second)}},
			Busy:        []pool.BusyWorker{{ID: 3, Since: at(0)}},
			Waiters:     []pool.WaitingSubmitter{},
			NextPurge:   at(11 * time.Second),
			Expiry:      10 * time.Second,
			MaxBlocking: 5,
			Stats:       pool.Stats{Submitted: 3, Completed: 2, WorkersStarted: 3, PeakRunning: 3},
		}
		if !reflect.DeepEqual(normal(got), normal(want)) {
			t.Fatalf("snapshot\n got %+v\nwant %+v", got, want)
		}

		b.clock.AdvanceTo(at(3 * time.Second))
		g4, g5 := newGate(), newGate()
		b.submit(g4)
		b.submit(g5)
		b.clock.AdvanceTo(at(4 * time.Second))
		r1 := submitAsync(func() error { return b.pool.Submit(func() {}) })
		b.clock.AdvanceTo(at(5 * time.Second))
		r2 := submitAsync(func() error { return b.pool.Submit(func() {}) })

		// SnapshotInto reuses the slices of the snapshot it fills.
		idleBuf := got.Idle
		b.pool.SnapshotInto(&got)
		want = pool.Snapshot{
			At:       at(5 * time.Second),
			Capacity: 3,
			Running:  3,
			Idle:     []pool.IdleWorker{},
			Busy: []pool.BusyWorker{
				{ID: 1, Since: at(3 * time.Second)}, {ID: 2, Since: at(3 * time.Second)}, {ID: 3, Since: at(0)},
			},
			Waiters:     []pool.WaitingSubmitter{{Seq: 1, Since: at(4 * time.Second)}, {Seq: 2, Since: at(5 * time.Second)}},
			NextPurge:   at(11 * time.Second),
			Expiry:      10 * time.Second,
			MaxBlocking: 5,
			Stats: pool.Stats{Submitted: 5, Completed: 2, Blocked: 2, WorkersStarted: 3, WorkersReused: 2,
				PeakRunning: 3},
		}
		if !reflect.DeepEqual(normal(got), normal(want)) {
			t.Fatalf("snapshot\n got %+v\nwant %+v", got, want)
		}
		if cap(got.Idle) != cap(idleBuf) {
			t.Fatal("SnapshotInto did not reuse the Idle slice")
		}
		g3.open()
		g4.open()
		g5.open()
		for _, r := range []<-chan error{r1, r2} {
			if err := <-r; err != nil {
				t.Fatal(err)
			}
		}
		b.pool.Release()
		if s := b.pool.Snapshot(); !s.Closed || s.Running != 0 || len(s.Idle) != 0 || !s.NextPurge.IsZero() {
			t.Fatalf("snapshot after Release: %+v", s)
		}
		b.release()
	})
}
