package pool

import "github.com/schedlab/schedlab/pool/decide"

// workerStack is the default idle list: a LIFO stack, so the most recently
// used worker is reused first. That keeps the working set of goroutines (and
// their stacks, warm in cache) as small as the load allows, and lets the ones
// at the bottom, which the load no longer needs, expire.
//
// Each entry keeps the worker's task channel beside the worker: a submitter
// that takes the top worker then sends on the channel without reading the
// worker's record, whose cache line the worker's processor wrote last (see
// worker).
type workerStack[T any] struct {
	items []idleEntry[T] // bottom (oldest) first
}

// idleEntry is an idle worker and its task channel.
type idleEntry[T any] struct {
	w     *worker[T]
	tasks chan assignment[T]
}

func (s *workerStack[T]) len() int { return len(s.items) }

func (s *workerStack[T]) push(w *worker[T]) bool {
	s.items = append(s.items, idleEntry[T]{w, w.tasks})
	return true
}

func (s *workerStack[T]) pop() *worker[T] {
	w, _ := s.take()
	return w
}

// take is pop that also returns the worker's task channel, or nil, nil.
func (s *workerStack[T]) take() (*worker[T], chan assignment[T]) {
	n := len(s.items)
	if n == 0 {
		return nil, nil
	}
	e := s.items[n-1]
	s.items[n-1] = idleEntry[T]{} // let the worker be collected once it exits
	s.items = s.items[:n-1]
	return e.w, e.tasks
}

func (s *workerStack[T]) oldest() *worker[T] {
	if len(s.items) == 0 {
		return nil
	}
	return s.items[0].w
}

func (s *workerStack[T]) removeExpired(cutoff int64, dst []*worker[T]) []*worker[T] {
	n := decide.Expired(len(s.items), func(i int) int64 { return s.items[i].w.lastUsed }, cutoff)
	if n == 0 {
		return dst
	}
	for _, e := range s.items[:n] {
		dst = append(dst, e.w)
	}
	kept := copy(s.items, s.items[n:])
	clear(s.items[kept:])
	s.items = s.items[:kept]
	return dst
}

func (s *workerStack[T]) each(f func(*worker[T])) {
	for i := len(s.items) - 1; i >= 0; i-- {
		f(s.items[i].w)
	}
}
