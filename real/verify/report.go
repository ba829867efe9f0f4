package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedlab/schedlab/internal/safetext"
)

// unit says how an observable is written.
type unit uint8

const (
	unitDuration unit = iota
	unitCount
	unitShare
	unitGoroutine // a goroutine's number: compared as a category
	unitCategory  // a word, such as a printed order: the row holds tallies (output.go)
)

// observables is the one table of what verify compares, in report order.
var observables = []struct {
	name string
	unit unit
	get  func(Observables) float64
}{
	{"first goroutine started", unitGoroutine, func(o Observables) float64 { return float64(o.FirstStarted) }},
	{"makespan", unitDuration, func(o Observables) float64 { return float64(o.Makespan) }},
	{"goroutines created", unitCount, func(o Observables) float64 { return float64(o.Goroutines) }},
	{"peak live goroutines", unitCount, func(o Observables) float64 { return float64(o.PeakLive) }},
	{"preempted slices", unitCount, func(o Observables) float64 { return float64(o.Preempted) }},
	{"P migrations", unitCount, func(o Observables) float64 { return float64(o.Migrations) }},
	{"P utilisation", unitShare, func(o Observables) float64 { return o.Utilisation }},
}

// The verdicts of a row that cannot be judged.
const (
	noData = "no data"
	noReal = "no real run"
)

// Row is one observable: the model's value (the median over its seeds),
// the real runs' median and range, and the verdict (stats.go says how it
// is reached).
type Row struct {
	Observable string  `json:"observable"`
	Model      float64 `json:"model"`
	RealMedian float64 `json:"real_median"`
	RealMin    float64 `json:"real_min"`
	RealMax    float64 `json:"real_max"`
	// RealLow and RealHigh are the real runs' 5th and 95th percentiles:
	// the central 90% of the real distribution, where nine real runs in
	// ten fall. Absent for a goroutine, an output or an ending.
	RealLow  *float64 `json:"real_p5,omitempty"`
	RealHigh *float64 `json:"real_p95,omitempty"`
	// Outside says whether the model lies outside the real distribution
	// (Row.outside): its median outside the central 90%, or a goroutine,
	// output or ending no real run shared.
	Outside bool `json:"outside"`
	// Within says whether the verdict is "within": the rank test cannot
	// tell the model's values from the real runs' and the model's median
	// is inside the real range widened by the bootstrap interval (for the
	// first goroutine started: whether any real run agreed).
	Within  bool   `json:"within"`
	Verdict string `json:"verdict"`
	// Outcome is the verdict as a word for programs: within, lower,
	// higher, undecided; for the first goroutine started agrees or
	// differs; none without data or real runs.
	Outcome string `json:"outcome"`
	// ModelMin and ModelMax are the model's range over its seeds.
	ModelMin float64 `json:"model_min"`
	ModelMax float64 `json:"model_max"`
	// P is the rank test's p-value, DiffLow and DiffHigh a 95% interval
	// of the model's median less the real one; absent where no test ran.
	P        *float64 `json:"p,omitempty"`
	DiffLow  *float64 `json:"diff_low,omitempty"`
	DiffHigh *float64 `json:"diff_high,omitempty"`
	// Q is the row's p adjusted for the whole verify --all run's rank
	// tests, Corrected its outcome after that correction (multiple.go);
	// set by WriteSummary, after every report was written.
	Q         *float64 `json:"q,omitempty"`
	Corrected string   `json:"corrected,omitempty"`
	// RunsNeeded, for an undecided row, is about how many real runs would
	// decide it (-1: more than a thousand).
	RunsNeeded int `json:"runs_needed,omitempty"`
	// ModelValues and RealValues are, for a category such as the
	// printed order, each value with how often it came on that side.
	ModelValues string `json:"model_values,omitempty"`
	RealValues  string `json:"real_values,omitempty"`
	unit        unit
	tally       string // for a goroutine: the real runs' values and how often
}

