package class

import "time"

// bucket is a token bucket: it holds up to burst tokens, gains rate a
// second, and a request spends one. The time is the server's clock
// (Config.Now), so tests drive it without sleeping. Its owner locks.
type bucket struct {
	tokens float64
	last   time.Time
}

// limit is a bucket's shape.
type limit struct {
	rate  float64 // tokens a second
	burst float64
}

// take spends a token if there is one at now, and reports whether there was.
func (b *bucket) take(l limit, now time.Time) bool {
	b.refill(l, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// has reports whether a token is left at now, spending none.
func (b *bucket) has(l limit, now time.Time) bool {
	b.refill(l, now)
	return b.tokens >= 1
}

func (b *bucket) refill(l limit, now time.Time) {
	if b.last.IsZero() {
		b.tokens, b.last = l.burst, now
		return
	}
	if dt := now.Sub(b.last); dt > 0 {
		b.tokens = min(l.burst, b.tokens+dt.Seconds()*l.rate)
		b.last = now
	}
}

// full reports whether the bucket is back to its burst at now: forgetting
// it then loses nothing, since a new one starts full.
func (b *bucket) full(l limit, now time.Time) bool {
	b.refill(l, now)
	return b.tokens >= l.burst
}
