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
// the real runs' median and range, and the verdict.
type Row struct {
	Observable string  `json:"observable"`
	Model      float64 `json:"model"`
	RealMedian float64 `json:"real_median"`
	RealMin    float64 `json:"real_min"`
	RealMax    float64 `json:"real_max"`
	// Within says whether the model falls inside the real runs' range
	// (for the first goroutine started: whether any real run agreed).
	Within  bool   `json:"within"`
	Verdict string `json:"verdict"`
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
	// the machine was doing meanwhile.
	Runs int    `json:"runs"`
	Go   string `json:"go"`
	Load string `json:"load"`
	Rows []Row  `json:"rows"`
	// Notes say what the figures need to be read with (a model run that
	// did not end normally…).
	Notes []string `json:"notes,omitempty"`
}

// Judge fills r.Rows from the model's runs and the real ones: the
// observables of the trace, then, if any run printed, the printed order.
// Untraced real runs (a scenario that fails by design) have no trace:
// its rows have no real run.
func (r *Report) Judge(model, real []Observables) {
	r.Rows = r.Rows[:0]
	printed := real
	defer func() {
		if row, ok := judgeOutput(model, printed); ok {
			r.Rows = append(r.Rows, row)
		}
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
		row := Row{Observable: ob.name, unit: ob.unit}
		if len(mv) == 0 {
			row.Verdict = noData
			r.Rows = append(r.Rows, row)
			continue
		}
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
		} else {
			row.Model = median(mv)
			row.Within = row.Model >= row.RealMin && row.Model <= row.RealMax
			switch {
			case row.Within:
				row.Verdict = "within"
			case row.Model < row.RealMin:
				row.Verdict = "below the real range"
			default:
				row.Verdict = "above the real range"
			}
		}
		r.Rows = append(r.Rows, row)
	}
}

// Outside lists the observables where the model fell outside the real runs.
func (r *Report) Outside() []string {
	var out []string
	for _, row := range r.Rows {
		if !row.Within && row.Verdict != noData && row.Verdict != noReal {
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
	seeds := fmt.Sprint(r.Seeds[0])
	if len(r.Seeds) > 1 {
		seeds = fmt.Sprintf("%d–%d", r.Seeds[0], r.Seeds[len(r.Seeds)-1])
	}
	noise := "exact"
	if r.Noise {
		noise = "noise on"
	}
	// The scenario's name, the toolchain's version and the notes may
	// carry text from the scenario file or the machine: shown, never sent
	// to the terminal raw, and no tab or line break of theirs moves a
	// column (a note keeps the lines of an error's hint).
	fmt.Fprintf(&b, "%s: the model (seeds %s, %s) against %d real run%s", safetext.Term(r.Scenario), seeds, noise, r.Runs, plural(r.Runs))
	if r.Runs > 0 {
		fmt.Fprintf(&b, " (%s, GOMAXPROCS=%d; %s)", safetext.Term(r.Go), r.Procs, safetext.Term(r.Load))
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "observable\tmodel\treal median\treal range\tverdict")
	for _, row := range r.Rows {
		if row.unit == unitCategory {
			real := row.RealValues
			if row.Verdict == noReal {
				real = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Observable, clipCell(row.ModelValues), "-", clipCell(real), row.Verdict)
			continue
		}
		switch row.Verdict {
		case noData:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%s\n", row.Observable, row.Verdict)
			continue
		case noReal:
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t%s\n", row.Observable, row.unit.format(row.Model), row.Verdict)
			continue
		}
		rng := row.unit.format(row.RealMin)
		if row.RealMax != row.RealMin {
			rng += "–" + row.unit.format(row.RealMax)
		}
		if row.tally != "" {
			rng = row.tally
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Observable, row.unit.format(row.Model), row.unit.format(row.RealMedian), rng, row.Verdict)
	}
	tw.Flush()
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", safetext.TermLines(n))
	}
	_, err := io.WriteString(w, b.String())
	return err
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
// the model is within the real range ("agrees" for the first goroutine
// started, when a real run agreed), "low" or "high" when it is outside,
// "differs" when no real run agreed, "-" without real runs.
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
	outside, judged := 0, 0
	for _, r := range reps {
		cells := []string{safetext.Term(r.Scenario)}
		for _, name := range names {
			row := r.row(name)
			cell := "ok"
			switch {
			case row == nil || row.Verdict == noData || row.Verdict == noReal:
				cell = "-"
			case row.Within:
			case row.unit == unitGoroutine || row.unit == unitCategory:
				cell = "differs"
			case row.Model < row.RealMin:
				cell = "low"
			default:
				cell = "high"
			}
			if row != nil {
				judged++
			}
			if cell != "ok" && cell != "-" {
				outside++
			}
			cells = append(cells, cell)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(&b, "%d scenarios; the model is outside the real runs' range on %d of %d observables\n", len(reps), outside, judged)
	_, err := io.WriteString(w, b.String())
	return err
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
