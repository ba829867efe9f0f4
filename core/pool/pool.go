package pool

import "context"

// Pool runs func() tasks on a bounded set of reusable goroutines. Create one
// with New; it is safe for concurrent use. Besides Submit and SubmitContext
// it has the methods shared with FuncPool: Running, Free, Waiting, Cap, Tune,
// IsClosed, Release, ReleaseTimeout, ReleaseContext, Reboot, Stats, Snapshot
// and SnapshotInto.
type Pool struct {
	core[func()]
}

// New returns a pool of at most size workers, or of unlimited size if size <=
// 0. No goroutine starts until the first Submit.
func New(size int, opts ...Option) (*Pool, error) {
	p := new(Pool)
	if err := p.init(size, runTask, opts); err != nil {
		return nil, err
	}
	return p, nil
}

func runTask(task func()) { task() }

// Submit runs task on a worker: an idle one (the most recently used, or
// under PreAlloc the one idle longest), or a
// new one if Running() < Cap(). Failing both it waits, behind every earlier
// waiter, for a worker to finish, unless the pool is Nonblocking or
// MaxBlocking submitters already wait, when it returns ErrPoolOverload. It
// returns nil once a worker has taken the task, which then runs exactly once;
// ErrNilTask for a nil task; ErrPoolClosed if the pool is or gets released
// before a worker takes it.
//
// A task that submits to its own pool may wait forever if every worker does
// the same; use a Nonblocking or unlimited pool for that.
func (p *Pool) Submit(task func()) error {
	if task == nil {
		return p.reject(ErrNilTask)
	}
	return p.submit(context.Background(), task)
}

// SubmitContext is Submit with a wait that ends when ctx is done. It returns
// ctx.Err() as it is (unwrapped) if ctx is already done when it is called, in
// which case the task is not considered at all, or if ctx is done while it
// waits, in which case it leaves the line and the next waiter moves up. If a
// worker took the task first, it returns nil.
func (p *Pool) SubmitContext(ctx context.Context, task func()) error {
	if task == nil {
		return p.reject(ErrNilTask)
	}
	return p.submitContext(ctx, task)
}
