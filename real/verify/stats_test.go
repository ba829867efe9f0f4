package verify

import (
	"math"
	"slices"
	"testing"
	"time"
)

// The rank test as verify calls it gives the textbooks' p-values.
func TestRankTestAgainstTextbookValues(t *testing.T) {
	for _, c := range []struct {
		name   string
		x, y   []float64
		u      float64
		p      float64
		approx float64
	}{
		// All of one sample below all of the other: the smallest p, 2/C(10,5).
		{"separated 5+5", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 0, 2.0 / 252, 1e-12},
		{"separated 3+3", []float64{4, 5, 6}, []float64{1, 2, 3}, 9, 0.1, 1e-12},
		// Ties: the permutation distribution given them. Two of seven
		// values as y, y the two smallest: 1 choice in C(7,2) = 21; the
		// other side's extreme, {21 or 21, 22}, is less far from the mean.
		{"ties", []float64{20, 20, 21, 21, 22}, []float64{10.1, 10.9}, 10, 1.0 / 21, 1e-12},
		{"a tie at one value", []float64{5}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 4.5, 1, 1e-12},
		{"all equal", []float64{3, 3}, []float64{3, 3, 3}, 3, 1, 0},
		// Large samples take the normal approximation: 40 values 1…40
		// against 40 values 21…60 overlap by half. U = 200 of 1600; z =
		// (800−200−0.5)/sqrt(40·40·81/12) = 5.769, p = erfc(z/√2) = 7.957e-9.
		{"normal approximation", seq(1, 40), seq(21, 60), 200, 7.957e-9, 1e-12},
		// Hollander and Wolfe (1973), p. 69, R's wilcox.test example:
		// W = 35, one-sided p = 0.1272, so two-sided 0.2544.
		{"Hollander-Wolfe", []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}, []float64{1.15, 0.88, 0.90, 0.74, 1.21}, 35, 0.2544, 5e-4},
	} {
		x, y := slices.Sorted(slices.Values(c.x)), slices.Sorted(slices.Values(c.y))
		u, p := rankTest(x, y)
		if u != c.u || math.Abs(p-c.p) > c.approx {
			t.Errorf("%s: U = %v, p = %.5f; want U = %v, p = %.5f", c.name, u, p, c.u, c.p)
		}
	}
	for _, c := range []struct {
		n1, n2 int
		want   float64
	}{{5, 5, 2.0 / 252}, {3, 3, 0.1}, {5, 2, 2.0 / 21}, {1, 1, 1}, {10, 10, 2.0 / 184756}} {
		if got := minP(c.n1, c.n2); math.Abs(got-c.want) > 1e-12*c.want+1e-15 {
			t.Errorf("minP(%d, %d) = %v, want %v", c.n1, c.n2, got, c.want)
		}
	}
}

// TestVerdictOfDistributions feeds the verdict fixed samples.
func TestVerdictOfDistributions(t *testing.T) {
	ms := func(vs ...float64) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			out[i] = v * float64(time.Millisecond)
		}
		return out
	}
	ten := ms(10.1, 10.4, 10.2, 11.0, 10.8, 10.3, 10.9, 10.5, 10.6, 10.7)
	for _, c := range []struct {
		name        string
		model, real []float64
		unit        unit
		want        string
		within      bool
	}{
		{"the same distribution", ten, ms(10.15, 10.35, 10.55, 10.75, 10.95, 10.25, 10.45, 10.65, 10.85, 11.05), unitDuration, "within", true},
		{"the model among the runs", ms(10.5, 10.5, 10.6, 10.5, 10.4), ten, unitDuration, "within", true},
		{"the model faster", ms(9.1, 9.3, 9.2, 9.0, 9.4), ten, unitDuration, "model faster", false},
		{"the model slower", ms(12, 12.5, 13, 12.2, 12.1), ten, unitDuration, "model slower", false},
		// One slow real run does not make a model at the others' level
		// outside, as a range would not either; but neither does it make a
		// model below all the others within, as a range would.
		{"a slow outlier", ms(9.5, 9.6, 9.5, 9.7, 9.6), append(ms(10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7, 10.8, 10.9), 9.0*float64(time.Millisecond)), unitDuration, "model faster", false},
		{"counts higher", []float64{9, 9, 9, 9, 9}, []float64{1, 2, 2, 3, 1, 2, 4, 2, 3, 2}, unitCount, "model higher", false},
		{"shares lower", []float64{0.5, 0.51, 0.5, 0.52, 0.5}, []float64{0.7, 0.72, 0.69, 0.71, 0.7, 0.73, 0.68, 0.7, 0.71, 0.7}, unitShare, "model lower", false},
		{"a count both sides fix", []float64{16, 16, 16}, []float64{16, 16}, unitCount, "within", true},
		{"two runs", ms(10.5, 10.6, 10.4, 10.5, 10.6), ms(10.1, 10.9), unitDuration, "undecided: about 3 real runs would tell", false},
		// Five distinct model values and two real ones: the test's smallest
		// p is 2/21, so however far apart, two runs cannot tell.
		{"two runs far off", ms(20, 20.5, 21, 21.5, 22), ms(10.1, 10.9), unitDuration, "undecided: about 3 real runs would tell", false},
		// Ties make smaller p-values possible: 1/21 here.
		{"two runs far off, the model tied", ms(20, 20, 21, 21, 22), ms(10.1, 10.9), unitDuration, "model slower", false},
		// One seed beside runs spread around it: the test needs 40 runs
		// (2/41 < 0.05) to be able to reject anything.
		{"one seed", ms(10.5), ten, unitDuration, "undecided: about 40 real runs would tell", false},
	} {
		model, real := slices.Sorted(slices.Values(c.model)), slices.Sorted(slices.Values(c.real))
		j := judge(model, real)
		_, got := c.unit.verdict(j)
		if got != c.want || (j.outcome == outWithin) != c.within {
			t.Errorf("%s: %q (p %.4f, diff %v to %v), want %q", c.name, got, j.p, j.diffLow, j.diffHigh, c.want)
		}
	}
}

// The bootstrap's interval is the same every time for the same samples,
// and holds the difference of the medians.
func TestBootstrapIsDeterministic(t *testing.T) {
	model, real := []float64{1, 2, 3, 4, 5, 6}, []float64{3, 4, 5, 6, 7, 8, 9}
	lo, hi := bootstrapMedianDiff(model, real)
	lo2, hi2 := bootstrapMedianDiff(model, real)
	if lo != lo2 || hi != hi2 {
		t.Errorf("two intervals: [%v, %v] and [%v, %v]", lo, hi, lo2, hi2)
	}
	if d := median(model) - median(real); !(lo <= d && d <= hi) || lo >= hi {
		t.Errorf("the interval [%v, %v] does not hold the difference %v", lo, hi, d)
	}
}

func seq(from, to float64) []float64 {
	var out []float64
	for v := from; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for q, want := range map[float64]float64{0: 1, 0.5: 5.5, 0.1: 1.9, 0.9: 9.1, 1: 10, 0.025: 1.225} {
		if got := quantile(s, q); math.Abs(got-want) > 1e-12 {
			t.Errorf("quantile(%v) = %v, want %v", q, got, want)
		}
	}
}
