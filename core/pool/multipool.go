package pool

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// LoadBalancer chooses which pool of a MultiPool a task goes to.
type LoadBalancer int

const (
	// RoundRobin sends tasks to the pools in turn. When the chosen pool
	// returns ErrPoolOverload, the task is offered once to the pool
	// LeastTasks would choose, as in ants.
	RoundRobin LoadBalancer = iota + 1
	// LeastTasks sends each task to the pool with the fewest workers plus
	// waiting submitters, the lowest index on a tie.
	LeastTasks
)

// MultiPool spreads tasks over several Pools, each with its own lock, to cut
// the contention one pool's lock sees under many concurrent submitters.
// Errors it returns wrap the pool's error with the pool's index, so errors.Is
// still finds the sentinels.
type MultiPool struct {
	pools  []*Pool
	lb     LoadBalancer
	turn   atomic.Uint64
	closed atomic.Bool
	clock  Clock
}

// NewMulti returns a MultiPool of pools Pools of sizePerPool workers each
// (unlimited if sizePerPool <= 0), all with the options opts.
func NewMulti(pools, sizePerPool int, lb LoadBalancer, opts ...Option) (*MultiPool, error) {
	if pools < 1 {
		return nil, ErrInvalidMultiPoolSize
	}
	if lb != RoundRobin && lb != LeastTasks {
		return nil, ErrInvalidLoadBalancer
	}
	m := &MultiPool{pools: make([]*Pool, pools), lb: lb}
	for i := range m.pools {
		p, err := New(sizePerPool, opts...)
		if err != nil {
			// The pools made so far have started nothing: no need to
			// release them.
			return nil, err
		}
		m.pools[i] = p
	}
	m.clock = m.pools[0].clock
	return m, nil
}

// Submit gives task to the pool the load balancer picks, as Pool.Submit.
func (m *MultiPool) Submit(task func()) error {
	if m.closed.Load() {
		return ErrPoolClosed
	}
	i := m.pick()
	err := m.pools[i].Submit(task)
	if errors.Is(err, ErrPoolOverload) && m.lb == RoundRobin {
		if j := m.leastTasks(); j != i {
			i, err = j, m.pools[j].Submit(task)
		}
	}
	if err != nil {
		return fmt.Errorf("multipool: pool %d: %w", i, err)
	}
	return nil
}

func (m *MultiPool) pick() int {
	if m.lb == LeastTasks {
		return m.leastTasks()
	}
	return int((m.turn.Add(1) - 1) % uint64(len(m.pools)))
}

func (m *MultiPool) leastTasks() int {
	best, load := 0, -1
	for i, p := range m.pools {
		if l := p.Running() + p.Waiting(); load < 0 || l < load {
			best, load = i, l
		}
	}
	return best
}

// Len returns the number of pools.
func (m *MultiPool) Len() int { return len(m.pools) }

// Pool returns the pool at index i, for its Stats and Snapshot.
func (m *MultiPool) Pool(i int) (*Pool, error) {
	if i < 0 || i >= len(m.pools) {
		return nil, ErrInvalidPoolIndex
	}
	return m.pools[i], nil
}

// Running returns the number of workers of all the pools.
func (m *MultiPool) Running() (n int) {
	for _, p := range m.pools {
		n += p.Running()
	}
	return n
}

// Free returns the number of workers that may still start in all the pools,
// or -1 if they are unlimited.
func (m *MultiPool) Free() (n int) {
	for _, p := range m.pools {
		f := p.Free()
		if f < 0 {
			return -1
		}
		n += f
	}
	return n
}

// Waiting returns the number of submitters waiting in all the pools.
func (m *MultiPool) Waiting() (n int) {
	for _, p := range m.pools {
		n += p.Waiting()
	}
	return n
}

// Cap returns the total capacity, or -1 if the pools are unlimited.
func (m *MultiPool) Cap() (n int) {
	for _, p := range m.pools {
		c := p.Cap()
		if c < 0 {
			return -1
		}
		n += c
	}
	return n
}

// RunningByIndex returns Running of the pool at index i.
func (m *MultiPool) RunningByIndex(i int) (int, error) {
	return m.byIndex(i, (*Pool).Running)
}

// FreeByIndex returns Free of the pool at index i.
func (m *MultiPool) FreeByIndex(i int) (int, error) {
	return m.byIndex(i, (*Pool).Free)
}

// WaitingByIndex returns Waiting of the pool at index i.
func (m *MultiPool) WaitingByIndex(i int) (int, error) {
	return m.byIndex(i, (*Pool).Waiting)
}

func (m *MultiPool) byIndex(i int, f func(*Pool) int) (int, error) {
	p, err := m.Pool(i)
	if err != nil {
		return -1, err
	}
	return f(p), nil
}

// Tune sets the capacity of every pool to size, as Pool.Tune.
func (m *MultiPool) Tune(size int) {
	for _, p := range m.pools {
		p.Tune(size)
	}
}

// IsClosed reports whether the MultiPool has been released.
func (m *MultiPool) IsClosed() bool { return m.closed.Load() }

// Release releases every pool, without waiting for their workers. Calling
// it on a released MultiPool does nothing, as with Pool; ReleaseTimeout and
// ReleaseContext may be called after it to wait.
func (m *MultiPool) Release() {
	m.closed.Store(true)
	for _, p := range m.pools {
		p.Release()
	}
}

// ReleaseTimeout releases every pool and waits until all their workers have
// returned, or until timeout has passed on the pools' clock. It returns nil,
// or one error per pool that timed out (each wrapping ErrTimeout) joined by
// errors.Join.
func (m *MultiPool) ReleaseTimeout(timeout time.Duration) error {
	m.Release()
	expired := make(chan struct{})
	t := m.clock.AfterFunc(timeout, func() { close(expired) })
	defer t.Stop()
	return m.waitAll(expired, func() error { return ErrTimeout })
}

// ReleaseContext releases every pool and waits until all their workers have
// returned, or until ctx is done. It returns nil, or one error per pool still
// running then (each wrapping ctx.Err()) joined by errors.Join. A nil ctx
// does not wait, as with Pool.ReleaseContext.
func (m *MultiPool) ReleaseContext(ctx context.Context) error {
	m.Release()
	if ctx == nil {
		return nil
	}
	return m.waitAll(ctx.Done(), func() error { return ctx.Err() })
}

// waitAll waits for every pool's workers, or until stop, and reports which
// pools were still running then.
func (m *MultiPool) waitAll(stop <-chan struct{}, cause func() error) error {
	var errs []error
	for i, p := range m.pools {
		if !waitDrained(p.drainedChan(), stop) {
			errs = append(errs, fmt.Errorf("multipool: pool %d: %w", i, cause()))
		}
	}
	return errors.Join(errs...)
}

// Reboot opens every pool again, as Pool.Reboot; it does nothing if the
// MultiPool is not released.
func (m *MultiPool) Reboot() {
	if m.closed.CompareAndSwap(true, false) {
		m.turn.Store(0)
		for _, p := range m.pools {
			p.Reboot()
		}
	}
}