// Report holds one scenario's model against its real runs.
type Report struct {
	Scenario string `json:"scenario"`
	Procs    int    `json:"procs"`
	// Seeds are the model's seeds; Noise whether its noise was on.
	Seeds []uint64 `json:"seeds"`
	Noise bool     `json:"noise"`
	// Runs is how many real runs there were, Go the toolchain, Load what
	// the machine was doing meanwhile (LoadBefore and LoadAfter the
	// one-minute load average before the first run and after the last).
	Runs       int    `json:"runs"`
	Go         string `json:"go"`
	Load       string `json:"load"`
	LoadBefore string `json:"load_before,omitempty"`
	LoadAfter  string `json:"load_after,omitempty"`
	// Pace describes the machine's pace probed around the real runs
	// (Observables.PaceBefore), if it was; PaceProbed counts the runs
	// with a probe beside them, PaceOff those whose probe was off the
	// costs' profile's (notePace).
	Pace       string `json:"pace,omitempty"`
	PaceProbed int    `json:"pace_probed,omitempty"`
	PaceOff    int    `json:"pace_off,omitempty"`
	// Costs says which costs timed the model: a machine's profile or the
	// model's own.
	Costs string `json:"costs,omitempty"`
	// Alpha is the rank test's significance level.
	Alpha float64 `json:"alpha"`
	Rows  []Row   `json:"rows"`
	// Notes say what the figures need to be read with (a model run that
	// did not end normally…).
	Notes []string `json:"notes,omitempty"`
	// Control, with Options.Control, is the real program judged against
	// itself.
	Control *Control `json:"control,omitempty"`
}

// Judge fills r.Rows from the model's runs and the real ones: the
// observables of the trace, then, if any run printed, the printed order.
// Untraced real runs (a scenario that fails by design) have no trace:
// its rows have no real run.
func (r *Report) Judge(model, real []Observables) {
	r.Rows = r.Rows[:0]
	r.Alpha = Alpha
	printed := real
	defer func() {
		if row, ok := judgeOutput(model, printed); ok {
			r.Rows = append(r.Rows, row)
		}
		r.markOutside()
	}()
	if len(real) > 0 && real[0].Untraced {
		real = nil
	}
	for _, ob := range observables {
		// Values are judged at the precision the report shows them: a
		// model at 100.0% is not outside real runs at 99.98–99.99%.
		get := func(o Observables) float64 { return ob.unit.round(ob.get(o)) }
		mv := values(model, get)
		rv := values(real, get)
		row := Row{Observable: ob.name, unit: ob.unit, Outcome: "none"}
		if len(mv) == 0 {
			row.Verdict = noData
			r.Rows = append(r.Rows, row)
			continue
		}
		row.ModelMin, row.ModelMax = mv[0], mv[len(mv)-1]
		if len(rv) == 0 {
			row.Model = median(mv)
			if ob.unit == unitGoroutine {
				row.Model = mode(mv)
			}
			row.Verdict = noReal
			r.Rows = append(r.Rows, row)
			continue
		}
		row.RealMin, row.RealMax, row.RealMedian = rv[0], rv[len(rv)-1], median(rv)
		if ob.unit == unitGoroutine {
			row.RealMedian = mode(rv)
			row.tally = tally(rv)
			row.Model = mode(mv)
			row.Within = slices.Contains(rv, row.Model)
			row.Outcome = "differs"
			if row.Within {
				row.Outcome = "agrees"
			}
			agree := 0
			for _, o := range real {
				if get(o) == row.Model {
					agree++
				}
			}
			row.Verdict = fmt.Sprintf("%d of %d real runs agree", agree, len(real))
			if row.Model == 0 && rv[len(rv)-1] == 0 {
				row.tally, row.Verdict = "-", "only main runs"
			}
			r.Rows = append(r.Rows, row)
			continue
		}
		row.Model = median(mv)
		low, high := ob.unit.round(quantile(rv, centralLow)), ob.unit.round(quantile(rv, centralHigh))
		row.RealLow, row.RealHigh = &low, &high
		j := judge(mv, rv)
		row.P, row.DiffLow, row.DiffHigh = &j.p, &j.diffLow, &j.diffHigh
		row.Within = j.outcome == outWithin
		row.Outcome, row.Verdict = ob.unit.verdict(j)
		if j.outcome == outUndecided {
			row.RunsNeeded = j.needed
			if j.needed == 0 {
				row.RunsNeeded = -1
			}
		}
		r.Rows = append(r.Rows, row)
	}
}

