package sim

import (
	"time"

	"github.com/schedlab/schedlab/internal/decimal"
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
func FormatMillis(d time.Duration) string { return string(AppendMillis(make([]byte, 0, 24), d)) }

// AppendMillis appends d as FormatMillis formats it. A trace writer formats
// a time on every line, and appending into its line makes no string.
func AppendMillis(b []byte, d time.Duration) []byte {
	b, u := decimal.AppendSign(b, int64(d))
	b = decimal.AppendUint(b, u/1e6)
	b = append(b, '.')
	frac := u % 1e6
	for div := uint64(1e5); div > 0; div /= 10 {
		b = append(b, byte('0'+frac/div%10))
	}
	return append(b, "ms"...)
}

// FormatDuration prints a duration compactly for sentences ("20µs",
// "10.05ms"). It is time.Duration's format, which is deterministic.
func FormatDuration(d time.Duration) string { return d.String() }
