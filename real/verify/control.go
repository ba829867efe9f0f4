package verify

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/internal/safetext"
)

// Control is the real program judged against itself (Options.Control): a
// second series of real runs, taken right after the first, judged against
// the first exactly as the model's runs are. What it finds different is
// what a model as close to the runtime as the runtime is to itself would
// be found to differ on: the rank test's rejections by chance (about one
// test in twenty), and what the machine, shared with other work, changed
// between the two series. A count of the model's differences means
// something only beside it.
//
// Its rows are the model's rows in form: a row's model fields (Model,
// ModelMin, ModelMax, ModelValues) hold the second series, its real fields
// the first.
type Control struct {
	// Runs is how many runs the second series had.
	Runs int `json:"runs"`
	// Load is the machine's load around the second series.
	Load string `json:"load"`
	// From is the recording the second series was read from
	// (Options.ControlFrom), or the recordings with how many runs each
	// had; empty when it ran right after the first.
	From string `json:"from,omitempty"`
	Rows []Row  `json:"rows"`
}

// judgeControl judges second, the control series, against first, the real
// runs the model was judged against, with the rows the model's judgement
// has (Report.judgeScenario): ended is how the second series' runs ended,
// if they ran untraced.
func judgeControl(first, second []Observables, prints bool, ended []string, load string) *Control {
	var r Report
	r.judgeScenario(second, first, prints, ended)
	return &Control{Runs: len(second), Load: load, Rows: r.Rows}
}

// Differing lists the observables where the second series differs from the
// first, as Report.Differing does for the model.
func (c *Control) Differing() []string { return differingNames(c.Rows) }

// writeText writes the control's line of a report.
func (c *Control) writeText(b *strings.Builder, runs int) {
	if c.From != "" {
		fmt.Fprintf(b, "control: the %d real run%s recorded in %s, judged against the %d as the model is: ", c.Runs, plural(c.Runs), safetext.Term(c.From), runs)
	} else {
		fmt.Fprintf(b, "control: %d more real run%s, judged against the first %d as the model is: ", c.Runs, plural(c.Runs), runs)
	}
	judged, _ := tallyRows(c.Rows)
	if out := c.Differing(); len(out) > 0 {
		fmt.Fprintf(b, "they differ on %d of %d observables (%s)", len(out), judged, strings.Join(out, ", "))
	} else {
		fmt.Fprintf(b, "they differ on none of %d observables", judged)
	}
	fmt.Fprintf(b, "; %s\n", c.Load)
}

// writeControlSummary writes the summary's lines on the controls of reps,
// if any has one: how often the runtime differed from itself, before and
// after the correction for many tests, and where.
func writeControlSummary(b *strings.Builder, reps []*Report) {
	var groups []rowGroup
	for _, r := range reps {
		if r.Control != nil {
			groups = append(groups, rowGroup{rows: r.Control.Rows, seeds: r.Control.Runs, runs: r.Runs})
		}
	}
	if len(groups) == 0 {
		return
	}
	tests := correctGroups(groups)
	judged, outsideN, chance := 0, 0, 0
	var where []string
	for _, r := range reps {
		if r.Control == nil {
			continue
		}
		j, c := tallyRows(r.Control.Rows)
		judged += j
		chance += c
		for _, name := range r.Control.Differing() {
			outsideN++
			where = append(where, safetext.Term(r.Scenario)+" "+name)
		}
	}
	fmt.Fprintf(b, "control: a second series of real runs, judged against the first as the model is, differs from it on %d of %d observables", outsideN, judged)
	if tests > 0 {
		fmt.Fprintf(b, ", on %d after %s's correction", outsideN-chance, correctionName)
	}
	b.WriteString(": a model as close to the runtime as the runtime is to itself would differ about as often\n")
	if len(where) > 0 {
		fmt.Fprintf(b, "the control differs on: %s\n", strings.Join(where, ", "))
	}
	var out []string
	for _, r := range reps {
		if r.Control == nil {
			continue
		}
		for _, name := range outsideNames(r.Control.Rows) {
			out = append(out, safetext.Term(r.Scenario)+" "+name)
		}
	}
	fmt.Fprintf(b, "control: its median lies outside the first series' distribution, as the model's is counted, on %d of %d observables", len(out), judged)
	if len(out) > 0 {
		fmt.Fprintf(b, ": %s", strings.Join(out, ", "))
	}
	b.WriteString("\n")
}