// judgeScenario is Judge with the rows a scenario adds: with prints (the
// scenario has print actions) the printed order even when no run printed,
// "nothing" being an answer too; with modelEnded (untraced runs) how the
// runs ended, against the model's endings (endWords).
func (r *Report) judgeScenario(model, real []Observables, prints bool, modelEnded []string) {
	r.Judge(model, real)
	if r.row(orderRow) == nil && prints {
		row, _ := judgeOrders(model, real, true)
		r.Rows = append(r.Rows, row)
	}
	if modelEnded != nil {
		r.Rows = append(r.Rows, judgeEnding(modelEnded, real))
	}
	r.markOutside()
}

// verdict words a judgement for an observable of unit u: a duration is
// faster or slower, anything else lower or higher.
func (u unit) verdict(j judgement) (outcome, text string) {
	switch j.outcome {
	case outWithin:
		return "within", "within"
	case outLower:
		if u == unitDuration {
			return "lower", "model faster"
		}
		return "lower", "model lower"
	case outHigher:
		if u == unitDuration {
			return "higher", "model slower"
		}
		return "higher", "model higher"
	}
	if j.needed == 0 {
		return "undecided", fmt.Sprintf("undecided: more than %d real runs would tell", maxRunsNeeded)
	}
	return "undecided", fmt.Sprintf("undecided: about %d real runs would tell", j.needed)
}

// Differing lists the observables where the model differs from the real
// runs: the rank test rejected equality, or (the first goroutine started)
// no real run agreed.
func (r *Report) Differing() []string { return differingNames(r.Rows) }

// differingNames lists the observables of the rows that differ.
func differingNames(rows []Row) []string { return namesWhere(rows, (*Row).differs) }

// outsideNames lists the observables of the rows that lie outside the
// real distribution (Row.outside).
func outsideNames(rows []Row) []string { return namesWhere(rows, (*Row).outside) }

// namesWhere lists the observables of the rows that keep holds for.
func namesWhere(rows []Row, keep func(*Row) bool) []string {
	var out []string
	for i := range rows {
		if keep(&rows[i]) {
			out = append(out, rows[i].Observable)
		}
	}
	return out
}

// differs says whether the row's verdict is a difference: the rank test
// put the model below or above the real runs, or no real run agreed.
func (row *Row) differs() bool {
	return row.Outcome == "lower" || row.Outcome == "higher" || row.Outcome == "differs"
}

// tallyRows counts rows as the summary does: every row is judged, and
// chance counts the differing ones whose difference did not survive the
// correction for many tests (Row.Corrected within).
func tallyRows(rows []Row) (judged, chance int) {
	for i := range rows {
		if rows[i].differs() && rows[i].Corrected == "within" {
			chance++
		}
	}
	return len(rows), chance
}

// Undecided lists the observables the real runs were too few to judge.
func (r *Report) Undecided() []string {
	var out []string
	for _, row := range r.Rows {
		if row.Outcome == "undecided" {
			out = append(out, row.Observable)
		}
	}
	return out
}

// values returns the sorted values of get over obs.
func values(obs []Observables, get func(Observables) float64) []float64 {
	out := make([]float64, 0, len(obs))
	for _, o := range obs {
		out = append(out, get(o))
	}
	slices.Sort(out)
	return out
}

