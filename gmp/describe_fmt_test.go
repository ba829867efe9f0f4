package gmp

import (
	"fmt"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim"
)

// sprintf writes what fmt.Sprintf writes, for every type and verb the
// describer uses, and for what it leaves to fmt.
func TestSprintfIsFmt(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"%v and %v on %v with %v", []any{GID(5), NoG, PID(1), MID(3)}},
		{"%v %v %v", []any{NoP, NoM, GID(12345)}},
		{"%d %d %d Gs; %s", []any{3, int32(-4), GID(7), "text"}},
		{"%v late, %v at %v", []any{1500 * time.Microsecond, time.Duration(0), sim.Time(20050)}},
		{"100%% of %v", []any{Kind(KindSteal)}},
		{"%q and %5d", []any{"quoted", 42}},
		{"%v", []any{Reason(ReasonSleep)}},
		{"%d", []any{uint64(1 << 40)}},
		{"extra %v", []any{1, 2}},
		{"missing %v %v", []any{1}},
		{"trailing %", nil},
	} {
		if got, want := sprintf(c.format, c.args...), fmt.Sprintf(c.format, c.args...); got != want {
			t.Errorf("sprintf(%q) = %q, fmt gives %q", c.format, got, want)
		}
	}
}
