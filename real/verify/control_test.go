package verify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// controlRuns is ten runs whose makespans start at from, 1µs apart, with
// P use from use.
func controlRuns(from time.Duration, use float64) []Observables {
	var o []Observables
	for i := range 10 {
		o = append(o, Observables{Makespan: from + time.Duration(i)*time.Microsecond, Goroutines: 2, FirstStarted: 2,
			Utilisation: use + float64(i)/10000})
	}
	return o
}

// The control judges its second series as the model's runs are judged,
// against the same first series: the same rows, the second series in the
// model's place.
func TestControlJudgesTheSecondSeriesAsTheModel(t *testing.T) {
	first := controlRuns(1000*time.Microsecond, 0.5)
	same := judgeControl(first, controlRuns(1000*time.Microsecond, 0.5), false, nil, "load 1.0")
	if out := same.Differing(); len(out) != 0 {
		t.Errorf("a second series like the first differs on %v", out)
	}
	later := judgeControl(first, controlRuns(1100*time.Microsecond, 0.5), false, nil, "load 1.0")
	if out := later.Differing(); len(out) != 1 || out[0] != "makespan" {
		t.Errorf("a second series 10%% slower differs on %v, want the makespan", out)
	}
	var model Report
	model.Judge(controlRuns(1100*time.Microsecond, 0.5), first)
	if len(model.Rows) != len(later.Rows) {
		t.Fatalf("the control has %d rows, the model's judgement %d", len(later.Rows), len(model.Rows))
	}
	for i, row := range later.Rows {
		if want := model.Rows[i]; row.Observable != want.Observable || row.Outcome != want.Outcome || row.Model != want.Model {
			t.Errorf("control row %s: %s, second series %v; judged as the model: %s, %v", row.Observable, row.Outcome, row.Model, want.Outcome, want.Model)
		}
	}
	if later.Runs != 10 || later.Load != "load 1.0" {
		t.Errorf("control of %d runs at %q", later.Runs, later.Load)
	}
}

// Untraced runs (a scenario that fails by design) have no trace: the
// control judges how they ended, as the model's judgement does, and a
// printing scenario's order even when nothing was printed.
func TestControlJudgesEndingsAndOrders(t *testing.T) {
	untraced := func(ended string, n int) []Observables {
		var o []Observables
		for range n {
			o = append(o, Observables{Untraced: true, Ended: ended})
		}
		return o
	}
	c := judgeControl(untraced("deadlock", 5), untraced("exit status 0", 5), true, endedOf(untraced("exit status 0", 5)), "")
	rows := map[string]Row{}
	for _, r := range c.Rows {
		rows[r.Observable] = r
	}
	if r, ok := rows[endingRow]; !ok || r.Outcome != "differs" {
		t.Errorf("ending row %+v (present %v), want a difference: the first series deadlocked, the second exited", r, ok)
	}
	if r, ok := rows[orderRow]; !ok || !r.Within {
		t.Errorf("order row %+v (present %v), want agreement: neither series printed", r, ok)
	}
}

// A report with a control says, under its table, what the control found;
// its JSON holds it.
func TestReportShowsItsControl(t *testing.T) {
	first := controlRuns(1000*time.Microsecond, 0.5)
	rep := &Report{Scenario: "s", Procs: 1, Seeds: []uint64{1, 2}, Runs: 10}
	rep.Judge(controlRuns(1000*time.Microsecond, 0.5), first)
	rep.Control = judgeControl(first, controlRuns(1100*time.Microsecond, 0.5), false, nil, "load 0.5")
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "control: 10 more real runs, judged against the first 10 as the model is: they differ on 1 of 7 observables (makespan); load 0.5\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Control *struct {
			Runs int
			Rows []struct{ Observable, Outcome string }
		}
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatal(err)
	}
	if back.Control == nil || back.Control.Runs != 10 || len(back.Control.Rows) != 7 || back.Control.Rows[1].Outcome != "higher" {
		t.Errorf("the JSON's control: %+v", back.Control)
	}
	rep.Control = nil
	b.Reset()
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "control") {
		t.Errorf("a report without a control mentions one:\n%s", b.String())
	}
}

// The summary counts the controls' differences beside the model's, before
// and after the correction for many tests, and names them.
func TestSummaryCountsTheControl(t *testing.T) {
	first := controlRuns(1000*time.Microsecond, 0.5)
	var reps []*Report
	for _, c := range []struct {
		name   string
		second time.Duration
	}{{"steady", 1000 * time.Microsecond}, {"drifts", 1300 * time.Microsecond}} {
		rep := &Report{Scenario: c.name, Procs: 1, Seeds: []uint64{1, 2}, Runs: 10}
		rep.Judge(controlRuns(1000*time.Microsecond, 0.5), first)
		rep.Control = judgeControl(first, controlRuns(c.second, 0.5), false, nil, "load 1")
		reps = append(reps, rep)
	}
	var b strings.Builder
	if err := WriteSummary(&b, reps); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"control: a second series of real runs, judged against the first as the model is, differs from it on 1 of 14 observables, on 1 after Benjamini–Hochberg's correction",
		"the control differs on: drifts makespan\n",
		"control: its median lies outside the first series' distribution, as the model's is counted, on 1 of 14 observables: drifts makespan\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
	// Without controls, no line.
	for _, r := range reps {
		r.Control = nil
	}
	b.Reset()
	if err := WriteSummary(&b, reps); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "control") {
		t.Errorf("a summary without controls mentions one:\n%s", b.String())
	}
}
