package pool

import "github.com/schedlab/schedlab/core/pool/decide"

// workerLoopQueue is the idle list of a PreAlloc pool: a ring allocated once
// at the pool's capacity, so going idle never grows a slice. Like ants' loop
// queue it is FIFO: a task goes to the worker idle longest, which spreads the
// work over every worker (and so rarely lets one expire).
type workerLoopQueue[T any] struct {
	items []*worker[T]
	head  int // index of the oldest worker
	n     int
}

func newWorkerLoopQueue[T any](size int) *workerLoopQueue[T] {
	return &workerLoopQueue[T]{items: make([]*worker[T], size)}
}

func (q *workerLoopQueue[T]) len() int { return q.n }

// at returns the i-th oldest worker.
func (q *workerLoopQueue[T]) at(i int) *worker[T] {
	return q.items[(q.head+i)%len(q.items)]
}

func (q *workerLoopQueue[T]) push(w *worker[T]) bool {
	if q.n == len(q.items) {
		return false
	}
	q.items[(q.head+q.n)%len(q.items)] = w
	q.n++
	return true
}

func (q *workerLoopQueue[T]) pop() *worker[T] {
	if q.n == 0 {
		return nil
	}
	w := q.items[q.head]
	q.items[q.head] = nil
	q.head = (q.head + 1) % len(q.items)
	q.n--
	return w
}

func (q *workerLoopQueue[T]) oldest() *worker[T] {
	if q.n == 0 {
		return nil
	}
	return q.items[q.head]
}

func (q *workerLoopQueue[T]) removeExpired(cutoff int64, dst []*worker[T]) []*worker[T] {
	n := decide.Expired(q.n, func(i int) int64 { return q.at(i).lastUsed }, cutoff)
	for range n {
		dst = append(dst, q.pop())
	}
	return dst
}

func (q *workerLoopQueue[T]) each(f func(*worker[T])) {
	for i := range q.n {
		f(q.at(i))
	}
}
