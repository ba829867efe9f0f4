package calibrate

import "testing"

// Each switch probe makes the switches its gap figure reads, of the kind
// it is read for: switchGaps returns a sample only for each 16 gaps after
// the warm-up, so a probe that made too few, or switches of another kind
// (a park where an exit was meant), would leave its figure short.
func TestSwitchProbesMakeTheirSwitches(t *testing.T) {
	const n = 5
	for _, c := range []struct {
		stop string
		work func(int)
	}{
		{"go-block", parkSwitches},
		{"go-exit", exitSwitches},
		{"go-stop", yieldSwitches},
	} {
		got := onOneP(func() []float64 { return switchGaps(n, c.stop, c.work) })
		if len(got) != n {
			t.Errorf("%s: %d samples, want %d", c.stop, len(got), n)
		}
		for i, v := range got {
			if v < 0 {
				t.Errorf("%s: sample %d is %v, a gap cannot be negative", c.stop, i, v)
			}
		}
	}
}