// median of sorted values: the middle one, or the mean of the two middle.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// tally writes sorted goroutine numbers with how often each came:
// "G3 ×4, G7".
func tally(sorted []float64) string {
	var b strings.Builder
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(unitGoroutine.format(sorted[i]))
		if j-i > 1 {
			fmt.Fprintf(&b, " x%d", j-i)
		}
		i = j
	}
	return b.String()
}

// shortDuration writes d to three significant figures, in ASCII for any
// terminal: 43.3ms, 512us.
func shortDuration(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	unit := time.Duration(1)
	for unit*1000 <= d {
		unit *= 10
	}
	return strings.Replace(d.Round(unit).String(), "µ", "u", 1)
}

// mode is the most frequent of sorted values, the smallest on a tie.
func mode(sorted []float64) float64 {
	best, bestN := sorted[0], 0
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		if j-i > bestN {
			best, bestN = sorted[i], j-i
		}
		i = j
	}
	return best
}

// round gives v at the precision format writes it: a share to 0.1%, a
// duration to three significant figures.
func (u unit) round(v float64) float64 {
	switch u {
	case unitShare:
		return math.Round(v*1000) / 1000
	case unitDuration:
		if v <= 0 {
			return v
		}
		scale := math.Pow(10, math.Floor(math.Log10(v))-2)
		return math.Round(v/scale) * scale
	}
	return v
}

