package bench

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/taskmode"
)

// cancelCheckEvery is how often (in tasks) the submitting loop looks at its
// context: often enough to stop within a moment, rarely enough to cost
// nothing next to a task.
const cancelCheckEvery = 1024

// execution is what a mode leaves behind once its tasks have finished.
type execution struct {
	// pool is the pool mode's pool, still open: its Stats are read and it
	// is released after the run's clock has stopped.
	pool *pool.Pool
}

// execute runs every task the way mode does, the way a program would
// write it, and returns when the last one has finished. It calls submitted
// once every task has been handed over (and before waiting for them). If
// ctx ends, it stops submitting, waits for the tasks already started, and
// returns ctx's error.
func (b *bench) execute(ctx context.Context, mode taskmode.Mode, submitted func()) (execution, error) {
	switch mode {
	case taskmode.Raw:
		return execution{}, b.executeRaw(ctx, submitted)
	case taskmode.Pool:
		return b.executePool(ctx, submitted)
	case taskmode.Semaphore:
		return execution{}, b.executeSemaphore(ctx, submitted)
	case taskmode.Errgroup:
		return execution{}, b.executeErrgroup(ctx, submitted)
	}
	panic("realbench: unknown mode " + mode.String()) // Validate rejects it first
}

// stopped reports whether ctx has ended, looking only every
// cancelCheckEvery tasks.
func stopped(ctx context.Context, i int) bool {
	return i%cancelCheckEvery == 0 && ctx.Err() != nil
}

// executeRaw starts a goroutine per task.
func (b *bench) executeRaw(ctx context.Context, submitted func()) error {
	var wg sync.WaitGroup
	var err error
	for i := range b.cfg.Tasks {
		if stopped(ctx, i) {
			err = ctx.Err()
			break
		}
		wg.Go(func() { b.task(i) })
	}
	submitted()
	wg.Wait()
	return err
}

// executePool submits every task to a pool of Concurrency workers; Submit
// waits while all of them are busy.
func (b *bench) executePool(ctx context.Context, submitted func()) (execution, error) {
	p, err := pool.New(b.cfg.Concurrency)
	if err != nil {
		return execution{}, err
	}
	var wg sync.WaitGroup
	for i := range b.cfg.Tasks {
		if stopped(ctx, i) {
			err = ctx.Err()
			break
		}
		wg.Add(1)
		if err = p.Submit(func() { defer wg.Done(); b.task(i) }); err != nil {
			wg.Done()
			break
		}
	}
	submitted()
	wg.Wait()
	return execution{pool: p}, err
}

// executeSemaphore starts a goroutine per task once it holds one unit of a
// semaphore of weight Concurrency; the goroutine gives it back when its task
// ends. Acquiring the whole weight at the end waits for the last ones, as
// the semaphore package's own example does.
func (b *bench) executeSemaphore(ctx context.Context, submitted func()) error {
	sem := semaphore.NewWeighted(int64(b.cfg.Concurrency))
	var err error
	for i := range b.cfg.Tasks {
		if stopped(ctx, i) {
			err = ctx.Err()
			break
		}
		if err = sem.Acquire(ctx, 1); err != nil {
			break
		}
		go func() {
			defer sem.Release(1)
			b.task(i)
		}()
	}
	submitted()
	// The context may have ended: this wait must not depend on it.
	_ = sem.Acquire(context.Background(), int64(b.cfg.Concurrency))
	return err
}

// executeErrgroup runs every task through an errgroup limited to
// Concurrency goroutines; Go waits while the limit is reached.
func (b *bench) executeErrgroup(ctx context.Context, submitted func()) error {
	var g errgroup.Group
	g.SetLimit(b.cfg.Concurrency)
	var err error
	for i := range b.cfg.Tasks {
		if stopped(ctx, i) {
			err = ctx.Err()
			break
		}
		g.Go(func() error { b.task(i); return nil })
	}
	submitted()
	if werr := g.Wait(); err == nil {
		err = werr
	}
	return err
}
