package pool_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// script drives a pool from one goroutine through every kind of decision,
// waiting after each step until the pool is quiet, and returns the hooks it
// saw. Nothing in it depends on the scheduler: the same script must give the
// same decisions, in the same order, every time.
func script(t *testing.T) []string {
	var lines []string
	synctest.Test(t, func(t *testing.T) {
		b := newBench(t, 2, pool.WithExpiry(10*time.Second), pool.WithPanicHandler(func(any) {}))
		step := func(d time.Duration) { synctest.Wait(); b.clock.Advance(d); synctest.Wait() }
		g := []gate{newGate(), newGate(), newGate(), newGate(), newGate(), newGate()}
		b.submit(g[0])
		step(time.Second)
		b.submit(g[1])
		step(time.Second)
		w1 := submitAsync(func() error { return b.pool.Submit(g[2].task()) })
		ctx, cancel := context.WithCancel(context.Background())
		w2 := submitAsync(func() error { return b.pool.SubmitContext(ctx, g[3].task()) })
		w3 := submitAsync(func() error { return b.pool.Submit(g[4].task()) })
		cancel()
		synctest.Wait()
		g[1].open()
		step(time.Second)
		b.pool.Tune(3)
		step(time.Second)
		g[0].open()
		g[2].open()
		step(time.Second)
		if err := b.pool.Submit(func() { panic("p") }); err != nil {
			t.Error(err)
		}
		step(9 * time.Second)
		b.pool.Tune(1)
		g[4].open()
		step(20 * time.Second)
		b.submit(g[5])
		b.pool.Release()
		g[5].open()
		for _, w := range []<-chan error{w1, w2, w3} {
			<-w
		}
		lines = b.rec.take()
		b.release()
	})
	return lines
}

func TestDecisionsAreAFunctionOfTheScript(t *testing.T) {
	want := []string{
		"submit t1 @0s", "start w1 @0s", "dispatch t1 -> w1 (new) @0s",
		"submit t2 @1s", "start w2 @1s", "dispatch t2 -> w2 (new) @1s",
		"block #1 @2s", "block #2 @2s", "block #3 @2s",
		"unblock #2: context canceled @2s", "reject from #2: context canceled @2s",
		"unblock #1 -> w2 @2s", "submit t3 from #1 @2s", "dispatch t3 -> w2 (handoff) @2s",
		"unblock #3 -> w3 @3s", "submit t4 from #3 @3s", "start w3 @3s", "dispatch t4 -> w3 (new) @3s",
		"idle w1 @4s", "idle w2 @4s",
		"submit t5 @5s", "dispatch t5 -> w2 (idle) @5s", "panic w2: p @5s", "idle w2 @5s",
		"purge [w1] next 15s @14s", "exit w1 (purged) @14s",
		"exit w3 (shrunk) @14s",
		"purge [w2] next none @15s", "exit w2 (purged) @15s",
		"submit t6 @34s", "start w4 @34s", "dispatch t6 -> w4 (new) @34s",
		"exit w4 (released) @34s",
	}
	for range 3 {
		expectLines(t, script(t), want)
	}
}
