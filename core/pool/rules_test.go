package pool_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// The tests in this file check the decision rules of the package doc one by
// one, through the hooks, inside a synctest bubble with a manual clock: a stall
// shows up as a deadlock panic, not a hung test.

func TestIdleWorkersAreReusedMostRecentFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3)
		first := []gate{newGate(), newGate(), newGate()}
		for _, g := range first {
			b.submit(g)
		}
		b.rec.take()
		for _, i := range []int{1, 0, 2} {
			b.clock.Advance(100 * time.Millisecond)
			first[i].open()
		}
		b.expect("idle w2 @100ms", "idle w1 @200ms", "idle w3 @300ms")
		if got, want := idleIDs(b.pool.Snapshot()), []pool.WorkerID{3, 1, 2}; !slices.Equal(got, want) {
			t.Fatalf("idle in reuse order = %v, want %v", got, want)
		}
		second := []gate{newGate(), newGate(), newGate()}
		for _, g := range second {
			b.submit(g)
		}
		b.expect(
			"submit t4 @300ms", "dispatch t4 -> w3 (idle) @300ms",
			"submit t5 @300ms", "dispatch t5 -> w1 (idle) @300ms",
			"submit t6 @300ms", "dispatch t6 -> w2 (idle) @300ms",
		)
		for _, g := range second {
			g.open()
		}
		b.release()
	})
}

func TestPreAllocReusesOldestFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3, pool.WithPreAlloc(true))
		first := []gate{newGate(), newGate(), newGate()}
		for _, g := range first {
			b.submit(g)
		}
		for _, i := range []int{1, 0, 2} {
			b.clock.Advance(100 * time.Millisecond)
			first[i].open()
		}
		if got, want := idleIDs(b.pool.Snapshot()), []pool.WorkerID{2, 1, 3}; !slices.Equal(got, want) {
			t.Fatalf("idle in reuse order = %v, want %v", got, want)
		}
		b.rec.take()
		second := []gate{newGate(), newGate()}
		for _, g := range second {
			b.submit(g)
		}
		b.expect(
			"submit t4 @300ms", "dispatch t4 -> w2 (idle) @300ms",
			"submit t5 @300ms", "dispatch t5 -> w1 (idle) @300ms",
		)
		for _, g := range second {
			g.open()
		}
		b.release()
	})
}

func TestWorkersStartOnlyWhileRunningBelowCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var p *pool.Pool
		var seen []int
		hooks := pool.Hooks{OnWorkerStart: func(pool.WorkerEvent) {
			// The new worker already counts, before its goroutine runs.
			seen = append(seen, p.Running())
			if p.Running() > p.Cap() {
				t.Errorf("Running %d > Cap %d at a start", p.Running(), p.Cap())
			}
		}}
		p, _ = pool.New(2, pool.WithHooks(hooks))
		g := newGate()
		for range 2 {
			if err := p.Submit(g.task()); err != nil {
				t.Fatal(err)
			}
		}
		waiter := submitAsync(func() error { return p.Submit(g.task()) })
		if p.Running() != 2 || p.Waiting() != 1 || p.Free() != 0 {
			t.Fatalf("Running %d, Waiting %d, Free %d; want 2, 1, 0", p.Running(), p.Waiting(), p.Free())
		}
		g.open()
		if err := <-waiter; err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seen, []int{1, 2}) {
			t.Fatalf("Running seen by OnWorkerStart = %v, want [1 2]", seen)
		}
		if s := p.Stats(); s.PeakRunning != 2 || s.WorkersStarted != 2 || s.WorkersReused != 1 {
			t.Fatalf("stats %+v", s)
		}
		p.Release()
	})
}

func TestWaitersAreServedInArrivalOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		busy := newGate()
		b.submit(busy)
		tasks := []gate{newGate(), newGate(), newGate()}
		var results []<-chan error
		for _, g := range tasks {
			b.clock.Advance(time.Second)
			results = append(results, submitAsync(func() error { return b.pool.Submit(g.task()) }))
		}
		if b.pool.Waiting() != 3 {
			t.Fatalf("Waiting = %d, want 3", b.pool.Waiting())
		}
		b.rec.take()
		busy.open()
		b.expect("unblock #1 -> w1 @3s", "submit t2 from #1 @3s", "dispatch t2 -> w1 (handoff) @3s")
		for i, g := range tasks {
			if err := <-results[i]; err != nil {
				t.Fatalf("waiter %d: %v", i+1, err)
			}
			if got, want := b.pool.Waiting(), 2-i; got != want {
				t.Fatalf("Waiting = %d, want %d", got, want)
			}
			g.open()
		}
		b.expect(
			"unblock #2 -> w1 @3s", "submit t3 from #2 @3s", "dispatch t3 -> w1 (handoff) @3s",
			"unblock #3 -> w1 @3s", "submit t4 from #3 @3s", "dispatch t4 -> w1 (handoff) @3s",
			"idle w1 @3s",
		)
		if s := b.pool.Stats(); s.Blocked != 3 || s.WorkersReused != 3 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}

func TestNonblockingPoolRejectsWhenFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithNonblocking(true))
		g := newGate()
		b.submit(g)
		b.rec.take()
		if err := b.pool.Submit(func() {}); !errors.Is(err, pool.ErrPoolOverload) {
			t.Fatalf("Submit on a full nonblocking pool = %v, want ErrPoolOverload", err)
		}
		b.expect("reject: " + pool.ErrPoolOverload.Error() + " @0s")
		if s := b.pool.Stats(); s.Rejected != 1 || s.Blocked != 0 || s.Submitted != 1 {
			t.Fatalf("stats %+v", s)
		}
		g.open()
		b.release()
	})
}

func TestMaxBlockingCapsTheLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1, pool.WithMaxBlocking(2))
		g := newGate()
		b.submit(g)
		w1 := submitAsync(func() error { return b.pool.Submit(g.task()) })
		w2 := submitAsync(func() error { return b.pool.Submit(g.task()) })
		b.rec.take()
		if err := b.pool.Submit(g.task()); !errors.Is(err, pool.ErrPoolOverload) {
			t.Fatalf("third waiter: %v, want ErrPoolOverload", err)
		}
		b.expect("reject: " + pool.ErrPoolOverload.Error() + " @0s")
		g.open()
		for _, w := range []<-chan error{w1, w2} {
			if err := <-w; err != nil {
				t.Fatal(err)
			}
		}
		b.release()
	})
}

func TestTuneUpStartsWorkersForWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		g := newGate()
		b.submit(g)
		var results []<-chan error
		for range 3 {
			results = append(results, submitAsync(func() error { return b.pool.Submit(g.task()) }))
		}
		b.rec.take()
		b.pool.Tune(3)
		b.expect(
			"unblock #1 -> w2 @0s", "submit t2 from #1 @0s", "start w2 @0s", "dispatch t2 -> w2 (new) @0s",
			"unblock #2 -> w3 @0s", "submit t3 from #2 @0s", "start w3 @0s", "dispatch t3 -> w3 (new) @0s",
		)
		synctest.Wait()
		for _, r := range results[:2] {
			if err := <-r; err != nil {
				t.Fatal(err)
			}
		}
		if b.pool.Cap() != 3 || b.pool.Running() != 3 || b.pool.Waiting() != 1 {
			t.Fatalf("Cap %d Running %d Waiting %d, want 3 3 1", b.pool.Cap(), b.pool.Running(), b.pool.Waiting())
		}
		g.open()
		if err := <-results[2]; err != nil {
			t.Fatal(err)
		}
		b.release()
	})
}

func TestTuneDownStopsWorkersAsTheyFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 3)
		gates := []gate{newGate(), newGate(), newGate()}
		for _, g := range gates {
			b.submit(g)
		}
		waiter := newGate()
		result := submitAsync(func() error { return b.pool.Submit(waiter.task()) })
		b.rec.take()
		b.pool.Tune(1)
		b.expect() // nobody stops at once
		if b.pool.Running() != 3 || b.pool.Cap() != 1 || b.pool.Free() != 0 {
			t.Fatalf("Running %d Cap %d Free %d, want 3 1 0", b.pool.Running(), b.pool.Cap(), b.pool.Free())
		}
		gates[0].open()
		if got := busyIDs(b.pool.Snapshot()); !slices.Equal(got, []pool.WorkerID{2, 3}) {
			t.Fatalf("busy after w1 stopped: %v, want [2 3]", got)
		}
		gates[1].open()
		// Running > Cap: each stops rather than serve the waiter.
		b.expect("exit w1 (shrunk) @0s", "exit w2 (shrunk) @0s")
		if b.pool.Running() != 1 || b.pool.Waiting() != 1 {
			t.Fatalf("Running %d Waiting %d, want 1 1", b.pool.Running(), b.pool.Waiting())
		}
		gates[2].open()
		b.expect("unblock #1 -> w3 @0s", "submit t4 from #1 @0s", "dispatch t4 -> w3 (handoff) @0s")
		if err := <-result; err != nil {
			t.Fatal(err)
		}
		waiter.open()
		b.expect("idle w3 @0s")
		b.release()
	})
}

func TestTuneIsIgnoredWhereItCannotApply(t *testing.T) {
	unlimited, _ := pool.New(0)
	prealloc, _ := pool.New(4, pool.WithPreAlloc(true))
	fixed, _ := pool.New(4)
	for _, tc := range []struct {
		name string
		p    *pool.Pool
		size int
		want int
	}{
		{"unlimited", unlimited, 5, -1},
		{"prealloc", prealloc, 8, 4},
		{"zero", fixed, 0, 4},
		{"negative", fixed, -3, 4},
		{"same", fixed, 4, 4},
	} {
		tc.p.Tune(tc.size)
		if got := tc.p.Cap(); got != tc.want {
			t.Errorf("%s: Cap after Tune(%d) = %d, want %d", tc.name, tc.size, got, tc.want)
		}
	}
	if unlimited.Free() != -1 {
		t.Errorf("Free of an unlimited pool = %d, want -1", unlimited.Free())
	}
}

func TestUnlimitedPoolNeverBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 0)
		g := newGate()
		for range 100 {
			b.submit(g)
		}
		if b.pool.Running() != 100 || b.pool.Waiting() != 0 {
			t.Fatalf("Running %d Waiting %d", b.pool.Running(), b.pool.Waiting())
		}
		g.open()
		b.release()
	})
}

func TestSubmitNilTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		if err := b.pool.Submit(nil); !errors.Is(err, pool.ErrNilTask) {
			t.Fatalf("Submit(nil) = %v", err)
		}
		if err := b.pool.SubmitContext(context.Background(), nil); !errors.Is(err, pool.ErrNilTask) {
			t.Fatalf("SubmitContext(nil) = %v", err)
		}
		b.expect("reject: pool: nil task @0s", "reject: pool: nil task @0s")
		if s := b.pool.Stats(); s.Rejected != 2 || s.Submitted != 0 || b.pool.Running() != 0 {
			t.Fatalf("stats %+v, Running %d", s, b.pool.Running())
		}
		b.release()
	})
}

func TestSubmitContextCancelledWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		busy := newGate()
		b.submit(busy)
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := submitAsync(func() error { return b.pool.SubmitContext(ctx, func() { t.Error("cancelled task ran") }) })
		next := newGate()
		served := submitAsync(func() error { return b.pool.SubmitContext(context.Background(), next.task()) })
		b.rec.take()
		cancel()
		synctest.Wait()
		if err := <-cancelled; err != context.Canceled {
			t.Fatalf("cancelled SubmitContext = %v, want context.Canceled as is", err)
		}
		b.expect("unblock #1: context canceled @0s", "reject from #1: context canceled @0s")
		if b.pool.Waiting() != 1 {
			t.Fatalf("Waiting = %d, want 1", b.pool.Waiting())
		}
		busy.open()
		b.expect("unblock #2 -> w1 @0s", "submit t2 from #2 @0s", "dispatch t2 -> w1 (handoff) @0s")
		if err := <-served; err != nil {
			t.Fatal(err)
		}
		next.open()
		b.release()
	})
}

func TestSubmitContextAlreadyDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		// Even with room for a worker, a done context is not served.
		if err := b.pool.SubmitContext(ctx, func() { t.Error("ran") }); err != context.Canceled {
			t.Fatalf("SubmitContext with a done context = %v", err)
		}
		b.expect("reject: context canceled @0s")
		if b.pool.Running() != 0 {
			t.Fatalf("Running = %d", b.pool.Running())
		}
		b.release()
	})
}

func TestPanicIsRecoveredAndTheWorkerCarriesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var handled []any
		b := newBench(t, 1, pool.WithPanicHandler(func(v any) { handled = append(handled, v) }))
		if err := b.pool.Submit(func() { panic("boom") }); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		b.clock.Advance(time.Millisecond)
		g := newGate()
		b.submit(g)
		g.open()
		b.expect(
			"submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s",
			"panic w1: boom @0s", "idle w1 @0s",
			"submit t2 @1ms", "dispatch t2 -> w1 (idle) @1ms", "idle w1 @1ms",
		)
		if !slices.Equal(handled, []any{"boom"}) {
			t.Fatalf("handler saw %v", handled)
		}
		if s := b.pool.Stats(); s.Panicked != 1 || s.Completed != 2 || s.WorkersStarted != 1 {
			t.Fatalf("stats %+v", s)
		}
		b.release()
	})
}

// logLines is a Logger that keeps what it is given.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func panickingTask() { panic(errors.New("disk on fire")) }

func TestPanicIsLoggedWithItsStackWithoutAHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logger := new(logLines)
		b := newBench(t, 1, pool.WithLogger(logger))
		if err := b.pool.Submit(panickingTask); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if len(logger.lines) != 1 {
			t.Fatalf("logged %d lines, want 1", len(logger.lines))
		}
		line := logger.lines[0]
		for _, want := range []string{"disk on fire", "pool_test.panickingTask", "runtime/debug.Stack"} {
			if !strings.Contains(line, want) {
				t.Errorf("log line lacks %q:\n%s", want, line)
			}
		}
		if b.pool.Running() != 1 || b.pool.Stats().Panicked != 1 {
			t.Fatalf("Running %d, stats %+v", b.pool.Running(), b.pool.Stats())
		}
		b.release()
	})
}

// ants #146: when every task panicked, workers died and waiters could wait
// forever. Here the workers survive and every task runs.
func TestWaitersAreServedWhenEveryTaskPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var handled atomic.Int64
		p, _ := pool.New(2, pool.WithPanicHandler(func(any) { handled.Add(1) }))
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 50 {
					if err := p.Submit(func() { panic("again") }); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if err := p.ReleaseContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		s := p.Stats()
		if s.Submitted != 200 || s.Completed != 200 || s.Panicked != 200 || handled.Load() != 200 {
			t.Fatalf("stats %+v, handled %d", s, handled.Load())
		}
		if s.WorkersStarted != 2 {
			t.Fatalf("WorkersStarted = %d: a panic killed a worker", s.WorkersStarted)
		}
	})
}

func TestGoexitInATaskDoesNotStrandWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 1)
		exit := newGate()
		if err := b.pool.Submit(func() { <-exit; runtime.Goexit() }); err != nil {
			t.Fatal(err)
		}
		next := newGate()
		result := submitAsync(func() error { return b.pool.Submit(next.task()) })
		b.rec.take()
		exit.open()
		b.expect(
			"exit w1 (goexit) @0s",
			"unblock #1 -> w2 @0s", "submit t2 from #1 @0s", "start w2 @0s", "dispatch t2 -> w2 (new) @0s",
		)
		if err := <-result; err != nil {
			t.Fatal(err)
		}
		next.open()
		if s := b.pool.Stats(); s.Completed != 2 {
			t.Fatalf("Completed = %d, want 2", s.Completed)
		}
		b.release()
	})
}
