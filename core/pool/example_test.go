package pool_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
)

// Submit tasks, then release the pool and wait for them all.
func Example() {
	p, err := pool.New(10)
	if err != nil {
		panic(err)
	}
	var sum atomic.Int64
	for i := 1; i <= 100; i++ {
		if err := p.Submit(func() { sum.Add(int64(i)) }); err != nil {
			fmt.Println("submit:", err)
		}
	}
	// Wait for every task and every worker.
	if err := p.ReleaseTimeout(10 * time.Second); err != nil {
		fmt.Println("release:", err)
	}
	fmt.Println("sum:", sum.Load())
	fmt.Println("at most 10 workers:", p.Stats().PeakRunning <= 10)
	fmt.Println("submit after release:", p.Submit(func() {}))
	// Output:
	// sum: 5050
	// at most 10 workers: true
	// submit after release: pool: pool is closed
}

// A FuncPool calls one function on typed arguments; Invoke allocates nothing.
func ExampleNewFunc() {
	var mu sync.Mutex
	lengths := map[string]int{}
	p, _ := pool.NewFunc(4, func(word string) {
		mu.Lock()
		defer mu.Unlock()
		lengths[word] = len(word)
	})
	for _, w := range []string{"goroutine", "pool", "worker"} {
		_ = p.Invoke(w)
	}
	_ = p.ReleaseContext(context.Background())
	fmt.Println(lengths)
	// Output: map[goroutine:9 pool:4 worker:6]
}

// A nonblocking pool refuses work it cannot start at once.
func ExampleWithNonblocking() {
	p, _ := pool.New(1, pool.WithNonblocking(true))
	release := make(chan struct{})
	_ = p.Submit(func() { <-release })

	err := p.Submit(func() {})
	fmt.Println(err, errors.Is(err, pool.ErrPoolOverload))

	close(release)
	_ = p.ReleaseContext(context.Background())
	// Output: pool: too many submitters waiting, or nonblocking pool is full true
}

// A manual clock steps a pool through time: the purge runs inside Advance.
func ExampleWithClock() {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := manualclock.New(start)
	idle := make(chan pool.WorkerID, 2)
	p, _ := pool.New(2,
		pool.WithClock(clock),
		pool.WithExpiry(10*time.Second),
		pool.WithHooks(pool.Hooks{
			OnWorkerIdle: func(e pool.WorkerEvent) { idle <- e.Worker },
			OnPurge: func(e pool.PurgeEvent) {
				fmt.Printf("purge at +%v stops %v\n", e.At.Sub(start), e.Workers)
			},
		}))

	_ = p.Submit(func() {})
	fmt.Println("idle: worker", <-idle)
	due, _ := clock.NextDue()
	fmt.Println("next purge at +", due.Sub(start))

	clock.Advance(9 * time.Second)
	fmt.Println("after 9s running:", p.Running())
	clock.Advance(time.Second)
	fmt.Println("after 10s running:", p.Running())
	p.Release()
	// Output:
	// idle: worker 1
	// next purge at + 10s
	// after 9s running: 1
	// purge at +10s stops [1]
	// after 10s running: 0
}

// A MultiPool spreads tasks over several pools.
func ExampleNewMulti() {
	m, _ := pool.NewMulti(4, 8, pool.RoundRobin)
	var done atomic.Int64
	for range 1000 {
		_ = m.Submit(func() { done.Add(1) })
	}
	err := m.ReleaseTimeout(10 * time.Second)
	fmt.Println(done.Load(), err, m.Cap())
	// Output: 1000 <nil> 32
}
