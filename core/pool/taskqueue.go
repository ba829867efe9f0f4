package pool

// queuedTask is an accepted task that waits in the pool's queue for a
// worker (Options.Queue).
type queuedTask[T any] struct {
	task T
	// seq is the task's number (SubmitEvent.Task), given when it was
	// accepted; waiter is the wait it went through first, or 0.
	seq, waiter uint64
}

// taskQueue is a FIFO ring of queued tasks. It grows by doubling, so a
// pool whose queue is never used allocates nothing for it, and one that is
// allocates only as much as it fills.
type taskQueue[T any] struct {
	buf  []queuedTask[T]
	head int
	len  int
}

func (q *taskQueue[T]) push(t queuedTask[T]) {
	if q.len == len(q.buf) {
		grown := make([]queuedTask[T], max(8, 2*len(q.buf)))
		n := copy(grown, q.buf[q.head:])
		copy(grown[n:], q.buf[:q.head])
		q.buf, q.head = grown, 0
	}
	i := q.head + q.len
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	q.buf[i] = t
	q.len++
}

// pop removes and returns the oldest task; the queue must not be empty.
func (q *taskQueue[T]) pop() queuedTask[T] {
	t := q.buf[q.head]
	q.buf[q.head] = queuedTask[T]{} // let the task's closure be collected
	q.head++
	if q.head == len(q.buf) {
		q.head = 0
	}
	q.len--
	return t
}

// each calls f on every queued task, oldest first.
func (q *taskQueue[T]) each(f func(queuedTask[T])) {
	for i := range q.len {
		j := q.head + i
		if j >= len(q.buf) {
			j -= len(q.buf)
		}
		f(q.buf[j])
	}
}
