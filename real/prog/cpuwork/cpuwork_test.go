package cpuwork

import (
	"testing"
	"time"
)

// A process that shares its CPUs is taken off them now and then, for a
// scheduler tick or more, in the middle of its calibration. The loop's
// speed is its speed while it runs: a chunk the kernel interrupted says
// nothing of it. Calibrated on wall time overall, the loop ran short, so
// that a cpu action's real work was shorter than the scenario says (a
// cpu 100µs of about 40µs at a load average of 4 on 2 CPUs).
func TestCalibrationIgnoresTimeOffTheCPU(t *testing.T) {
	const chunk = 1 << 14
	// The fake clock: each chunk of the loop takes 20µs, and one in ten
	// is interrupted for 4ms.
	now, calls := time.Unix(0, 0), 0
	clock := func() time.Time {
		calls++
		now = now.Add(20 * time.Microsecond)
		if calls%10 == 0 {
			now = now.Add(4 * time.Millisecond)
		}
		return now
	}
	got := calibrateWith(clock)
	want := float64(chunk) / 20
	if got < want*0.99 || got > want*1.01 {
		t.Errorf("calibrated %.1f iterations per µs, want %.1f: the loop's speed while it runs", got, want)
	}
}
