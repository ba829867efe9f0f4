package pool_test

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/cputime"

	"github.com/panjf2000/ants/v2"
	"golang.org/x/sync/errgroup"

	"github.com/schedlab/schedlab/core/pool"
)

// The benchmarks compare this pool with ants v2.12.1, with a goroutine per
// task (raw), and with errgroup.Group.SetLimit, on the same workloads. Each
// implementation is a sub-benchmark named impl=NAME, so that
//
//	go test -run XXX -bench . -benchmem -count 6 ./core/pool/ | tee /tmp/pool-bench.txt
//	benchstat -col /impl /tmp/pool-bench.txt
//
// puts them side by side. A task is one func value made once per benchmark,
// so B/op and allocs/op are what the implementation itself allocates.
// scripts/bench-pool.sh runs this pool and ants alternately on the four
// shapes of ants' benchmarks, for the README's table.

// measureCPUTime starts measuring the CPU time the whole process spends, on
// every processor; the function it returns reports it to b as cpu-ns/op. The
// machines this is measured on are shared, and wall time per operation moves
// with their load; CPU time moves much less, so it tells which of two
// implementations does less work even when sec/op cannot.
func measureCPUTime(b *testing.B) (report func()) {
	start, ok := cputime.Process()
	return func() {
		if end, _ := cputime.Process(); ok {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// executor is one implementation under test.
type executor interface {
	// bind returns a function that submits task once.
	bind(task func()) (submit func())
	// close releases the executor and waits for its goroutines.
	close()
}

type implementation struct {
	name string
	open func(b *testing.B, capacity int) executor
}

var implementations = []implementation{
	{"pool", openPool},
	{"pool-queue", openPoolQueue},
	{"ants", openAnts},
	{"raw", openRaw},
	{"errgroup", openErrgroup},
}

// benchExpiry keeps workers alive across one benchmark, as ants' own
// benchmarks do.
const benchExpiry = 10 * time.Second

type poolExecutor struct{ p *pool.Pool }

func openPool(b *testing.B, capacity int) executor {
	p, err := pool.New(capacity, pool.WithExpiry(benchExpiry))
	if err != nil {
		b.Fatal(err)
	}
	return poolExecutor{p}
}

// openPoolQueue is this pool with a queue as long as its capacity
// (Options.Queue): workers drain queued tasks before they park.
func openPoolQueue(b *testing.B, capacity int) executor {
	p, err := pool.New(capacity, pool.WithExpiry(benchExpiry), pool.WithQueue(capacity))
	if err != nil {
		b.Fatal(err)
	}
	return poolExecutor{p}
}

func (e poolExecutor) bind(task func()) func() { return func() { _ = e.p.Submit(task) } }
func (e poolExecutor) close()                  { _ = e.p.ReleaseTimeout(time.Minute) }

type antsExecutor struct{ p *ants.Pool }

func openAnts(b *testing.B, capacity int) executor {
	p, err := ants.NewPool(capacity, ants.WithExpiryDuration(benchExpiry))
	if err != nil {
		b.Fatal(err)
	}
	return antsExecutor{p}
}

func (e antsExecutor) bind(task func()) func() { return func() { _ = e.p.Submit(task) } }
func (e antsExecutor) close()                  { _ = e.p.ReleaseTimeout(time.Minute) }

// rawExecutor starts a goroutine per task; capacity means nothing to it.
type rawExecutor struct{}

func openRaw(*testing.B, int) executor { return rawExecutor{} }

func (rawExecutor) bind(task func()) func() { return func() { go task() } }
func (rawExecutor) close()                  {}

type errgroupExecutor struct{ g *errgroup.Group }

func openErrgroup(_ *testing.B, capacity int) executor {
	g := new(errgroup.Group)
	g.SetLimit(capacity)
	return errgroupExecutor{g}
}

func (e errgroupExecutor) bind(task func()) func() {
	wrapped := func() error { task(); return nil }
	return func() { e.g.Go(wrapped) }
}
func (e errgroupExecutor) close() { _ = e.g.Wait() }

// benchBatches runs, for each implementation, batches of tasks runs of work
// at the given capacity: one batch (submit them all, wait for them all) per
// iteration.
func benchBatches(b *testing.B, capacity, tasks int, work func()) {
	for _, impl := range implementations {
		b.Run("impl="+impl.name, func(b *testing.B) {
			ex := impl.open(b, capacity)
			defer ex.close()
			var wg sync.WaitGroup
			submit := ex.bind(func() { work(); wg.Done() })
			b.ReportAllocs()
			reportCPUTime := measureCPUTime(b)
			for b.Loop() {
				wg.Add(tasks)
				for range tasks {
					submit()
				}
				wg.Wait()
			}
			reportCPUTime()
		})
	}
}

// BenchmarkSleep1M is ants' headline benchmark: a million tasks that each
// sleep 10ms, at most 50,000 at a time.
func BenchmarkSleep1M(b *testing.B) {
	benchBatches(b, 50_000, 1_000_000, func() { time.Sleep(10 * time.Millisecond) })
}

// BenchmarkSleep100k: 100,000 tasks that each block for 1ms, 1,000 at a time.
func BenchmarkSleep100k(b *testing.B) {
	benchBatches(b, 1000, 100_000, func() { time.Sleep(time.Millisecond) })
}

// BenchmarkCPU100k: 100,000 tasks of a fixed computation each (about 10µs
// on the machine this was written on), 1,000 at a time.
func BenchmarkCPU100k(b *testing.B) {
	work := func() { spinSink.Add(spin(spinRounds)) }
	benchBatches(b, 1000, 100_000, work)
	// impl=inline runs the same tasks one after another on the
	// benchmark's goroutine, with no pool: the CPU time of the work alone.
	// No executor can go below it, so its ratio to ants' is the floor of
	// any executor's ratio on this shape.
	b.Run("impl=inline", func(b *testing.B) {
		b.ReportAllocs()
		reportCPUTime := measureCPUTime(b)
		for b.Loop() {
			for range 100_000 {
				work()
			}
		}
		reportCPUTime()
	})
}

// spinRounds is the work of one CPU-bound task, as a count of rounds, fixed
// in the source. It was once calibrated against the wall clock in each test
// process, so the work per task varied threefold between processes on a
// loaded machine, and a ratio of two processes' results meant nothing.
const spinRounds = 2500

var spinSink atomic.Uint64

// spin is a fixed amount of deterministic work: n rounds of xorshift.
func spin(n int) uint64 {
	x := uint64(88172645463325252)
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// BenchmarkParallelSubmit: every processor submits trivial tasks as fast as
// it can; ns/op is the cost of one task end to end.
func BenchmarkParallelSubmit(b *testing.B) {
	for _, impl := range implementations {
		b.Run("impl="+impl.name, func(b *testing.B) {
			ex := impl.open(b, 1000)
			defer ex.close()
			var wg sync.WaitGroup
			submit := ex.bind(wg.Done)
			b.ReportAllocs()
			b.ResetTimer()
			reportCPUTime := measureCPUTime(b)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					wg.Add(1)
					submit()
				}
			})
			wg.Wait()
			reportCPUTime()
		})
	}
}

// BenchmarkTypedCall compares a FuncPool's Invoke of a small struct with the
// Submit of a closure over the same values, in this pool and in ants: the
// closure costs an allocation that Invoke avoids.
func BenchmarkTypedCall(b *testing.B) {
	var sink atomic.Int64
	type arg struct {
		wg *sync.WaitGroup
		n  int
	}
	work := func(a arg) { sink.Add(int64(a.n)); a.wg.Done() }
	parallel := func(b *testing.B, call func(wg *sync.WaitGroup, n int)) {
		var wg sync.WaitGroup
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			n := rand.IntN(100)
			for pb.Next() {
				wg.Add(1)
				call(&wg, n)
			}
		})
		wg.Wait()
	}
	b.Run("call=closure/impl=pool", func(b *testing.B) {
		p, _ := pool.New(1000, pool.WithExpiry(benchExpiry))
		defer func() { _ = p.ReleaseTimeout(time.Minute) }()
		parallel(b, func(wg *sync.WaitGroup, n int) { _ = p.Submit(func() { work(arg{wg, n}) }) })
	})
	b.Run("call=invoke/impl=pool", func(b *testing.B) {
		p, _ := pool.NewFunc(1000, work, pool.WithExpiry(benchExpiry))
		defer func() { _ = p.ReleaseTimeout(time.Minute) }()
		parallel(b, func(wg *sync.WaitGroup, n int) { _ = p.Invoke(arg{wg, n}) })
	})
	b.Run("call=closure/impl=ants", func(b *testing.B) {
		p, _ := ants.NewPool(1000, ants.WithExpiryDuration(benchExpiry))
		defer func() { _ = p.ReleaseTimeout(time.Minute) }()
		parallel(b, func(wg *sync.WaitGroup, n int) { _ = p.Submit(func() { work(arg{wg, n}) }) })
	})
	b.Run("call=invoke/impl=ants", func(b *testing.B) {
		p, _ := ants.NewPoolWithFuncGeneric(1000, work, ants.WithExpiryDuration(benchExpiry))
		defer func() { _ = p.ReleaseTimeout(time.Minute) }()
		parallel(b, func(wg *sync.WaitGroup, n int) { _ = p.Invoke(arg{wg, n}) })
	})
}

