package pool_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
)

func TestFuncPoolInvokesItsFunctionWithEachArgument(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var got []int
		p, err := pool.NewFunc(3, func(n int) {
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			if err := p.Invoke(i); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.ReleaseContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if len(got) != 100 || got[0] != 0 || got[99] != 99 {
			t.Fatalf("invoked with %v", got)
		}
		if s := p.Stats(); s.Submitted != 100 || s.Completed != 100 || s.WorkersStarted > 3 {
			t.Fatalf("stats %+v", s)
		}
		if err := p.Invoke(1); !errors.Is(err, pool.ErrPoolClosed) {
			t.Fatalf("Invoke on a released pool = %v", err)
		}
	})
}

func TestFuncPoolFollowsThePoolRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder(t0)
		clock := manualclock.New(t0)
		p, _ := pool.NewFunc(1, func(g gate) { <-g }, pool.WithClock(clock), pool.WithHooks(rec.hooks()))
		unblockOnFailure(t, p)
		busy := newGate()
		if err := p.Invoke(busy); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := submitAsync(func() error { return p.InvokeContext(ctx, newGate()) })
		next := newGate()
		served := submitAsync(func() error { return p.InvokeContext(context.Background(), next) })
		cancel()
		synctest.Wait()
		busy.open()
		if err := <-cancelled; err != context.Canceled {
			t.Fatalf("cancelled InvokeContext = %v", err)
		}
		if err := <-served; err != nil {
			t.Fatal(err)
		}
		next.open()
		expectLines(t, rec.take(), []string{
			"submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s",
			"block #1 @0s", "block #2 @0s",
			"unblock #1: context canceled @0s", "reject from #1: context canceled @0s",
			"unblock #2 -> w1 @0s", "submit t2 from #2 @0s", "dispatch t2 -> w1 (handoff) @0s",
			"idle w1 @0s",
		})
		p.Release()
	})
}

func TestNewFuncWithoutAFunction(t *testing.T) {
	if _, err := pool.NewFunc[int](1, nil); !errors.Is(err, pool.ErrNilTask) {
		t.Fatalf("NewFunc(nil) = %v, want ErrNilTask", err)
	}
}

func TestInvalidOptionsAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		opt  pool.Option
		want error
	}{
		{"negative expiry", 1, pool.WithExpiry(-1), pool.ErrInvalidExpiry},
		{"prealloc unlimited", 0, pool.WithPreAlloc(true), pool.ErrInvalidPreAllocSize},
		{"prealloc negative", -5, pool.WithPreAlloc(true), pool.ErrInvalidPreAllocSize},
		{"negative max blocking", 1, pool.WithMaxBlocking(-1), pool.ErrInvalidMaxBlocking},
	} {
		if _, err := pool.New(tc.size, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: New = %v, want %v", tc.name, err, tc.want)
		}
		if _, err := pool.NewFunc(tc.size, func(int) {}, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: NewFunc = %v, want %v", tc.name, err, tc.want)
		}
	}
	// Zero values and nils mean the defaults.
	p, err := pool.New(1, nil, pool.WithExpiry(0), pool.WithLogger(nil), pool.WithClock(nil))
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Snapshot(); s.Expiry != pool.DefaultExpiry {
		t.Fatalf("expiry %v, want the default", s.Expiry)
	}
}

// steadyAllocs measures the allocations of one call in steady state: the
// worker already exists, and the pool's records have been recycled once.
func steadyAllocs(t *testing.T, call func()) float64 {
	t.Helper()
	if raceEnabled {
		t.Skip("sync.Pool drops items on purpose under the race detector")
	}
	for range 100 {
		call()
	}
	return testing.AllocsPerRun(1000, call)
}

func TestSubmitAndInvokeAllocateNothing(t *testing.T) {
	noop := func() {}
	p, _ := pool.New(1)
	defer p.Release()
	if n := steadyAllocs(t, func() { _ = p.Submit(noop) }); n != 0 {
		t.Errorf("Submit allocates %v times per call", n)
	}
	fp, _ := pool.NewFunc(1, func(int) {})
	defer fp.Release()
	if n := steadyAllocs(t, func() { _ = fp.Invoke(7) }); n != 0 {
		t.Errorf("Invoke allocates %v times per call", n)
	}
}

// On a pool of one worker, concurrent submitters mostly wait: their waiter
// records must be recycled.
func TestWaitingAllocatesNothing(t *testing.T) {
	p, _ := pool.NewFunc(1, func(int) {})
	defer p.Release()
	var wg sync.WaitGroup
	const submitters = 4
	burst := func() {
		wg.Add(submitters)
		for range submitters {
			go func() {
				defer wg.Done()
				for range 50 {
					_ = p.Invoke(1)
				}
			}()
		}
		wg.Wait()
	}
	n := steadyAllocs(t, burst)
	// Each burst starts 4 goroutines, whose closures are allocated; the 200
	// invokes, most of which wait, allocate nothing.
	if n > submitters {
		t.Errorf("a burst of %d invokes allocates %v times", submitters*50, n)
	}
	if p.Stats().Blocked == 0 {
		t.Error("no submitter waited: the test did not exercise waiting")
	}
}
