// Package manualclock is a pool.Clock that moves only when told to. Tests
// step a pool through time with it, and schedlab's UI drives real pools with
// it in lockstep with a simulated run (package lockstep), which is why it is
// a package of its own rather than a test helper.
package manualclock

import (
	"container/heap"
	"sync"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// Clock is a pool.Clock whose time moves only when told to. Pass it to
// pool.WithClock and step the pool with Advance: every purge due in the
// interval runs inside Advance, so when Advance returns each one has made its
// decision and called its hooks. It is safe for concurrent use, but callbacks
// run by Advance must not call Advance.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	lastSeq uint64
	pending timerHeap
	// stepping serialises Advance calls, so that callbacks never run
	// concurrently with each other.
	stepping sync.Mutex
}

// New returns a Clock whose time is start, stripped of any
// monotonic reading.
func New(start time.Time) *Clock {
	return &Clock{now: start.Round(0)}
}

// Now returns the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f to run in the goroutine that advances the clock to
// Now()+d or beyond. A timer with d <= 0 is due at once and runs at the next
// Advance, even Advance(0); AfterFunc never calls f itself.
func (c *Clock) AfterFunc(d time.Duration, f func()) pool.Timer {
	t := &fakeTimer{clock: c, f: f, index: -1}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scheduleLocked(t, d)
	return t
}

func (c *Clock) scheduleLocked(t *fakeTimer, d time.Duration) {
	c.lastSeq++
	t.when, t.seq = c.now.Add(d), c.lastSeq
	heap.Push(&c.pending, t)
}

// Advance moves the clock forward by d, stopping at each timer due on the way,
// in the order they are due (ties in the order they were scheduled by
// AfterFunc or Reset), to set the time to its due time and run its callback.
// It returns when every callback has returned. Timers scheduled by a callback
// run in the same Advance if they fall due within it. A negative d counts as
// zero.
func (c *Clock) Advance(d time.Duration) {
	c.AdvanceTo(c.Now().Add(max(d, 0)))
}

// AdvanceTo is Advance to the time t; if t is not after Now, only the timers
// already due run, and the time stays where it is.
func (c *Clock) AdvanceTo(t time.Time) {
	c.stepping.Lock()
	defer c.stepping.Unlock()
	for {
		c.mu.Lock()
		if len(c.pending) == 0 || c.pending[0].when.After(t) {
			if t.After(c.now) {
				c.now = t
			}
			c.mu.Unlock()
			return
		}
		next := heap.Pop(&c.pending).(*fakeTimer)
		if next.when.After(c.now) {
			c.now = next.when
		}
		c.mu.Unlock()
		next.f()
	}
}

// Set moves the clock to t without running any timer: timers that fall due
// run, late, at the next Advance or AdvanceTo (AdvanceTo(Now()) runs just
// those), as a runtime timer runs late when its goroutine gets a processor
// late. Time never goes backwards: if t is before Now, Set does nothing.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
}

// NextDue returns when the earliest pending timer is due, and false if no
// timer is pending.
func (c *Clock) NextDue() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return time.Time{}, false
	}
	return c.pending[0].when, true
}

// Pending returns the number of timers waiting to fire.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// fakeTimer is a Clock's pool.Timer.
type fakeTimer struct {
	clock *Clock
	f     func()
	when  time.Time
	seq   uint64
	index int // in clock.pending, or -1 when not pending
}

// Stop cancels the timer and reports whether it was pending.
func (t *fakeTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.index < 0 {
		return false
	}
	heap.Remove(&c.pending, t.index)
	return true
}

// Reset schedules the timer d after the clock's current time, whether or not
// it was pending or has fired, and reports whether it was pending.
func (t *fakeTimer) Reset(d time.Duration) bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	wasPending := t.index >= 0
	if wasPending {
		heap.Remove(&c.pending, t.index)
	}
	c.scheduleLocked(t, d)
	return wasPending
}

// timerHeap orders pending timers by due time, then by scheduling order.
type timerHeap []*fakeTimer

func (h timerHeap) Len() int { return len(h) }

func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}

func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *timerHeap) Push(x any) {
	t := x.(*fakeTimer)
	t.index = len(*h)
	*h = append(*h, t)
}

func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}
