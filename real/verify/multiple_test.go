package verify

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Over many rank tests, p < 0.05 comes by chance: among two hundred
// scenarios where the model matches, twenty whose model sits a little
// high, inside the real range (p between 0.01 and 0.05 each), are not
// called different after the correction, and the
// summary says so in brackets, with both counts. A model wholly above the
// real runs stays different, and so does one whose median is outside the
// real range though its p, on three seeds, does not survive the
// correction: statistics alone never call that within.
func TestSummaryCorrectsForTheRunsManyTests(t *testing.T) {
	obs := func(ds ...int) []Observables {
		var out []Observables
		for _, d := range ds {
			out = append(out, Observables{Makespan: time.Duration(100+d) * time.Millisecond, Goroutines: 2, PeakLive: 3})
		}
		return out
	}
	real := obs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	var reps []*Report
	for i := range 20 {
		r := &Report{Scenario: fmt.Sprintf("near%02d", i), Seeds: make([]uint64, 10), Runs: 10}
		r.Judge(obs(4, 5, 6, 7, 8, 9, 10, 11, 12, 13), real)
		if p := *r.row("makespan").P; p < 0.01 || p >= Alpha || r.row("makespan").Outcome != "higher" {
			t.Fatalf("the near model's p %v, outcome %s: want a single verdict of higher at 0.01 <= p < 0.05", p, r.row("makespan").Outcome)
		}
		reps = append(reps, r)
	}
	apart := &Report{Scenario: "apart", Seeds: make([]uint64, 10), Runs: 10}
	apart.Judge(obs(20, 21, 22, 23, 24, 25, 26, 27, 28, 29), real)
	few := &Report{Scenario: "few", Seeds: make([]uint64, 3), Runs: 10}
	few.Judge(obs(15, 15, 15), real)
	reps = append(reps, apart, few)
	// And two hundred where the model matches, as most rows of a run do.
	for i := range 200 {
		r := &Report{Scenario: fmt.Sprintf("same%03d", i), Seeds: make([]uint64, 10), Runs: 10}
		r.Judge(real, real)
		reps = append(reps, r)
	}
	var b strings.Builder
	if err := WriteSummary(&b, reps); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"near00    ok       (high)",
		"apart     ok       high ",
		"few       ok       high ",
		"the model differs from the real runs on 22 of 1554 observables",
		"after Benjamini–Hochberg's correction for the run's 222 rank tests (false discovery rate 0.05): the model differs on 2 of 1554",
		"the 20 in brackets",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	if q := *few.row("makespan").Q; q < Alpha {
		t.Errorf("few's adjusted p %v: the test wants one the correction does not keep", q)
	}
}

// Benjamini and Hochberg's adjusted p: p·m/rank, made monotone from the
// largest down.
func TestBenjaminiHochbergAdjusted(t *testing.T) {
	ps := []float64{0.01, 0.04, 0.03, 0.2}
	rep := &Report{Seeds: make([]uint64, 10), Runs: 10}
	for i, p := range ps {
		v := p
		rep.Rows = append(rep.Rows, Row{Observable: fmt.Sprint(i), P: &v, Outcome: "higher", RealMax: 1, ModelMax: 2})
	}
	if m := correct([]*Report{rep}); m != 4 {
		t.Fatalf("%d tests, want 4", m)
	}
	// Sorted 0.01, 0.03, 0.04, 0.2: 0.04, 0.04·4/2 then 0.04·4/3 = 0.0533
	// (the least from above), 0.0533, 0.2.
	want := []float64{0.04, 0.16 / 3, 0.16 / 3, 0.2}
	for i, w := range want {
		if q := *rep.Rows[i].Q; q < w-1e-12 || q > w+1e-12 {
			t.Errorf("row %d: q %v, want %v", i, q, w)
		}
	}
}
