package pool

import "errors"

// The errors a pool returns. They are sentinels: compare with errors.Is, which
// also sees through the wrapping MultiPool adds.
var (
	// ErrPoolClosed is returned by Submit and Invoke on a released pool, and
	// to every submitter that was still waiting for a worker when the pool
	// was released.
	ErrPoolClosed = errors.New("pool: pool is closed")

	// ErrPoolOverload is returned when the pool has no free worker and the
	// submitter may not wait: the pool is Nonblocking, or MaxBlocking
	// submitters are already waiting.
	ErrPoolOverload = errors.New("pool: too many submitters waiting, or nonblocking pool is full")

	// ErrTimeout is returned by ReleaseTimeout when the workers have not all
	// exited within the timeout.
	ErrTimeout = errors.New("pool: timed out waiting for workers to exit")

	// ErrInvalidExpiry is returned by New when WithExpiry is given a negative
	// duration.
	ErrInvalidExpiry = errors.New("pool: expiry must not be negative")

	// ErrInvalidPreAllocSize is returned by New when WithPreAlloc(true) is
	// combined with an unlimited size: there is no size to pre-allocate.
	ErrInvalidPreAllocSize = errors.New("pool: pre-allocation needs a positive size")

	// ErrInvalidMaxBlocking is returned by New when WithMaxBlocking is given
	// a negative number.
	ErrInvalidMaxBlocking = errors.New("pool: max blocking must not be negative")

	// ErrInvalidQueue is returned by New when WithQueue is given a negative
	// length.
	ErrInvalidQueue = errors.New("pool: queue length must not be negative")

	// ErrNilTask is returned by Submit for a nil task, and by NewFunc for a
	// nil function.
	ErrNilTask = errors.New("pool: nil task")

	// ErrInvalidPoolIndex is returned by MultiPool's ...ByIndex methods for
	// an index out of range.
	ErrInvalidPoolIndex = errors.New("pool: pool index out of range")

	// ErrInvalidMultiPoolSize is returned by NewMulti for a number of pools
	// below one.
	ErrInvalidMultiPoolSize = errors.New("pool: a multi-pool needs at least one pool")

	// ErrInvalidLoadBalancer is returned by NewMulti for a LoadBalancer that
	// is neither RoundRobin nor LeastTasks.
	ErrInvalidLoadBalancer = errors.New("pool: unknown load balancer")
)
