package verify

import (
	"math"
	"math/rand/v2"
	"slices"
)

// How verify judges an observable that is a number (every one but the
// first goroutine started): it compares the model's values over its seeds
// with the real runs' values as two samples, not the model's median with
// the real runs' extremes, so that one slow run does not decide and more
// runs make the verdict surer rather than looser.
//
//   - The rank test is Mann and Whitney's (1947): U counts the pairs
//     (model value, real value) in which the model's is the larger, ties
//     counting one half; under the hypothesis that both samples come from
//     one distribution, U's distribution is known, and p is the chance of
//     a U at least as far from n₁n₂/2 as the one seen. It assumes no shape
//     for the distributions, which suits run times with long tails and
//     counts with ties. rankTest computes it: exactly for small samples,
//     ties included (the permutation distribution of the rank sum given
//     the ties), and for large ones by the normal approximation with the
//     tie and continuity corrections (Hollander and Wolfe, Nonparametric
//     Statistical Methods, 1973, ch. 4).
//   - The test rejects equality when p < Alpha: the verdict is then
//     "model faster" or "slower" (a duration), "lower" or "higher" (a
//     count or a share), the side U is on.
//   - Where it cannot reject, the model is "within" if, besides, its
//     median lies inside the real runs' range widened on each side by half
//     the width of a 95% bootstrap interval for the difference of the two
//     medians: the test's silence alone is no agreement when the model's
//     median is outside everything the machine did, which a test on few
//     runs can miss. Otherwise the verdict is "undecided".
//   - It is "undecided" too when the samples are too small for the test to
//     reject anything: with n₁ model values and n₂ real ones the smallest
//     p the test can give is 2/C(n₁+n₂, n₁) (all of one sample below all of
//     the other), so with 5 seeds it needs 3 real runs, with 3 seeds 5.
//   - Undecided rows say how many real runs would likely decide: the
//     smallest count at which the same judgement, given the real runs'
//     values spread as these were (their quantiles), reaches a verdict.
//
// Identical samples (every value the same on both sides: a count the
// scenario fixes) are within at any size.

// Alpha is the rank test's significance level.
const Alpha = 0.05

// bootstrap draws and its seed: fixed, so that a report is the same for
// the same figures.
const (
	bootstrapDraws = 2000
	bootstrapSeed  = 27
)

// maxRunsNeeded is the most runsNeeded looks for.
const maxRunsNeeded = 1000

// outcome is a numeric observable's verdict.
type outcome uint8

const (
	outWithin outcome = iota
	outLower
	outHigher
	outUndecided
)

// judgement is what judge found for one observable.
type judgement struct {
	outcome outcome
	// p is the rank test's p-value (1 where the test does not apply:
	// identical samples).
	p float64
	// diffLow and diffHigh bound median(model) − median(real), 95%.
	diffLow, diffHigh float64
	// needed, when undecided, is about how many real runs would decide
	// (0: more than maxRunsNeeded).
	needed int
}

// judge compares the model's sorted values with the real runs' sorted
// values.
func judge(model, real []float64) judgement {
	j := judgement{p: 1}
	j.diffLow, j.diffHigh = bootstrapMedianDiff(model, real)
	j.outcome = decide(model, real, &j.p, (j.diffHigh-j.diffLow)/2)
	if j.outcome == outUndecided {
		j.needed = runsNeeded(model, real, (j.diffHigh-j.diffLow)/2)
	}
	return j
}

// decide is the judgement of sorted samples given the half-width w by
// which the real range is widened. It stores the test's p in *p.
func decide(model, real []float64, p *float64, w float64) outcome {
	if model[0] == model[len(model)-1] && real[0] == real[len(real)-1] && model[0] == real[0] {
		*p = 1
		return outWithin
	}
	u, pv := rankTest(model, real)
	*p = pv
	if pv < Alpha {
		if u > float64(len(model)*len(real))/2 {
			return outHigher
		}
		return outLower
	}
	if minP(len(model), len(real)) >= Alpha {
		return outUndecided
	}
	if m := median(model); m >= real[0]-w && m <= real[len(real)-1]+w {
		return outWithin
	}
	return outUndecided
}

// exactLimit is the most values, both samples together, for which
// rankTest computes the exact distribution; above it the normal
// approximation is within a few thousandths.
const exactLimit = 60

