package pool_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// chaosTasks is the number of tasks per chaos run; see raceEnabled.
func chaosTasks() int {
	if raceEnabled {
		return 100_000
	}
	return 200_000
}

// TestChaos submits from several goroutines while another one tunes,
// releases and reboots the pool at random, and a watcher samples it. Every
// accepted task must run exactly once, every other must have got an error,
// and no worker may start above the capacity.
//
// The chaos is paced by submissions, not by time: the disrupter acts after
// a drawn number of submit calls, and a release lasts a drawn number of
// them, after which the next submitter reboots the pool. So how many tasks
// the chaos may reject is bounded by what it did, whatever the OS does
// with the threads.
func TestChaos(t *testing.T) {
	for _, c := range []struct {
		name     string
		preAlloc bool
		queue    int
	}{{"stack", false, 0}, {"prealloc", true, 0}, {"queue", false, 32}} {
		t.Run(c.name, func(t *testing.T) { chaos(t, c.preAlloc, c.queue, 0xC0FFEE) })
	}
}

func chaos(t *testing.T, preAlloc bool, queue int, seed uint64) {
	const (
		submitters = 4
		maxCap     = 64
		maxWindow  = 20 // submit calls a release lasts, at most
	)
	tasks := chaosTasks()
	if preAlloc {
		tasks /= 2
	}
	var (
		ran            = make([]atomic.Int32, tasks)
		accepted       = make([]bool, tasks) // each index written by one submitter
		executing      atomic.Int64
		overExecuting  atomic.Int64
		overStarted    atomic.Int64
		overObserved   atomic.Int64
		badSnapshots   atomic.Int64
		attempts       atomic.Int64 // submit calls started
		releases       atomic.Int64
		arms           atomic.Int64 // contexts set to be cancelled
		reopenAt       atomic.Int64 // the submit call from which a release ends
		p              *pool.Pool
		submittersDone = make(chan struct{})
	)
	hooks := pool.Hooks{OnWorkerStart: func(pool.WorkerEvent) {
		// Under the lock: the exact check of "never start above Cap".
		if p.Running() > p.Cap() {
			overStarted.Add(1)
		}
	}}
	p, err := pool.New(maxCap, pool.WithHooks(hooks), pool.WithPreAlloc(preAlloc), pool.WithQueue(queue),
		pool.WithExpiry(time.Millisecond), pool.WithPanicHandler(func(any) {}))
	if err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	for s := range submitters {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel() }()
			for i := s; i < tasks; i += submitters {
				if p.IsClosed() && attempts.Load() >= reopenAt.Load() {
					p.Reboot() // the release has lasted its count of calls
				}
				task := func() {
					if executing.Add(1) > maxCap {
						overExecuting.Add(1)
					}
					ran[i].Add(1)
					executing.Add(-1)
					if i%997 == 0 {
						panic("chaos")
					}
				}
				var err error
				if s == 0 {
					// One submitter can be cancelled while it waits.
					if i%1024 == 0 {
						cancel()
						ctx, cancel = context.WithCancel(context.Background())
						arms.Add(1)
						go cancelSoon(cancel)
					}
					attempts.Add(1)
					err = p.SubmitContext(ctx, task)
					if errors.Is(err, context.Canceled) {
						// One task per armed context is lost to it.
						ctx = context.Background()
					}
				} else {
					attempts.Add(1)
					err = p.Submit(task)
				}
				switch {
				case err == nil:
					accepted[i] = true
				case errors.Is(err, pool.ErrPoolClosed), errors.Is(err, context.Canceled):
				default:
					t.Errorf("task %d: unexpected error %v", i, err)
				}
			}
		})
	}

	var chaosWG sync.WaitGroup
	chaosWG.Go(func() { // the disrupter
		rng := rand.New(rand.NewPCG(seed, 1))
		// after waits until n more submit calls have started; false once
		// the submitters are done.
		after := func(n int) bool {
			target := attempts.Load() + int64(n)
			for attempts.Load() < target {
				select {
				case <-submittersDone:
					return false
				default:
				}
				runtime.Gosched()
			}
			return true
		}
		for {
			select {
			case <-submittersDone:
				return
			default:
			}
			switch op := rng.IntN(32); {
			case op == 0:
				reopenAt.Store(attempts.Load() + int64(rng.IntN(maxWindow)))
				p.Release()
				releases.Add(1)
			case op == 1:
				p.Reboot() // usually a no-op: the pool is open
			default:
				p.Tune(1 + rng.IntN(maxCap))
			}
			after(1 + rng.IntN(200))
		}
	})
	chaosWG.Go(func() { // the watcher
		var snap pool.Snapshot
		for n := 0; ; n++ {
			select {
			case <-submittersDone:
				return
			default:
			}
			if p.Running() > maxCap || executing.Load() > maxCap {
				overObserved.Add(1)
			}
			if n%64 == 0 {
				p.SnapshotInto(&snap)
				if snap.Running != len(snap.Idle)+len(snap.Busy) || snap.Running > maxCap ||
					(len(snap.Waiters) > 0 && len(snap.Idle) > 0) {
					badSnapshots.Add(1)
				}
			}
			runtime.Gosched()
		}
	})

	wg.Wait()
	close(submittersDone)
	chaosWG.Wait()
	p.Reboot() // in case the disrupter's last act was a Release
	if err := p.ReleaseContext(context.Background()); err != nil {
		t.Fatal(err)
	}

	var nAccepted, nRejected uint64
	for i := range tasks {
		runs := ran[i].Load()
		if accepted[i] {
			nAccepted++
			if runs != 1 {
				t.Fatalf("accepted task %d ran %d times", i, runs)
			}
		} else {
			nRejected++
			if runs != 0 {
				t.Fatalf("rejected task %d ran %d times", i, runs)
			}
		}
	}
	s := p.Stats()
	t.Logf("%d tasks: %d accepted, %d rejected after %d releases and %d armed contexts; stats %+v",
		tasks, nAccepted, nRejected, releases.Load(), arms.Load(), s)
	switch {
	case s.Submitted != nAccepted || s.Rejected != nRejected:
		t.Errorf("stats count %d accepted and %d rejected, want %d and %d", s.Submitted, s.Rejected, nAccepted, nRejected)
	case s.Completed != s.Submitted:
		t.Errorf("%d completed of %d submitted", s.Completed, s.Submitted)
	case s.WorkersStarted+s.WorkersReused != s.Submitted:
		t.Errorf("started %d + reused %d != submitted %d", s.WorkersStarted, s.WorkersReused, s.Submitted)
	case s.PeakRunning > maxCap:
		t.Errorf("peak running %d > %d", s.PeakRunning, maxCap)
	}
	// A release rejects the calls started while it lasts and those in
	// flight or waiting when it begins (one per submitter), and each
	// armed context loses one task.
	if limit := uint64(releases.Load())*(maxWindow+2*submitters) + uint64(arms.Load()); nRejected > limit {
		t.Errorf("%d tasks rejected after %d releases and %d armed contexts: more than the %d they account for",
			nRejected, releases.Load(), arms.Load(), limit)
	}
	for what, n := range map[string]int64{
		"workers started above Cap":            overStarted.Load(),
		"tasks running at once above maxCap":   overExecuting.Load(),
		"observations of Running above maxCap": overObserved.Load(),
		"inconsistent snapshots":               badSnapshots.Load(),
	} {
		if n != 0 {
			t.Errorf("%d %s", n, what)
		}
	}
}

// pause yields the processor n times: a delay that depends on no clock.
func pause(n int) {
	for range n {
		runtime.Gosched()
	}
}

func cancelSoon(cancel context.CancelFunc) {
	pause(10)
	cancel()
}
