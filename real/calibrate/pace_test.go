package calibrate

import (
	"context"
	"strings"
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

// The rounds split each figure's samples as evenly as whole samples do,
// and take them all; Measure refuses more rounds than samples.
func TestRoundsShareTheSamples(t *testing.T) {
	for _, c := range [][2]int{{500, 10}, {200, 10}, {3, 3}, {7, 3}, {10, 10}, {1, 1}, {501, 10}} {
		total, rounds := c[0], c[1]
		sum, lo, hi := 0, total, 0
		for r := range rounds {
			k := roundShare(total, r, rounds)
			sum += k
			lo, hi = min(lo, k), max(hi, k)
		}
		if sum != total || hi-lo > 1 {
			t.Errorf("%d samples in %d rounds: %d in all, %d to %d a round", total, rounds, sum, lo, hi)
		}
	}
	if _, err := Measure(context.Background(), Options{Samples: 3, Rounds: 4}); err == nil || !strings.Contains(err.Error(), "rounds: want 1 to the samples, 3, got 4") {
		t.Errorf("4 rounds of 3 samples: %v", err)
	}
}
