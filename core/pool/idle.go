package pool

// idleList holds the workers waiting for a task: a stack, or under PreAlloc a
// ring. Both keep them ordered by lastUsed, oldest first, which is what lets
// the purge find every expired worker by binary search: workers go idle one
// at a time under the pool's lock with a time stamp that never decreases
// (core.nowLocked), so each is at least as recent as the one before.
//
// It is a concrete type rather than an interface so that the hot path takes a
// well-predicted branch instead of an indirect call, and so that the stack's
// slice header lives inside core, in the cache line the lock brings along.
type idleList[T any] struct {
	stack workerStack[T]
	ring  *workerLoopQueue[T] // nil unless PreAlloc
}

func (l *idleList[T]) len() int {
	if l.ring != nil {
		return l.ring.len()
	}
	return l.stack.len()
}

// push adds a worker that has just gone idle; false means there is no room
// (only a full ring, which the pool's accounting rules out).
func (l *idleList[T]) push(w *worker[T]) bool {
	if l.ring != nil {
		return l.ring.push(w)
	}
	return l.stack.push(w)
}

// pop removes and returns the worker the next task goes to, or nil.
func (l *idleList[T]) pop() *worker[T] {
	if l.ring != nil {
		return l.ring.pop()
	}
	return l.stack.pop()
}

// oldest returns the worker that has been idle longest, or nil.
func (l *idleList[T]) oldest() *worker[T] {
	if l.ring != nil {
		return l.ring.oldest()
	}
	return l.stack.oldest()
}

// removeExpired removes every worker whose lastUsed is at or before cutoff,
// appends them to dst oldest first, and returns dst.
func (l *idleList[T]) removeExpired(cutoff int64, dst []*worker[T]) []*worker[T] {
	if l.ring != nil {
		return l.ring.removeExpired(cutoff, dst)
	}
	return l.stack.removeExpired(cutoff, dst)
}

// each calls f on every worker in the order pop would return them.
func (l *idleList[T]) each(f func(*worker[T])) {
	if l.ring != nil {
		l.ring.each(f)
		return
	}
	l.stack.each(f)
}
