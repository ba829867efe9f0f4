package pool

import "time"

// Clock is the pool's only source of time. Every time stamp the pool keeps
// (a worker's last use, a waiter's arrival, a purge's due time) is read from
// it, and every timer the pool arms (the purge timer, ReleaseTimeout's
// deadline) is armed on it. ants mixes a cached clock with direct calls to
// time.Now; keeping to one clock is what lets manualclock.Clock step a real
// pool deterministically.
type Clock interface {
	// Now returns the current time. It must never go backwards.
	Now() time.Time
	// AfterFunc arranges for f to be called, in a goroutine of the
	// clock's choosing, once d has elapsed, as time.AfterFunc does. The
	// pool calls it while holding its lock, so an implementation must not
	// call f synchronously from AfterFunc or Reset.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending call made by Clock.AfterFunc. *time.Timer implements it.
type Timer interface {
	// Stop cancels the call if it has not started yet and reports whether
	// it did so.
	Stop() bool
	// Reset schedules the call to happen once more, d from now, cancelling
	// a pending one; it reports whether one was pending.
	Reset(d time.Duration) bool
}

// SystemClock returns the clock a pool uses by default: time.Now and
// time.AfterFunc.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