// BenchmarkHooks measures the hot path with no hooks and with all ten set to
// functions that do next to nothing: with none, each costs one nil check.
func BenchmarkHooks(b *testing.B) {
	var calls int // hooks run under the pool's lock
	count := func() { calls++ }
	all := pool.Hooks{
		OnSubmit:      func(pool.SubmitEvent) { count() },
		OnDispatch:    func(pool.DispatchEvent) { count() },
		OnWorkerStart: func(pool.WorkerEvent) { count() },
		OnWorkerIdle:  func(pool.WorkerEvent) { count() },
		OnWorkerExit:  func(pool.WorkerExitEvent) { count() },
		OnPurge:       func(pool.PurgeEvent) { count() },
		OnPanic:       func(pool.PanicEvent) { count() },
		OnBlock:       func(pool.WaiterEvent) { count() },
		OnUnblock:     func(pool.UnblockEvent) { count() },
		OnReject:      func(pool.RejectEvent) { count() },
	}
	for _, tc := range []struct {
		name  string
		hooks pool.Hooks
	}{{"off", pool.Hooks{}}, {"on", all}} {
		for _, capacity := range []int{1000, 2} { // mostly idle reuse; mostly waiting
			b.Run("cap="+strconv.Itoa(capacity)+"/hooks="+tc.name, func(b *testing.B) {
				p, _ := pool.New(capacity, pool.WithHooks(tc.hooks), pool.WithExpiry(benchExpiry))
				defer func() { _ = p.ReleaseTimeout(time.Minute) }()
				var wg sync.WaitGroup
				done := wg.Done // one method value, not one per call
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						wg.Add(1)
						_ = p.Submit(done)
					}
				})
				wg.Wait()
			})
		}
	}
}
