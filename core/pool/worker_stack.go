package pool

import "github.com/schedlab/schedlab/core/pool/decide"

// workerStack is the default idle list: a LIFO stack, so the most recently
// used worker is reused first. That keeps the working set of goroutines (and
// their stacks, warm in cache) as small as the load allows, and lets the ones
// at the bottom, which the load no longer needs, expire.
type workerStack[T any] struct {
	items []*worker[T] // bottom (oldest) first
}

func (s *workerStack[T]) len() int { return len(s.items) }

func (s *workerStack[T]) push(w *worker[T]) bool {
	s.items = append(s.items, w)
	return true
}

func (s *workerStack[T]) pop() *worker[T] {
	n := len(s.items)
	if n == 0 {
		return nil
	}
	w := s.items[n-1]
	s.items[n-1] = nil // let the worker be collected once it exits
	s.items = s.items[:n-1]
	return w
}

func (s *workerStack[T]) oldest() *worker[T] {
	if len(s.items) == 0 {
		return nil
	}
	return s.items[0]
}

func (s *workerStack[T]) removeExpired(cutoff int64, dst []*worker[T]) []*worker[T] {
	n := decide.Expired(len(s.items), func(i int) int64 { return s.items[i].lastUsed }, cutoff)
	if n == 0 {
		return dst
	}
	dst = append(dst, s.items[:n]...)
	kept := copy(s.items, s.items[n:])
	clear(s.items[kept:])
	s.items = s.items[:kept]
	return dst
}

func (s *workerStack[T]) each(f func(*worker[T])) {
	for i := len(s.items) - 1; i >= 0; i-- {
		f(s.items[i])
	}
}
