package calibrate

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/real/verify"
)

// A profile's pace is its hand-off's median and its spin's, which verify
// sets its probes beside; a profile from before the spin was measured has
// none, since its spin is a default and not this machine's.
func TestAProfilesPaceIsItsHandoffAndSpin(t *testing.T) {
	v9 := readProfile(t, "testdata/costs-v9.json")
	pace, ok := v9.Pace()
	if want := (verify.Pace{Handoff: ns(v9.Figures.Handoff.Median), Spin: 137 * time.Nanosecond}); !ok || pace != want {
		t.Errorf("format 9: pace %v (%v), want %v", pace, ok, want)
	}
	if pace.Handoff <= 0 || pace.Handoff == pace.Spin {
		t.Errorf("format 9: the pace's hand-off %v is not the fixture's", pace.Handoff)
	}
	if _, ok := readProfile(t, "testdata/costs-v8.json").Pace(); ok {
		t.Error("format 8 has a pace, without a spin measured")
	}
}

// The probe gives a pace a recording accepts, where calibrate measures.
func TestMeasurePaceGivesAValidPace(t *testing.T) {
	p, ok := MeasurePace()
	if !measured {
		if ok {
			t.Errorf("a pace %v where calibrate does not measure", p)
		}
		return
	}
	if !ok || !p.Valid() {
		t.Errorf("pace %v (%v): want both figures above 0 and below a second", p, ok)
	}
}
