package sim

import (
	"strconv"
	"time"
)

// Time is a point in simulated time: nanoseconds since the run started.
type Time int64

// Add returns t+d.
func (t Time) Add(d time.Duration) Time { return t + Time(d) }

// Sub returns the duration t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// D returns t as a duration since the start of the run.
func (t Time) D() time.Duration { return time.Duration(t) }

// String formats t the way traces print it: milliseconds with microsecond
// precision and a fixed number of decimals, so that columns line up and the
// text is identical on every machine ("12.345678ms").
func (t Time) String() string {
	return FormatMillis(time.Duration(t))
}

// FormatMillis formats d as milliseconds with six decimals ("0.020050ms").
func FormatMillis(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	ms := int64(d) / 1e6
	frac := int64(d) % 1e6
	s := strconv.FormatInt(ms, 10) + "." + pad6(frac) + "ms"
	if neg {
		return "-" + s
	}
	return s
}

func pad6(n int64) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < 6 {
		s = "0" + s
	}
	return s
}

// FormatDuration prints a duration compactly for sentences ("20µs",
// "10.05ms"). It is time.Duration's format, which is deterministic.
func FormatDuration(d time.Duration) string { return d.String() }
