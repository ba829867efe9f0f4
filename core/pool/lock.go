package pool

import (
	"runtime"
	"sync"
)

// yieldsBeforeParking bounds how often Lock yields the processor before it
// parks like sync.Mutex.
const yieldsBeforeParking = 4

// yieldingMutex is a sync.Mutex whose Lock first retries a few times,
// yielding the processor in between, before it parks.
//
// The pool's critical sections are a few dozen nanoseconds long, but under
// load every task takes the lock twice and most goroutines are runnable.
// sync.Mutex only spins when its processor has nothing else to run, so here
// it nearly always parks its caller on a semaphore, and the wake-up costs far
// more than the wait: in the parallel-submit benchmark a quarter of the CPU
// time went to semacquire and semrelease. Yielding instead lets the holder
// (or other work) run, and usually finds the lock free on the next try; it
// made that benchmark 5-8% faster. ants uses a pure spin lock for the same
// reason, which measured no better here; parking in the end keeps long holds
// (a slow hook, a Snapshot of a large pool) from burning the processors.
type yieldingMutex struct {
	sync.Mutex
}

func (m *yieldingMutex) Lock() {
	if m.TryLock() {
		return
	}
	for range yieldsBeforeParking {
		runtime.Gosched()
		if m.TryLock() {
			return
		}
	}
	m.Mutex.Lock()
}
