package pool

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// idleWorkers is what the stack and the ring have in common (idleList picks
// one of them); the model is checked against each through it.
type idleWorkers[T any] interface {
	len() int
	push(w *worker[T]) bool
	pop() *worker[T]
	oldest() *worker[T]
	removeExpired(cutoff int64, dst []*worker[T]) []*worker[T]
	each(f func(*worker[T]))
}

var (
	_ idleWorkers[int] = (*workerStack[int])(nil)
	_ idleWorkers[int] = (*workerLoopQueue[int])(nil)
	_ idleWorkers[int] = (*idleList[int])(nil)
)

// naiveIdle is the model the idle lists are checked against: a plain slice in
// the order workers went idle, searched linearly.
type naiveIdle struct {
	items    []*worker[int]
	fifo     bool
	capacity int // 0: unbounded
}

func (m *naiveIdle) push(w *worker[int]) bool {
	if m.capacity > 0 && len(m.items) == m.capacity {
		return false
	}
	m.items = append(m.items, w)
	return true
}

func (m *naiveIdle) pop() *worker[int] {
	if len(m.items) == 0 {
		return nil
	}
	if m.fifo {
		w := m.items[0]
		m.items = m.items[1:]
		return w
	}
	w := m.items[len(m.items)-1]
	m.items = m.items[:len(m.items)-1]
	return w
}

func (m *naiveIdle) oldest() *worker[int] {
	if len(m.items) == 0 {
		return nil
	}
	return m.items[0]
}

func (m *naiveIdle) removeExpired(cutoff int64) []*worker[int] {
	var expired, kept []*worker[int]
	for _, w := range m.items {
		if w.lastUsed > cutoff {
			kept = append(kept, w)
		} else {
			expired = append(expired, w)
		}
	}
	m.items = kept
	return expired
}

func (m *naiveIdle) reuseOrder() []*worker[int] {
	order := slices.Clip(slices.Clone(m.items))
	if !m.fifo {
		slices.Reverse(order)
	}
	return order
}

// checkIdleList runs seeded random sequences of operations on a fresh list
// from newList and on the model, and compares every result.
func checkIdleList(t *testing.T, newList func() idleWorkers[int], fifo bool, capacity int) {
	ids := func(ws []*worker[int]) string {
		s := make([]WorkerID, len(ws))
		for i, w := range ws {
			s[i] = w.id
		}
		return fmt.Sprint(s)
	}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		list, model := newList(), &naiveIdle{fifo: fifo, capacity: capacity}
		now, lastID := int64(0), WorkerID(0)
		var scratch, order []*worker[int]
		for step := range 400 {
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("seed %d step %d: %s", seed, step, fmt.Sprintf(format, args...))
			}
			// Time moves on by 0, 1 or 2, so equal times are common.
			now += int64(rng.IntN(3))
			switch op := rng.IntN(10); {
			case op < 5:
				lastID++
				w := &worker[int]{id: lastID, lastUsed: now}
				if got, want := list.push(w), model.push(w); got != want {
					fail("push = %v, want %v", got, want)
				}
			case op < 8:
				if got, want := list.pop(), model.pop(); got != want {
					fail("pop = %v, want %v", got, want)
				}
			default:
				cutoff := now - int64(rng.IntN(20))
				scratch = list.removeExpired(cutoff, scratch[:0])
				if want := model.removeExpired(cutoff); !slices.Equal(scratch, want) {
					fail("removeExpired(%d) = %s, want %s", cutoff, ids(scratch), ids(want))
				}
			}
			if got, want := list.len(), len(model.items); got != want {
				fail("len = %d, want %d", got, want)
			}
			if got, want := list.oldest(), model.oldest(); got != want {
				fail("oldest = %v, want %v", got, want)
			}
			order = order[:0]
			list.each(func(w *worker[int]) { order = append(order, w) })
			if want := model.reuseOrder(); !slices.Equal(order, want) {
				fail("reuse order %s, want %s", ids(order), ids(want))
			}
		}
	}
}

func TestWorkerStackAgainstModel(t *testing.T) {
	checkIdleList(t, func() idleWorkers[int] { return new(workerStack[int]) }, false, 0)
}

func TestWorkerLoopQueueAgainstModel(t *testing.T) {
	for _, size := range []int{1, 2, 7, 64} {
		t.Run(fmt.Sprint("size=", size), func(t *testing.T) {
			checkIdleList(t, func() idleWorkers[int] { return newWorkerLoopQueue[int](size) }, true, size)
		})
	}
}

// idleList only forwards to one or the other; check that it picks right.
func TestIdleListAgainstModel(t *testing.T) {
	checkIdleList(t, func() idleWorkers[int] { return new(idleList[int]) }, false, 0)
	checkIdleList(t, func() idleWorkers[int] { return &idleList[int]{ring: newWorkerLoopQueue[int](5)} }, true, 5)
}

func TestChainAgainstModel(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 3))
		var c chain[*waiter[int]]
		var model []*waiter[int]
		next := uint64(0)
		for step := range 300 {
			switch op := rng.IntN(3); {
			case op == 0:
				next++
				w := &waiter[int]{seq: next}
				c.pushBack(w)
				model = append(model, w)
			case op == 1:
				got := c.popFront()
				var want *waiter[int]
				if len(model) > 0 {
					want, model = model[0], model[1:]
				}
				if got != want {
					t.Fatalf("seed %d step %d: popFront = %v, want %v", seed, step, got, want)
				}
			case len(model) > 0:
				i := rng.IntN(len(model))
				c.remove(model[i])
				model = slices.Delete(model, i, i+1)
			}
			var got []*waiter[int]
			c.each(func(w *waiter[int]) { got = append(got, w) })
			if !slices.Equal(got, model) || c.len != len(model) {
				t.Fatalf("seed %d step %d: chain %d long, want %d", seed, step, c.len, len(model))
			}
		}
	}
}
