package sim

import (
	"math"
	"testing"
	"time"
)

// AppendMillis appends what FormatMillis returns, and even the most
// negative duration has its magnitude (negating it in int64 overflows).
func TestAppendMillis(t *testing.T) {
	for _, d := range []time.Duration{0, 7, 20 * time.Microsecond, -3 * time.Microsecond, 123_456_789, math.MaxInt64} {
		if got, want := string(AppendMillis([]byte("x"), d)), "x"+FormatMillis(d); got != want {
			t.Errorf("AppendMillis(%d) = %q, want %q", d, got, want)
		}
	}
	if got, want := FormatMillis(math.MinInt64), "-9223372036854.775808ms"; got != want {
		t.Errorf("FormatMillis(MinInt64) = %q, want %q", got, want)
	}
}
