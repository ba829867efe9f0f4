package bench

import (
	"testing"
	"time"
)

func TestSpin(t *testing.T) {
	if a, b := spin(1000), spin(1000); a != b || a == spin(1001) {
		t.Error("spin is not a function of its iterations")
	}
	if got := Calibrate(2 * time.Millisecond); got <= 0 {
		t.Errorf("Calibrate = %v iterations/µs", got)
	}
	for _, c := range []struct {
		perMicro float64
		d        time.Duration
		want     int64
	}{
		{100, time.Microsecond, 100},
		{100, 50 * time.Microsecond, 5000},
		{0.1, time.Microsecond, 1}, // at least one iteration
		{2.5, 3 * time.Microsecond, 8},
	} {
		if got := spinIterations(c.perMicro, c.d); got != c.want {
			t.Errorf("spinIterations(%v, %v) = %d, want %d", c.perMicro, c.d, got, c.want)
		}
	}
}
