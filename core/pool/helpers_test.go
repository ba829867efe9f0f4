package pool_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
)

// t0 is where every manual clock in these tests starts.
var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// recorder turns hook calls into lines of text, in the order the pool made the
// decisions, with times relative to its origin.
type recorder struct {
	mu     sync.Mutex
	origin time.Time
	lines  []string
}

func newRecorder(origin time.Time) *recorder { return &recorder{origin: origin} }

func (r *recorder) add(at time.Time, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...)+" @"+at.Sub(r.origin).String())
}

// take returns the lines recorded since the last take.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	lines := r.lines
	r.lines = nil
	return lines
}

func from(waiter uint64) string {
	if waiter == 0 {
		return ""
	}
	return fmt.Sprintf(" from #%d", waiter)
}

func (r *recorder) hooks() pool.Hooks {
	return pool.Hooks{
		OnSubmit: func(e pool.SubmitEvent) { r.add(e.At, "submit t%d%s", e.Task, from(e.Waiter)) },
		OnDispatch: func(e pool.DispatchEvent) {
			r.add(e.At, "dispatch t%d -> w%d (%s)", e.Task, e.Worker, e.Kind)
		},
		OnWorkerStart: func(e pool.WorkerEvent) { r.add(e.At, "start w%d", e.Worker) },
		OnWorkerIdle:  func(e pool.WorkerEvent) { r.add(e.At, "idle w%d", e.Worker) },
		OnWorkerExit: func(e pool.WorkerExitEvent) {
			r.add(e.At, "exit w%d (%s)", e.Worker, e.Reason)
		},
		OnPurge: func(e pool.PurgeEvent) {
			next := "none"
			if !e.Next.IsZero() {
				next = e.Next.Sub(r.origin).String()
			}
			ids := make([]string, len(e.Workers))
			for i, id := range e.Workers {
				ids[i] = fmt.Sprintf("w%d", id)
			}
			r.add(e.At, "purge [%s] next %s", strings.Join(ids, " "), next)
		},
		OnPanic: func(e pool.PanicEvent) { r.add(e.At, "panic w%d: %v", e.Worker, e.Value) },
		OnQueue: func(e pool.QueueEvent) { r.add(e.At, "queue t%d%s (%d queued)", e.Task, from(e.Waiter), e.Len) },
		OnBlock: func(e pool.WaiterEvent) { r.add(e.At, "block #%d", e.Waiter) },
		OnUnblock: func(e pool.UnblockEvent) {
			if e.Err != nil {
				r.add(e.At, "unblock #%d: %v", e.Waiter, e.Err)
				return
			}
			if e.Worker == 0 {
				r.add(e.At, "unblock #%d -> queue", e.Waiter)
				return
			}
			r.add(e.At, "unblock #%d -> w%d", e.Waiter, e.Worker)
		},
		OnReject: func(e pool.RejectEvent) { r.add(e.At, "reject%s: %v", from(e.Waiter), e.Err) },
	}
}

// bench is a test fixture inside a synctest bubble: a pool on a manual clock
// whose hooks are recorded.
type bench struct {
	t     *testing.T
	clock *manualclock.Clock
	rec   *recorder
	pool  *pool.Pool
}

func newBench(t *testing.T, size int, opts ...pool.Option) *bench {
	t.Helper()
	b := &bench{t: t, clock: manualclock.New(t0), rec: newRecorder(t0)}
	opts = append([]pool.Option{pool.WithClock(b.clock), pool.WithHooks(b.rec.hooks())}, opts...)
	p, err := pool.New(size, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	b.pool = p
	unblockOnFailure(t, p)
	return b
}

// gate is a task that runs until its gate is opened.
type gate chan struct{}

// shut lists the gates not yet opened, so that a failed test can open them
// all: otherwise synctest reports the blocked workers as a deadlock and the
// test's own message is lost. Tests in this package do not run in parallel.
var shut = map[gate]bool{}

func newGate() gate {
	g := make(gate)
	shut[g] = true
	return g
}

func (g gate) task() func() { return func() { <-g } }

// open lets the task finish and waits until its worker has decided what to do
// next (everything in the bubble is blocked again).
func (g gate) open() {
	delete(shut, g)
	close(g)
	synctest.Wait()
}

// unblockOnFailure makes a failed test release p and open every gate it
// made before its bubble ends.
func unblockOnFailure(t *testing.T, p interface{ Release() }) {
	clear(shut) // gates of earlier tests belong to other bubbles
	t.Cleanup(func() {
		defer clear(shut)
		if !t.Failed() {
			return
		}
		p.Release()
		for g := range shut {
			close(g)
		}
	})
}

// submit submits g's task and fails the test if Submit does not return nil.
func (b *bench) submit(g gate) {
	b.t.Helper()
	if err := b.pool.Submit(g.task()); err != nil {
		b.t.Fatalf("Submit: %v", err)
	}
}

// submitAsync submits from a new goroutine (it may block) and returns where
// its result will arrive; it returns once the submitter is blocked or done.
func submitAsync(submit func() error) <-chan error {
	done := make(chan error, 1)
	go func() { done <- submit() }()
	synctest.Wait()
	return done
}

// expect compares the hooks recorded since the last call with want.
func (b *bench) expect(want ...string) {
	b.t.Helper()
	expectLines(b.t, b.rec.take(), want)
}

func expectLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hooks:\n got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// release releases the pool and waits for its goroutines, within the bubble.
func (b *bench) release() {
	b.t.Helper()
	b.pool.Release()
	synctest.Wait()
	if n := poolGoroutines(); n != 0 {
		b.t.Fatalf("%d worker goroutines left after Release", n)
	}
}

// poolGoroutines counts the goroutines running a worker of any pool.
func poolGoroutines() int {
	return goroutinesIn("github.com/schedlab/schedlab/core/pool.(*worker[...]).run(")
}

// idleIDs and busyIDs list a snapshot's workers.
func idleIDs(s pool.Snapshot) []pool.WorkerID {
	ids := []pool.WorkerID{}
	for _, w := range s.Idle {
		ids = append(ids, w.ID)
	}
	return ids
}

func busyIDs(s pool.Snapshot) []pool.WorkerID {
	ids := []pool.WorkerID{}
	for _, w := range s.Busy {
		ids = append(ids, w.ID)
	}
	return ids
}