func (u unit) format(v float64) string {
	switch u {
	case unitDuration:
		return shortDuration(time.Duration(v))
	case unitShare:
		return fmt.Sprintf("%.1f%%", 100*v)
	case unitGoroutine:
		if v == 0 {
			return "-"
		}
		return fmt.Sprintf("G%d", int64(v))
	}
	if v == float64(int64(v)) {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}

// WriteText writes the report as a table.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	seeds := fmt.Sprintf("seed %d", r.Seeds[0])
	if len(r.Seeds) > 1 {
		seeds = fmt.Sprintf("seeds %d–%d", r.Seeds[0], r.Seeds[len(r.Seeds)-1])
	}
	noise := "exact"
	if r.Noise {
		noise = "noise on"
	}
	// The scenario's name, the toolchain's version and the notes may
	// carry text from the scenario file or the machine: shown, never sent
	// to the terminal raw, and no tab or line break of theirs moves a
	// column (a note keeps the lines of an error's hint).
	fmt.Fprintf(&b, "%s: the model (%s, %s) against %d real run%s", safetext.Term(r.Scenario), seeds, noise, r.Runs, plural(r.Runs))
	if r.Runs > 0 {
		fmt.Fprintf(&b, " (%s, GOMAXPROCS=%d; %s)", safetext.Term(r.Go), r.Procs, safetext.Term(r.Load))
	}
	b.WriteString("\n")
	if r.Costs != "" {
		fmt.Fprintf(&b, "costs: %s\n", safetext.Term(r.Costs))
	}
	if r.Pace != "" {
		fmt.Fprintf(&b, "pace: %s\n", safetext.Term(r.Pace))
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "observable\tmodel\treal median\treal range\tp\tverdict")
	for _, row := range r.Rows {
		if row.unit == unitCategory {
			real := row.RealValues
			if row.Verdict == noReal {
				real = "-"
			}
			// The values are the runs' own words, quoted where they
			// are printed lines; made safe for the terminal all the
			// same, as a recording's are anyone's.
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Observable, clipCell(safetext.Term(row.ModelValues)), "-", clipCell(safetext.Term(real)), row.Verdict)
			continue
		}
		switch row.Verdict {
		case noData:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t%s\n", row.Observable, row.Verdict)
			continue
		case noReal:
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t%s\n", row.Observable, row.unit.format(row.Model), row.Verdict)
			continue
		}
		rng := row.unit.format(row.RealMin)
		if row.RealMax != row.RealMin {
			rng += "–" + row.unit.format(row.RealMax)
		}
		if row.tally != "" {
			rng = row.tally
		}
		p := "-"
		if row.P != nil {
			p = formatP(*row.P)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", row.Observable, row.unit.format(row.Model), row.unit.format(row.RealMedian), rng, p, row.Verdict)
	}
	tw.Flush()
	if r.Control != nil {
		r.Control.writeText(&b, r.Runs)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", safetext.TermLines(n))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatP writes a p-value to two significant figures, small ones as a
// bound.
func formatP(p float64) string {
	switch {
	case p < 0.001:
		return "<0.001"
	case p >= 0.1:
		return fmt.Sprintf("%.2f", p)
	}
	return fmt.Sprintf("%.3f", p)
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	return enc.Encode(r)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// WriteSummary writes one row per report: for each observable, "ok" when
// the verdict is within ("agrees" for the first goroutine started, when a
// real run agreed), "low" or "high" when the rank test puts the model
// below or above the real runs, "?" when the runs cannot decide, "differs"
// when no real run agreed, "-" without real runs; "(low)" or "(high)"
// when the test's p < Alpha does not survive the correction for the
// run's many tests (multiple.go). It writes the count of differing
// observables both ways.
func WriteSummary(w io.Writer, reps []*Report) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	// The columns: every observable of the trace, then the printed
	// order and the ending when some report has them.
	var names []string
	for _, ob := range observables {
		names = append(names, ob.name)
	}
	for _, extra := range []string{orderRow, endingRow} {
		if slices.ContainsFunc(reps, func(r *Report) bool { return r.row(extra) != nil }) {
			names = append(names, extra)
		}
	}
	header := []string{"scenario"}
	for _, n := range names {
		header = append(header, summaryHeads[n])
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	tests := correct(reps)
	differing, undecided, judged, chance, near, beyond := 0, 0, 0, 0, 0, 0
	// outside is the summary's lines on the observables outside the real
	// distribution, nOutside how many observables they name.
	var outside []string
	nOutside := 0
	for _, r := range reps {
		cells := []string{safetext.Term(r.Scenario)}
		for _, name := range names {
			row := r.row(name)
			cell := "-"
			if row != nil && row.outside() {
				nOutside++
				outside = append(outside, fmt.Sprintf("  %s: %s %s", safetext.Term(r.Scenario), row.Observable, row.outsideWords()))
				whys := r.why(row.Observable)
				for _, why := range whys {
					outside = append(outside, "    why: "+why)
				}
				if len(whys) == 0 {
					outside = append(outside, "    why: "+noWhy(row.Observable))
				}
			}
			if row != nil {
				cell = map[string]string{"within": "ok", "agrees": "ok", "lower": "low", "higher": "high", "undecided": "?", "differs": "differs", "none": "-"}[row.Outcome]
				judged++
			}
			switch cell {
			case "low", "high", "differs":
				differing++
				if row.near() {
					near++
				}
				if row.beyond() {
					beyond++
				}
				if row.Corrected == "within" {
					// p < Alpha alone, not after the correction.
					cell = "(" + cell + ")"
					chance++
				}
			case "?":
				undecided++
			}
			cells = append(cells, cell)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	judgedBy := fmt.Sprintf("rank test, p < %v", Alpha)
	if len(names) > len(observables) {
		judgedBy += "; an output or an ending: the real runs' commonest never came from the model"
	}
	fmt.Fprintf(&b, "%d scenarios; the model differs from the real runs on %d of %d observables (%s)", len(reps), differing, judged, judgedBy)
	if undecided > 0 {
		fmt.Fprintf(&b, "; %d undecided (too few runs)", undecided)
	}
	b.WriteString("\n")
	if near > 0 {
		fmt.Fprintf(&b, "%d of the %d are near the real runs' median (a duration within %.0f%% of it, a share within %.0f point): a tight real sample tells them apart, but the model is not far off\n",
			near, differing, 100*nearDuration, 100*nearShare)
	}
	if differing > 0 {
		fmt.Fprintf(&b, "%d of the %d are beyond every real run (the model's median below the lowest or above the highest, or no real run agreeing with it); the rest overlap the real runs but lie to one side of them\n", beyond, differing)
	}
	if tests > 0 {
		fmt.Fprintf(&b, "after %s's correction for the run's %d rank tests (false discovery rate %v): the model differs on %d of %d observables; the %d in brackets had p < %v alone, which so many tests give by chance, with the model's median inside the real range\n",
			correctionName, tests, Alpha, differing-chance, judged, chance, Alpha)
	}
	if judged > 0 {
		fmt.Fprintf(&b, "outside the real distribution (the model's median outside the real runs' central 90%%, their 5th to 95th percentile, or a goroutine, output or ending no real run shared): %d of %d observables; unlike the rank test's count, this one does not grow with the model's seeds\n", nOutside, judged)
		for _, line := range outside {
			b.WriteString(line + "\n")
		}
		writeBandNote(&b, reps)
	}
	writePaceSummary(&b, reps)
	writeControlSummary(&b, reps)
	_, err := io.WriteString(w, b.String())
	return err
}

// How near the real runs' median a differing row's model median must be
// for the summary to count it near: a duration within this share of the
// real median, a share (P use) within this many of its points.
const (
	nearDuration = 0.02
	nearShare    = 0.01
)

// The central part of the real distribution that the summary's count of
// observables outside it reads: from the 5th percentile to the 95th.
const (
	centralLow  = 0.05
	centralHigh = 0.95
)

// bandRuns is how many real runs every scenario must have for the
// summary to leave out its note on the band (writeBandNote): at fifty the
// band holds 86.5% of the real distribution (bandCover).
const bandRuns = 50

// bandCover is how much of the real distribution a band from the 5th to
// the 95th percentile of n runs holds on average. The k-th smallest of n
// values lies on average at the distribution's k/(n+1) point, and the
// percentiles (quantile's, Hyndman and Fan's definition 7) lie between
// the 1+0.05(n-1)-th and the 1+0.95(n-1)-th values: 0.9(n-1)/(n+1), 74%
// at ten runs. A model median as typical as one of the runtime's own lies
// outside such a band more often than outside the true central 90%.
func bandCover(n int) float64 {
	return (centralHigh - centralLow) * float64(n-1) / float64(n+1)
}

// writeBandNote says, when some scenario had fewer than bandRuns real
// runs, how little of the real distribution its band holds, and so why
// the count of observables outside it falls with more runs.
func writeBandNote(b *strings.Builder, reps []*Report) {
	fewest := 0
	for _, r := range reps {
		if r.Runs > 0 && (fewest == 0 || r.Runs < fewest) {
			fewest = r.Runs
		}
	}
	if fewest == 0 || fewest >= bandRuns {
		return
	}
	fmt.Fprintf(b, "the central 90%% is estimated from each scenario's real runs, %d at the fewest: a band so drawn holds on average %.0f%% of the real distribution (%.0f%% at %d runs), so the count falls as the runs grow, the model unchanged; --runs %d or a pool of series (--real-from A,B,...) draws it nearer the true 90%%\n",
		fewest, 100*bandCover(fewest), 100*bandCover(bandRuns), bandRuns, bandRuns)
}

// outside says whether the model lies outside the real distribution: a
// number whose model median is outside the real runs' central 90%, or a
// first goroutine, an output order or an ending that no real run shared.
// Unlike the rank test, which with more seeds tells ever smaller shifts
// apart, this asks whether the model's typical run is one the runtime
// seldom gives, and more seeds only pin the model's median down.
func (row *Row) outside() bool {
	switch {
	case row.Outcome == "none":
		return false
	case row.RealLow != nil && row.RealHigh != nil:
		// At the precision the report shows, as the values were judged.
		m := row.unit.round(row.Model)
		return m < *row.RealLow || m > *row.RealHigh
	}
	return row.Outcome == "differs"
}

// makespanNote, useNote and migrationsNote begin the notes that measure
// why an observable differs: the time a P stood idle while a goroutine
// was ready, the first preemption's spread, on one P the goroutines'
// running time and, where the Ps share fewer CPUs, the CPU time the
// program used (strandedNote, preemptNote, busyNote, cpuNote, for the
// makespan), the switches' share of the P time, the running past the
// model's longest slice and the Ps idle beside a ready goroutine
// (switchNote, sliceNote, idleNote, for the P use), and the Ps' starts
// and the timers' goroutines moved (startsNote, wokenNote, for the
// migrations). noteKeys finds them by the observable.
const (
	makespanNote   = "makespan: "
	useNote        = "P use: "
	migrationsNote = "P migrations: "
)

var noteKeys = map[string]string{"makespan": makespanNote, "P utilisation": useNote, "P migrations": migrationsNote}

// noWhy is the summary's line under an observable outside the real
// distribution that no note explains: verify says that it looked, and
// found nothing, rather than leave the verdict bare.
func noWhy(observable string) string {
	if _, ok := noteKeys[observable]; ok {
		return "not found: none of what verify measures makes half the difference (schedlab verify --help lists them)"
	}
	return "not found: verify measures nothing behind this observable"
}

// why is what the report's notes on observable measured, each note's
// words before its explanation, for the summary to set under the
// observable when it lies outside the real distribution.
func (r *Report) why(observable string) []string {
	key, ok := noteKeys[observable]
	if !ok {
		return nil
	}
	var measured []string
	for _, n := range r.Notes {
		if rest, found := strings.CutPrefix(n, key); found {
			m, _, _ := strings.Cut(rest, ": ")
			measured = append(measured, m)
		}
	}
	return measured
}

// markOutside sets every row's Outside.
func (r *Report) markOutside() {
	for i := range r.Rows {
		r.Rows[i].Outside = r.Rows[i].outside()
	}
}

// outsideWords says where row, an outside one, lies: below or above the
// real runs' central 90%, with both sides' figures, or that no real run
// shared the model's value.
func (row *Row) outsideWords() string {
	if row.RealLow == nil || row.RealHigh == nil {
		return "no real run shared the model's"
	}
	side := "below"
	if row.unit.round(row.Model) > *row.RealHigh {
		side = "above"
	}
	return fmt.Sprintf("%s the real runs' central 90%% (model %s, real %s–%s)", side,
		row.unit.format(row.Model), row.unit.format(*row.RealLow), row.unit.format(*row.RealHigh))
}

// beyond says whether row, a differing one, is beyond every real run: a
// number whose model median is below the real runs' lowest or above
// their highest, or a category no real run agreed on. A difference the
// rank test finds can lie within the real range, where the real runs
// spread wide around a model to one side of their middle.
func (row *Row) beyond() bool {
	if row.Outcome == "differs" {
		return true
	}
	return row.Model < row.RealMin || row.Model > row.RealMax
}

// near says whether row's model median is near the real runs' median, as
// the summary counts it: of a duration or a share only.
func (row *Row) near() bool {
	d := math.Abs(row.Model - row.RealMedian)
	switch row.unit {
	case unitDuration:
		return d <= nearDuration*row.RealMedian
	case unitShare:
		return d <= nearShare+1e-9
	}
	return false
}

// summaryHeads are the observables' short names, for the summary's header.
var summaryHeads = map[string]string{
	"first goroutine started": "first G",
	"makespan":                "makespan",
	"goroutines created":      "created",
	"peak live goroutines":    "peak live",
	"preempted slices":        "preempted",
	"P migrations":            "migrations",
	"P utilisation":           "P use",
	orderRow:                  "output",
	endingRow:                 "ending",
}

// row returns the report's row of an observable, or nil.
func (r *Report) row(name string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Observable == name {
			return &r.Rows[i]
		}
	}
	return nil
}

// clipCell shortens a tally for the table's cell; the JSON keeps it whole.
func clipCell(s string) string {
	const most = 60
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return s
}
