package pool

import "context"

// FuncPool runs one function, fixed at NewFunc, on arguments of type T. An
// Invoke hands the worker an argument, not a closure, so it allocates nothing.
// It has the same methods as Pool besides Invoke and InvokeContext, and
// follows the same rules.
type FuncPool[T any] struct {
	core[T]
}

// NewFunc returns a pool of at most size workers (unlimited if size <= 0)
// that call fn on each invoked argument. A nil fn returns ErrNilTask.
func NewFunc[T any](size int, fn func(T), opts ...Option) (*FuncPool[T], error) {
	if fn == nil {
		return nil, ErrNilTask
	}
	p := new(FuncPool[T])
	if err := p.init(size, fn, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// Invoke runs the pool's function on arg, as Submit runs a task.
func (p *FuncPool[T]) Invoke(arg T) error { return p.submit(context.Background(), arg) }

// InvokeContext is Invoke with a wait that ends when ctx is done, as
// SubmitContext.
func (p *FuncPool[T]) InvokeContext(ctx context.Context, arg T) error {
	return p.submitContext(ctx, arg)
}