// rankTest is the Mann-Whitney test of sorted samples x and y: U, the
// pairs in which x's value is the larger (ties counting one half), and
// the two-sided p-value of the hypothesis that both come from one
// distribution.
func rankTest(x, y []float64) (u, p float64) {
	n1, n2 := len(x), len(y)
	n := n1 + n2
	// Merge the samples and give each value its midrank, doubled so that
	// it is a whole number: tied values share the mean of their ranks.
	all := make([]float64, 0, n)
	all = append(append(all, x...), y...)
	slices.Sort(all)
	rank2 := func(v float64) int {
		lo, _ := slices.BinarySearch(all, v)
		hi := lo
		for hi < n && all[hi] == v {
			hi++
		}
		return lo + 1 + hi // (lo+1) + hi: twice the mean of ranks lo+1…hi
	}
	sum2 := 0 // twice the rank sum of x
	for _, v := range x {
		sum2 += rank2(v)
	}
	u = float64(sum2)/2 - float64(n1*(n1+1))/2
	if all[0] == all[n-1] {
		return u, 1 // every value the same: nothing to tell apart
	}
	mean2 := n1 * (n + 1) // twice the rank sum's mean
	if n <= exactLimit {
		return u, exactP(all, rank2, n1, abs(sum2-mean2))
	}
	// Normal approximation: U's variance with the correction for ties,
	// n1·n2/12 · ((n+1) − Σ(t³−t)/(n(n−1))) over the groups of t tied
	// values, and half a step of continuity correction.
	ties := 0.0
	for i := 0; i < n; {
		j := i
		for j < n && all[j] == all[i] {
			j++
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	sd := math.Sqrt(float64(n1*n2) / 12 * (float64(n+1) - ties/float64(n*(n-1))))
	z := math.Max(0, math.Abs(u-float64(n1*n2)/2)-0.5) / sd
	return u, math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactP is the chance, when n1 of the sorted values all are drawn at
// random as x (every choice alike, as they are if both samples come from
// one distribution), that x's doubled rank sum is at least dev from its
// mean. It counts the choices by rank sum, one value at a time.
func exactP(all []float64, rank2 func(float64) int, n1, dev int) float64 {
	n := len(all)
	maxSum := n * (n + 1)
	// ways[k][s]: the choices of k values among those seen so far whose
	// doubled ranks add up to s.
	ways := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	for i, v := range all {
		r := rank2(v)
		for k := min(i+1, n1); k >= 1; k-- {
			prev, cur := ways[k-1], ways[k]
			for s := maxSum - r; s >= 0; s-- {
				if prev[s] != 0 {
					cur[s+r] += prev[s]
				}
			}
		}
	}
	mean2 := n1 * (n + 1)
	var far, total float64
	for s, w := range ways[n1] {
		total += w
		if abs(s-mean2) >= dev {
			far += w
		}
	}
	return math.Min(1, far/total)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// minP is the smallest two-sided p the rank test can give two samples of
// n1 and n2 values without ties: 2/C(n1+n2, n1).
func minP(n1, n2 int) float64 {
	// C(n1+n2, n1) in logarithms, which holds for large samples.
	lg := func(n int) float64 { v, _ := math.Lgamma(float64(n + 1)); return v }
	return math.Min(1, 2*math.Exp(lg(n1)+lg(n2)-lg(n1+n2)))
}

// bootstrapMedianDiff is the 95% percentile-bootstrap interval of
// median(model) − median(real): both samples drawn again with replacement
// bootstrapDraws times, from a generator with a fixed seed.
func bootstrapMedianDiff(model, real []float64) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(model))<<32|uint64(len(real))))
	diffs := make([]float64, bootstrapDraws)
	a, b := make([]float64, len(model)), make([]float64, len(real))
	for i := range diffs {
		for k := range a {
			a[k] = model[rng.IntN(len(model))]
		}
		for k := range b {
			b[k] = real[rng.IntN(len(real))]
		}
		slices.Sort(a)
		slices.Sort(b)
		diffs[i] = median(a) - median(b)
	}
	slices.Sort(diffs)
	return quantile(diffs, 0.025), quantile(diffs, 0.975)
}

// quantile of sorted values, interpolated linearly between the nearest
// two (Hyndman and Fan's definition 7).
func quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := int(h)
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// runsNeeded estimates how many real runs would decide: the smallest
// count n above today's for which the real values, spread as today's (n
// quantiles of them), get a verdict other than undecided from the model's
// values. The bootstrap's half-width w shrinks as 1/√n, as a median's
// interval does. 0 means more than maxRunsNeeded.
func runsNeeded(model, real []float64, w float64) int {
	for _, n := range candidateRuns(len(real)) {
		stretched := make([]float64, n)
		for i := range stretched {
			stretched[i] = real[min(len(real)-1, int((float64(i)+0.5)/float64(n)*float64(len(real))))]
		}
		var p float64
		if decide(model, stretched, &p, w*math.Sqrt(float64(len(real))/float64(n))) != outUndecided {
			return n
		}
	}
	return 0
}

// candidateRuns are the counts runsNeeded tries: each up to 30, then
// steps of 5 up to 100, then of about a quarter.
func candidateRuns(from int) []int {
	var out []int
	for n := from + 1; n <= maxRunsNeeded; {
		out = append(out, n)
		switch {
		case n < 30:
			n++
		case n < 100:
			n += 5
		default:
			n += n / 4
		}
	}
	return out
}
