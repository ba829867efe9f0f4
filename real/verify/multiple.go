package verify

import (
	"slices"
)

// How verify --all counts what differs, beside the count of single
// verdicts. Each rank test calls a row different at p < Alpha, so a model
// that matched the runtime on every observable would still see about one
// row in twenty called different by chance: over the two hundred and
// more tests of verify --all, a dozen (fewer, as the exact test with ties
// rarely reaches its level). The count of single verdicts mixes those
// with the real differences.
//
// Benjamini and Hochberg's procedure (1995) over every rank test of the
// run keeps the rows whose p is at most k·Alpha/m, k the largest rank (in
// ascending p) whose p is, m the number of tests: among the rows it keeps,
// the expected share called different by chance is at most Alpha (the
// false discovery rate). It holds for independent tests and for tests
// positively dependent (Benjamini and Yekutieli, 2001): a scenario's
// observables come from the same runs, and a slow run lengthens its
// makespan and lowers its P use together. It answers the question the
// count asks, how many observables differ, with the share of that count
// that is chance bounded; Holm's procedure bounds the chance of a single
// false difference anywhere, which with ten runs a side would call
// within every difference short of samples wholly apart.
//
// m counts only the tests that could reject: a row both of whose samples
// are one and the same value (a count the scenario fixes), or whose
// samples are too few for any p below Alpha, is no test (Tarone, 1990),
// and counting it would only make the procedure stricter for nothing.
//
// The correction never turns a difference the figures show into
// agreement: a row the rank test called different whose model median is
// outside the real runs' range (their minimum to their maximum) is kept
// as different whatever its adjusted p. Undecided rows, the first
// goroutine started, the output and the ending are no rank tests and keep
// their verdicts.

// The summary's words for the procedure.
const correctionName = "Benjamini–Hochberg"

// correct sets, over every rank test of reps, each tested row's adjusted
// p (Row.Q, the smallest false discovery rate at which the procedure
// keeps it) and its outcome after the correction (Row.Corrected). It
// returns how many rows were tests.
func correct(reps []*Report) int {
	groups := make([]rowGroup, len(reps))
	for i, r := range reps {
		groups[i] = rowGroup{rows: r.Rows, seeds: len(r.Seeds), runs: r.Runs}
	}
	return correctGroups(groups)
}

// rowGroup is one judgement's rows, with the sizes of the two samples
// behind them: the model's seeds (or a control's second series) and the
// real runs.
type rowGroup struct {
	rows        []Row
	seeds, runs int
}

// correctGroups is correct over the rows of groups, corrected together.
func correctGroups(groups []rowGroup) int {
	var tested []*Row
	for _, g := range groups {
		for i := range g.rows {
			row := &g.rows[i]
			row.Q, row.Corrected = nil, row.Outcome
			if isTest(row, g.seeds, g.runs) {
				tested = append(tested, row)
			}
		}
	}
	m := len(tested)
	slices.SortStableFunc(tested, func(a, b *Row) int {
		switch {
		case *a.P < *b.P:
			return -1
		case *a.P > *b.P:
			return 1
		}
		return 0
	})
	// The adjusted p of the k-th smallest: the least, over ranks k and
	// above, of p·m/rank, at most 1.
	q := make([]float64, m)
	least := 1.0
	for k := m - 1; k >= 0; k-- {
		least = min(least, *tested[k].P*float64(m)/float64(k+1))
		q[k] = least
	}
	for k, row := range tested {
		v := q[k]
		row.Q = &v
		if row.Outcome != "lower" && row.Outcome != "higher" {
			continue
		}
		if v >= Alpha && row.Model >= row.RealMin && row.Model <= row.RealMax {
			row.Corrected = "within"
		}
	}
	return m
}

// isTest says whether row is a rank test that could reject, of a report
// with seeds model values and runs real ones.
func isTest(row *Row, seeds, runs int) bool {
	if row.P == nil || row.unit == unitGoroutine || row.unit == unitCategory {
		return false
	}
	if row.ModelMin == row.ModelMax && row.RealMin == row.RealMax && row.ModelMin == row.RealMin {
		return false
	}
	return seeds > 0 && runs > 0 && minP(seeds, runs) < Alpha
}
