package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/rtrace"
)

// TestRecorderMeasuresARun feeds a fixed run: G1 starts, creates G2 and
// G3 on P0; G3 starts on P1, is preempted, then runs on P0 (a migration);
// G2 runs on P1; everything exits at 10ms.
func TestRecorderMeasuresARun(t *testing.T) {
	ms := time.Millisecond
	r := NewRecorder(2)
	for _, e := range []struct {
		t         time.Duration
		kind      string
		g, p      int64
		preempted bool
	}{
		{0, "go-start", 1, 0, false},
		{1 * ms, "go-create", 2, 0, false},
		{1 * ms, "go-create", 3, 0, false},
		{2 * ms, "go-start", 3, 1, false},
		{4 * ms, "go-stop", 3, 1, true},
		{4 * ms, "go-start", 2, 1, false},
		{5 * ms, "go-block", 1, 0, false},
		{5 * ms, "go-start", 3, 0, false},
		{8 * ms, "go-exit", 3, 0, false},
		{9 * ms, "go-exit", 2, 1, false},
		{10 * ms, "go-start", 1, 0, false},
	} {
		r.Event(e.t, e.kind, e.g, e.p, e.preempted)
	}
	got := r.Observables()
	// The window opens at main's first event after its start, 1ms.
	// Busy: G1 1–5 and 10–10, G3 2–4 and 5–8, G2 4–9: 4+2+3+5 = 14ms of 2×9ms.
	// Two switches to a goroutine ready by its P's last stop, each at once:
	// G2 on P1 at 4ms, G3 on P0 at 5ms. P1 idle from the window's opening
	// while G2 and G3 are ready, until G3 starts there at 2ms: 1ms
	// stranded. G3's preemption at 4ms is 3ms into the window.
	want := Observables{Makespan: 9 * ms, Goroutines: 2, PeakLive: 3, Preempted: 1, Migrations: 1, Utilisation: 14.0 / 18, FirstStarted: 3, Switches: 2,
		Stranded: ms, FirstPreempt: 3 * ms,
		// The slices, longest first: G2's, G1's first, G3's two, and
		// G1's at the close, still running.
		Longest: []time.Duration{5 * ms, 4 * ms, 3 * ms, 2 * ms, 0},
		// G3's migration followed a preemption, not a wake-up by the
		// runtime.
		WokenAway: new(int)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// recordEvents feeds r events of the scenario's goroutines (g > 0) and of
// the runtime's own (g < 0, as RuntimeEvent takes them with -g).
func recordEvents(r *Recorder, events []recorded) {
	for _, e := range events {
		if e.g < 0 {
			r.RuntimeEvent(e.t, e.kind, -e.g, e.p)
		} else {
			r.Event(e.t, e.kind, e.g, e.p, false)
		}
	}
}

type recorded struct {
	t    time.Duration
	kind string
	g, p int64
}

// The window is the scenario's on both sides. A real trace begins with
// main already running, 25µs or so before its first action (the tracer's
// start), and goes on after main returned (its closing of standard
// output, then runtime/trace.Stop); the model starts main at 0 and ends
// with its exit. From main's first action to its return, the two agree.
func TestRecorderWindowIsTheScenarios(t *testing.T) {
	us := time.Microsecond
	// The model: main starts at 0, creates G2 at 150ns, exits at 1.15µs.
	model := NewRecorder(1)
	recordEvents(model, []recorded{
		{0, "go-start", 1, 0},
		{150 * time.Nanosecond, "go-create", 2, 0},
		{1150 * time.Nanosecond, "go-exit", 1, 0},
		{2 * us, "go-start", 2, 0}, // after main returned: none of the run's
	})
	// A real run: main caught running at 20µs, creates G2 at 40µs, and
	// returns from the scenario at 41µs (rtrace's ScenarioEnd).
	real := NewRecorder(1)
	recordEvents(real, []recorded{
		{20 * us, "go-start", 1, 0},
		{40 * us, "go-create", 2, 0},
	})
	real.End(41 * us)
	m, r := model.Observables(), real.Observables()
	if m.Makespan != 1*us || r.Makespan != 1*us {
		t.Errorf("makespans %v (model) and %v (real), want 1µs each: from main's first action to its return", m.Makespan, r.Makespan)
	}
	if m.Utilisation != 1 || r.Utilisation != 1 || m.FirstStarted != 0 {
		t.Errorf("model %+v, real %+v: main runs the whole window, and G2 starts after it", m, r)
	}
}

// The P time runtime/trace's goroutines take is not the scenario's: on one
// P, the tracer's writer runs 10µs and writes for 20µs with the P held,
// between two goroutines of the scenario, and the Ps are as busy as the
// scenario could keep them. A runtime goroutine whose P a scenario
// goroutine runs on has lost it.
func TestRecorderLeavesTheRuntimesTimeOut(t *testing.T) {
	us := time.Microsecond
	r := NewRecorder(1)
	recordEvents(r, []recorded{
		{0, "go-start", 1, 0},
		{10 * us, "go-create", 2, 0},
		{20 * us, "go-block", 1, 0},
		{20 * us, "go-start", -7, 0}, // the writer
		{30 * us, "syscall-enter", -7, 0},
		{50 * us, "go-start", 2, 0}, // the P is the scenario's again
		{70 * us, "syscall-exit", -7, -1},
		{150 * us, "go-exit", 2, 0},
		{150 * us, "go-start", 1, 0},
		{160 * us, "go-exit", 1, 0},
	})
	o := r.Observables()
	// Window 10–160µs: 150µs, of which the writer held the P 20–50µs
	// while G2 was ready: the scenario's makespan is 120µs, as a model
	// that runs no tracer would take. The scenario ran 10–20, 50–150 and
	// 150–160: 120µs of 120µs.
	if o.Makespan != 120*us || o.RuntimeDelay != 30*us || o.Utilisation != 1 {
		t.Errorf("makespan %v, runtime's delay %v, utilisation %v; want 120µs, 30µs and 1", o.Makespan, o.RuntimeDelay, o.Utilisation)
	}
}

// A trace shows the scheduler's work between a goroutine's stop and the
// next one's start as an idle P. A turn of the runtime's goroutine between
// two of the scenario's adds a switch the model, which runs none, never
// makes: the switch to it is the runtime's P time; the switch back stands
// for the model's own, and stays the scenario's. A turn of the runtime's
// while no scenario goroutine is ready takes nothing from the scenario:
// its P would have been idle, as the model's is.
func TestRecorderSwitchToTheRuntimeIsTheRuntimes(t *testing.T) {
	us, ns := time.Microsecond, time.Nanosecond
	r := NewRecorder(1)
	recordEvents(r, []recorded{
		{0, "go-start", 1, 0},
		{10 * us, "go-create", 2, 0},
		{15 * us, "go-unblock", -7, -1}, // the writer is woken
		{20 * us, "go-block", 1, 0},
		{20*us + 700*ns, "go-start", -7, 0}, // 700ns switching to it
		{30 * us, "go-block", -7, 0},
		{30*us + 400*ns, "go-start", 2, 0}, // 400ns back: the scenario's switch
		{40 * us, "go-block", 2, 0},
		{50 * us, "go-unblock", -8, -1}, // P0 idle since 40µs, the runtime's from 50
		{50*us + 300*ns, "go-start", -8, 0},
		{60 * us, "go-block", -8, 0},
		{60 * us, "go-unblock", 1, 0},
		{61 * us, "go-start", 1, 0},
		{70 * us, "go-exit", 1, 0},
	})
	o := r.Observables()
	// Window 10–70µs. The runtime's: the switch to the writer, 20–20.7µs,
	// and its turn, 20.7–30µs, while G2 was ready: 10µs. Its second
	// goroutine's turn, 50–60µs, came while main slept and G2 had ended:
	// the P's idle time, not the runtime's. The scenario ran 10–20,
	// 30.4–40 and 61–70µs: 28.6µs of the 50µs left.
	if want := 28.6 / 50; math.Abs(o.Utilisation-want) > 1e-9 {
		t.Errorf("utilisation %v, want 28.6/50 = %v", o.Utilisation, want)
	}
}

// The runtime's goroutines delay the scenario only when they hold every
// P while one of its goroutines is ready. On two Ps, the writer on one P
// leaves the other to the scenario; while the scenario's goroutines all
// sleep, the writer's turn delays nothing; and a goroutine the writer's
// turn kept waiting (G3, woken at 60µs, P0 and P1 the runtime's until
// 70µs) waited 10µs for it.
func TestRecorderRuntimeDelayIsWhenTheScenarioWaits(t *testing.T) {
	us := time.Microsecond
	r := NewRecorder(2)
	recordEvents(r, []recorded{
		{0, "go-start", 1, 0},
		{10 * us, "go-create", 2, 0},
		{10 * us, "go-create", 3, 0},
		{12 * us, "go-start", 2, 1},
		{20 * us, "go-start", 3, 0}, // main is running still: P0 is G3's after main blocks
		{20 * us, "go-block", 1, 0},
		{25 * us, "go-block", 2, 1},  // G2 sleeps; G3 runs on P0
		{25 * us, "go-start", -7, 1}, // the writer takes P1
		{30 * us, "go-block", 3, 0},  // every scenario goroutine asleep
		{30 * us, "go-start", -8, 0}, // a second runtime goroutine on P0
		{60 * us, "go-unblock", 3, -1},
		{70 * us, "go-block", -8, 0},
		{70 * us, "go-start", 3, 0},
		{75 * us, "go-block", -7, 1},
		{80 * us, "go-unblock", 1, 0},
		{80 * us, "go-exit", 3, 0},
		{80 * us, "go-start", 1, 0},
		{90 * us, "go-exit", 1, 0},
	})
	o := r.Observables()
	if o.RuntimeDelay != 10*us || o.Makespan != 70*us {
		t.Errorf("runtime's delay %v, makespan %v; want 10µs (60–70µs: G3 ready, both Ps the runtime's) and 80µs less it", o.RuntimeDelay, o.Makespan)
	}
	// The Ps' time over the whole window, 160µs, less the runtime's 10µs:
	// it held P1 25–75 and P0 30–70, but only 60–70, G3 ready, on one P,
	// took a P the scenario wanted. The scenario's goroutines ran 53µs of
	// the 150µs left (main 10–20 and 80–90, G2 12–25, G3 20–30 and 70–80).
	if want := 53.0 / 150; math.Abs(o.Utilisation-want) > 1e-9 {
		t.Errorf("utilisation %v, want 53/150 = %v", o.Utilisation, want)
	}
}

// TestJudgeComparesDistributions judges a report's rows: the makespans
// alike, the migrations far apart, the first goroutine by agreement; then
// writes it as text and JSON.
func TestJudgeComparesDistributions(t *testing.T) {
	ms := time.Millisecond
	obs := func(makespan time.Duration, first int64, migrations int) Observables {
		return Observables{Makespan: makespan, FirstStarted: first, Migrations: migrations, Goroutines: 4, PeakLive: 5}
	}
	model := []Observables{obs(10*ms, 3, 9), obs(12*ms, 3, 9), obs(30*ms, 2, 9), obs(11*ms, 3, 8), obs(13*ms, 3, 9)}
	real := []Observables{obs(11*ms, 2, 1), obs(14*ms, 3, 2), obs(9*ms, 3, 3), obs(20*ms, 3, 2), obs(12*ms, 3, 1), obs(10*ms, 3, 2)}
	rep := &Report{Scenario: "x", Procs: 2, Seeds: []uint64{1, 2, 3, 4, 5}, Runs: 6, Go: "go1.26.0", Load: "load", Costs: "the model's built-in costs"}
	rep.Judge(model, real)
	rows := map[string]Row{}
	for _, r := range rep.Rows {
		rows[r.Observable] = r
	}
	if r := rows["makespan"]; r.Model != float64(12*ms) || r.RealMin != float64(9*ms) || r.RealMax != float64(20*ms) || r.RealMedian != float64(11500*time.Microsecond) ||
		r.ModelMin != float64(10*ms) || r.ModelMax != float64(30*ms) || !r.Within || r.Outcome != "within" || r.P == nil || *r.P < Alpha {
		t.Errorf("makespan row %+v", r)
	}
	if r := rows["P migrations"]; r.Within || r.Verdict != "model higher" || r.Outcome != "higher" || *r.P >= Alpha || *r.DiffLow <= 0 {
		t.Errorf("migrations row %+v", r)
	}
	if r := rows["first goroutine started"]; r.Model != 3 || !r.Within || r.Verdict != "5 of 6 real runs agree" || r.tally != "G2, G3 x5" || r.P != nil {
		t.Errorf("first-started row %+v", r)
	}
	if got := rep.Differing(); strings.Join(got, ",") != "P migrations" {
		t.Errorf("Differing() = %v", got)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"x: the model (seeds 1–5, exact) against 6 real runs (go1.26.0, GOMAXPROCS=2; load)\ncosts: the model's built-in costs\n", "makespan", "9ms–20ms", "11.5ms", "model higher"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Rows) != len(rep.Rows) {
		t.Errorf("the JSON report does not read back: %v\n%s", err, js.String())
	}
	// The fields a reader of the JSON had before the verdicts changed are
	// all still there, with their types.
	var fields struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(js.Bytes(), &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"observable", "model", "real_median", "real_min", "real_max", "within", "verdict", "outcome", "model_min", "model_max", "p", "real_p5", "real_p95", "outside"} {
		if _, ok := fields.Rows[1][f]; !ok {
			t.Errorf("the JSON makespan row has no %q: %v", f, fields.Rows[1])
		}
	}
}

// TestSummaryCountsVerdicts: the summary marks each verdict and counts the
// observables that differ and those undecided.
func TestSummaryCountsVerdicts(t *testing.T) {
	ms := time.Millisecond
	five := []Observables{{Makespan: 10 * ms, Goroutines: 2}, {Makespan: 11 * ms, Goroutines: 2}, {Makespan: 12 * ms, Goroutines: 2}, {Makespan: 13 * ms, Goroutines: 2}, {Makespan: 14 * ms, Goroutines: 2}}
	slow := []Observables{{Makespan: 30 * ms, Goroutines: 2}, {Makespan: 31 * ms, Goroutines: 2}, {Makespan: 32 * ms, Goroutines: 2}, {Makespan: 33 * ms, Goroutines: 2}, {Makespan: 34 * ms, Goroutines: 2}}
	differs := &Report{Scenario: "slow", Seeds: []uint64{1}}
	differs.Judge(five, slow)
	few := &Report{Scenario: "few", Seeds: []uint64{1}}
	few.Judge(five, slow[:2])
	var b strings.Builder
	if err := WriteSummary(&b, []*Report{differs, few}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slow      ok       low       ok", "few       ok       ?         ok", "2 scenarios; the model differs from the real runs on 1 of 14 observables (rank test, p < 0.05); 1 undecided (too few runs)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
}

// Of the observables that differ, the summary counts those whose model
// median is near the real runs' (a duration within 2%, a share within a
// point): a model 1% slower than tight real runs differs, and is near;
// one three times slower is not, nor is a count.
func TestSummaryCountsTheNearDifferences(t *testing.T) {
	us := time.Microsecond
	runs := func(from time.Duration, use float64, migrations int) []Observables {
		var o []Observables
		for i := range 10 {
			o = append(o, Observables{Makespan: from + time.Duration(i)*us, Goroutines: 2, Utilisation: use + float64(i)/10000, Migrations: migrations + i%2})
		}
		return o
	}
	real := runs(1000*us, 0.500, 0)
	near := &Report{Scenario: "near", Seeds: []uint64{1}}
	near.Judge(runs(1015*us, 0.508, 0), real) // makespan +1.5%, P use +0.8 points
	far := &Report{Scenario: "far", Seeds: []uint64{1}}
	far.Judge(runs(3000*us, 0.700, 20), real) // three times, 20 points, 20 migrations
	var b strings.Builder
	if err := WriteSummary(&b, []*Report{near, far}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"near      ok       high      ok       ok         ok         ok          high", "far       ok       high      ok       ok         ok         high        high",
		"differs from the real runs on 5 of", "2 of the 5 are near the real runs' median (a duration within 2% of it, a share within 1 point)",
		"5 of the 5 are beyond every real run"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
}

// Of the observables that differ, the summary counts those beyond every
// real run: a model whose median lies past the real runs' extremes, not
// one the rank test puts to one side of real runs that spread past it
// (one slow run of ten, and a model a little slower than the other nine).
func TestSummaryCountsTheDifferencesBeyondTheRealRuns(t *testing.T) {
	us := time.Microsecond
	runs := func(from time.Duration) []Observables {
		var o []Observables
		for i := range 10 {
			o = append(o, Observables{Makespan: from + time.Duration(i)*us, Goroutines: 2})
		}
		return o
	}
	real := runs(1000 * us)
	real[9].Makespan = 1100 * us
	inside := &Report{Scenario: "inside", Seeds: []uint64{1}}
	inside.Judge(runs(1008*us), real)
	past := &Report{Scenario: "past", Seeds: []uint64{1}}
	past.Judge(runs(1200*us), real)
	var b strings.Builder
	if err := WriteSummary(&b, []*Report{inside, past}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"inside    ok       high", "past      ok       high",
		"differs from the real runs on 2 of", "1 of the 2 are beyond every real run (the model's median below the lowest or above the highest, or no real run agreeing with it)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
}

// The summary counts the observables outside the real distribution: a
// model median outside the real runs' central 90% (5th to 95th
// percentile), though inside their range, counts; one in the middle does
// not; a first goroutine no real run started counts; and each is named
// with both sides' figures.
func TestSummaryCountsOutsideTheRealDistribution(t *testing.T) {
	us := time.Microsecond
	var real []Observables
	for i := range 20 { // 1000µs to 1190µs: the central 90% is 1.01ms–1.18ms
		real = append(real, Observables{Makespan: 1000*us + time.Duration(i)*10*us, Goroutines: 2, FirstStarted: 2})
	}
	model := func(makespan time.Duration, first int64) []Observables {
		var o []Observables
		for range 10 {
			o = append(o, Observables{Makespan: makespan, Goroutines: 2, FirstStarted: first})
		}
		return o
	}
	middle := &Report{Scenario: "middle", Seeds: []uint64{1}}
	middle.Judge(model(1100*us, 2), real)
	tail := &Report{Scenario: "tail", Seeds: []uint64{1}}
	tail.Judge(model(1186*us, 3), real) // 1.19ms: in the range, past the 95th percentile
	if row := tail.row("makespan"); row == nil || !row.Outside || row.beyond() || *row.RealLow != float64(1010*us) || *row.RealHigh != float64(1180*us) {
		t.Errorf("tail's makespan row: %+v", row)
	}
	if row := middle.row("makespan"); row == nil || row.Outside {
		t.Errorf("middle's makespan row: %+v", row)
	}
	// A note that measures why the makespan differs goes under the
	// outside row, its measurement without its explanation; middle's,
	// inside, goes nowhere, nor does a note on an observable inside.
	tail.Notes = append(tail.Notes, makespanNote+"the real runs had a P idle for 2ms: threads woke late", useNote+"the switches took 1%: shorter")
	middle.Notes = append(middle.Notes, makespanNote+"the middle's note: not shown")
	var b strings.Builder
	if err := WriteSummary(&b, []*Report{middle, tail}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"): 2 of 14 observables; unlike the rank test's count",
		"  tail: first goroutine started no real run shared the model's\n    why: not found: verify measures nothing behind this observable\n",
		"  tail: makespan above the real runs' central 90% (model 1.19ms, real 1.01ms–1.18ms)\n    why: the real runs had a P idle for 2ms\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
	for _, unwanted := range []string{"  middle:", "middle's note", "switches", "threads woke late"} {
		if strings.Contains(b.String(), unwanted) {
			t.Errorf("the summary says %q:\n%s", unwanted, b.String())
		}
	}
	// An outside makespan no note explains says that none does.
	bare := &Report{Scenario: "bare", Seeds: []uint64{1}}
	bare.Judge(model(1186*us, 2), real)
	b.Reset()
	if err := WriteSummary(&b, []*Report{bare}); err != nil {
		t.Fatal(err)
	}
	if want := "  bare: makespan above the real runs' central 90% (model 1.19ms, real 1.01ms–1.18ms)\n    why: not found: none of what verify measures makes half the difference"; !strings.Contains(b.String(), want) {
		t.Errorf("the summary lacks %q:\n%s", want, b.String())
	}
}

// bandCover's formula is what drawing the band from n runs gives: over
// many samples of n values from a uniform distribution, whose value at
// a point is that point, the band from quantile's 5th to its 95th
// percentile holds on average 0.9(n-1)/(n+1) of the distribution.
func TestBandCoverIsWhatSamplesHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10, 30, 50} {
		const samples = 20000
		var held float64
		v := make([]float64, n)
		for range samples {
			for i := range v {
				v[i] = rng.Float64()
			}
			slices.Sort(v)
			held += quantile(v, centralHigh) - quantile(v, centralLow)
		}
		if got, want := held/samples, bandCover(n); math.Abs(got-want) > 0.005 {
			t.Errorf("%d runs: the band held %.4f of the distribution on average, bandCover says %.4f", n, got, want)
		}
	}
	if c := bandCover(10); c < 0.73 || c > 0.74 {
		t.Errorf("bandCover(10) = %.4f, want 0.736", c)
	}
}

// The summary says how little a band of few runs holds, and says
// nothing of it once every scenario has bandRuns runs.
func TestSummaryNotesABandOfFewRuns(t *testing.T) {
	us := time.Microsecond
	summary := func(runs int) string {
		var real []Observables
		for i := range runs {
			real = append(real, Observables{Makespan: 1000*us + time.Duration(i)*us, Goroutines: 2, FirstStarted: 2})
		}
		rep := &Report{Scenario: "x", Seeds: []uint64{1}, Runs: runs}
		rep.Judge([]Observables{{Makespan: 1000 * us, Goroutines: 2, FirstStarted: 2}}, real)
		var b strings.Builder
		if err := WriteSummary(&b, []*Report{rep}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := "the central 90% is estimated from each scenario's real runs, 10 at the fewest: a band so drawn holds on average 74% of the real distribution (86% at 50 runs)"
	if got := summary(10); !strings.Contains(got, want) {
		t.Errorf("with 10 runs the summary lacks %q:\n%s", want, got)
	}
	if got := summary(bandRuns); strings.Contains(got, "is estimated from") {
		t.Errorf("with %d runs the summary notes the band:\n%s", bandRuns, got)
	}
}

// More seeds let the rank test tell a smaller shift apart; they do not
// move a model median from inside the real runs' central 90% to outside
// it. A model half a standard deviation slower than 70 real runs is
// within them by the rank test on 10 seeds, slower on 40, and inside the
// real distribution on both.
func TestOutsideDoesNotGrowWithSeeds(t *testing.T) {
	us := time.Microsecond
	var real []Observables
	for i := range 70 {
		real = append(real, Observables{Makespan: 1000*us + time.Duration(i)*10*us, Goroutines: 2})
	}
	model := func(seeds int) []Observables {
		var o []Observables
		for i := range seeds { // the real spread, 100µs later
			o = append(o, Observables{Makespan: 1100*us + time.Duration(i*690/(seeds-1))*us, Goroutines: 2})
		}
		return o
	}
	for _, tc := range []struct {
		seeds   int
		outcome string
	}{{10, "within"}, {40, "higher"}} {
		r := &Report{Scenario: "shifted", Seeds: make([]uint64, tc.seeds)}
		r.Judge(model(tc.seeds), real)
		row := r.row("makespan")
		if row.Outcome != tc.outcome || row.Outside {
			t.Errorf("%d seeds: outcome %s, outside %v; want %s, not outside (p %v)", tc.seeds, row.Outcome, row.Outside, tc.outcome, *row.P)
		}
	}
}

func TestOnlyMainIsNotAnAgreementAboutNothing(t *testing.T) {
	rep := &Report{Scenario: "alone", Seeds: []uint64{1}, Runs: 2}
	rep.Judge([]Observables{{}}, []Observables{{}, {}})
	if r := rep.Rows[0]; r.Verdict != "only main runs" || !r.Within || r.tally != "-" {
		t.Errorf("first-started row without goroutines: %+v", r)
	}
}

func TestNoRealRunsIsNotJudged(t *testing.T) {
	rep := &Report{Scenario: "deadlock", Seeds: []uint64{1}}
	rep.Judge([]Observables{{Goroutines: 7}}, nil)
	for _, r := range rep.Rows {
		if r.Verdict != noReal || r.Within {
			t.Errorf("%s: %+v, want %q", r.Observable, r, noReal)
		}
		if r.Observable == "goroutines created" && r.Model != 7 {
			t.Errorf("the model's 7 goroutines became %v", r.Model)
		}
	}
	if len(rep.Differing()) != 0 {
		t.Error("observables without real runs counted as outside")
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		43263131 * time.Nanosecond: "43.3ms",
		512 * time.Microsecond:     "512us",
		1500 * time.Millisecond:    "1.5s",
		999:                        "999ns",
		0:                          "0",
	} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%d) = %q, want %q", d, got, want)
		}
	}
}

func TestJudgedAtTheShownPrecision(t *testing.T) {
	rep := &Report{Scenario: "busy", Seeds: []uint64{1}, Runs: 2}
	rep.Judge([]Observables{{Utilisation: 1, Makespan: 10_000_400}}, []Observables{{Utilisation: 0.9998, Makespan: 10_001_000}, {Utilisation: 0.9999, Makespan: 10_003_000}})
	for _, r := range rep.Rows {
		if (r.Observable == "P utilisation" || r.Observable == "makespan") && !r.Within {
			t.Errorf("%s: %+v is outside only beyond the precision shown", r.Observable, r)
		}
	}
}

// The runtime goroutines' system calls are named when they take a fair
// share of the real runs, at the median, and not otherwise; so are their
// starts, when there are many.
func TestTracerNotes(t *testing.T) {
	run := func(syscall time.Duration) Observables {
		return Observables{Makespan: 50 * time.Millisecond, RuntimeSyscall: syscall}
	}
	if notes := tracerNotes([]Observables{run(0), run(time.Millisecond / 2), run(20 * time.Millisecond)}); len(notes) != 0 {
		t.Errorf("a median of 1%% (0.5ms) gave notes: %q", notes)
	}
	notes := tracerNotes([]Observables{run(8 * time.Millisecond), run(time.Millisecond / 2), run(10 * time.Millisecond), run(12 * time.Millisecond)})
	if len(notes) != 1 || !strings.Contains(notes[0], "a median 18% of the run in system calls") {
		t.Errorf("runs at 16, 1, 20 and 24%% gave %q", notes)
	}
	if notes := tracerNotes(nil); len(notes) != 0 {
		t.Errorf("no real runs gave %q", notes)
	}
	short := Observables{Makespan: 500 * time.Microsecond, RuntimeSyscall: 100 * time.Microsecond}
	if notes := tracerNotes([]Observables{short, short}); len(notes) != 0 {
		t.Errorf("a 500µs run's 100µs of system calls gave a note: %q", notes)
	}
	started := func(n int) Observables { return Observables{Makespan: time.Second, RuntimeStarts: n} }
	if notes := tracerNotes([]Observables{started(3), started(30), started(4)}); len(notes) != 0 {
		t.Errorf("a median of 4 starts gave notes: %q", notes)
	}
	notes = tracerNotes([]Observables{started(3), started(30), started(21)})
	if len(notes) != 1 || !strings.Contains(notes[0], "started running a median 21 times") {
		t.Errorf("3, 30 and 21 starts gave %q", notes)
	}
	delayed := func(d time.Duration) Observables {
		return Observables{Makespan: 300*time.Microsecond - d, RuntimeDelay: d}
	}
	if notes := tracerNotes([]Observables{delayed(0), delayed(2 * time.Microsecond), delayed(30 * time.Microsecond)}); len(notes) != 0 {
		t.Errorf("a median wait of 2µs in 300 gave notes: %q", notes)
	}
	notes = tracerNotes([]Observables{delayed(33 * time.Microsecond), delayed(30 * time.Microsecond), delayed(2 * time.Microsecond)})
	if len(notes) != 1 || !strings.Contains(notes[0], "waited a median 30us (10% of the window)") {
		t.Errorf("waits of 33, 30 and 2µs in 300 gave %q", notes)
	}
}

// Each note on the real runs is said once: the tracer's goroutines
// started a median 30 times, and the report says so once, not once
// before the verdicts and again after.
func TestRealRunsNotedOnce(t *testing.T) {
	sc, err := scenarios.Load("pingpong-2p")
	if err != nil {
		t.Fatal(err)
	}
	run := Observables{Makespan: 50 * time.Millisecond, RuntimeStarts: 30}
	rep := &Report{Scenario: sc.Name}
	rep.noteRealRuns(sc, false, []Observables{run, run, run})
	seen := map[string]bool{}
	for _, n := range rep.Notes {
		if seen[n] {
			t.Errorf("note said twice: %q", n)
		}
		seen[n] = true
	}
	if len(seen) != 1 {
		t.Errorf("notes %q, want the one on the runtime's starts", rep.Notes)
	}
}

// A scenario the model stops at its event limit is refused before
// anything is built: there is no go command to build with here, and the
// error is the model's.
func TestSessionRefusesWhatTheModelRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sc, err := scenarios.Parse("limit.yaml", []byte("procs: 1\nmax_events: 100\nmain:\n  - loop: {times: 100000, do: [gosched]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Session(context.Background(), sc, sc.Config(), prog.Options{})
	if !errors.Is(err, ErrModelRefused) || !strings.Contains(err.Error(), "stopped after 100 events") {
		t.Errorf("Session: %v", err)
	}
	_, err = Scenario(context.Background(), sc, Options{Seeds: 1, Runs: 1})
	if !errors.Is(err, ErrModelRefused) {
		t.Errorf("Scenario: %v", err)
	}
}

// A run stopped by until goes on to it after its last event: a hog on one
// P is preempted every 10ms or so, and the model's window ends at until,
// 50ms, as a real run's ends when its until stops it, not at the last
// preemption before.
func TestModelWindowEndsAtUntil(t *testing.T) {
	sc, err := scenarios.Parse("until.yaml", []byte("procs: 1\nuntil: 50ms\nmain:\n  - go: {count: 2, do: [{cpu: 1s}]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	o, end, err := Model(sc.Program(), sc.Config())
	if err != nil || end.Reason.String() != "until reached" {
		t.Fatalf("the model's run: %v, %v", end.Reason, err)
	}
	if o.Makespan > 50*time.Millisecond || o.Makespan < 50*time.Millisecond-10*time.Microsecond {
		t.Errorf("makespan %v, want until's 50ms less main's first go statement", o.Makespan)
	}
}

// With more Ps than the machine has CPUs, the model shares the machine's
// CPUs among its Ms as the real threads share them, and says so; with as
// many CPUs as Ps, or CPUs the scenario or --cpus gives, or --load, it is
// left as it is. On 2 CPUs, burst's 4 Ps then take about the real 566ms
// instead of 302ms.
func TestModelSharesTheMachinesCPUs(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg, note := onMachineCPUs(sc.Config(), scenarios.Overrides{}, 2)
	if cfg.CPUs != 2 || !strings.Contains(note, "GOMAXPROCS=4 on 2 CPUs") || !strings.Contains(note, "--cpus 2") {
		t.Errorf("4 Ps on 2 CPUs: cpus %d, note %q", cfg.CPUs, note)
	}
	if cfg, note := onMachineCPUs(sc.Config(), scenarios.Overrides{}, 4); cfg.CPUs != 0 || note != "" {
		t.Errorf("4 Ps on 4 CPUs: cpus %d, note %q; want no CPUs modelled", cfg.CPUs, note)
	}
	over := scenarios.Overrides{CPUs: 3}
	if cfg, note := onMachineCPUs(sc.ConfigWith(over), over, 2); cfg.CPUs != 3 || note != "" {
		t.Errorf("--cpus 3: cpus %d, note %q", cfg.CPUs, note)
	}
	load := 1
	over = scenarios.Overrides{Load: &load}
	if cfg, _ := onMachineCPUs(sc.ConfigWith(over), over, 2); cfg.CPUs != 0 {
		t.Errorf("--load 1: cpus %d, want --load's own default", cfg.CPUs)
	}
	// The model's makespan follows, within the real spread measured on
	// this 2-CPU machine quiet (556–575ms).
	on := true
	cfg.Noise, cfg.Seed = on, 1
	o, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if o.Makespan < 500*time.Millisecond || o.Makespan > 600*time.Millisecond {
		t.Errorf("burst on 2 CPUs: makespan %v, want about the real 568ms", o.Makespan)
	}
}

// The real runs are traced, and so is the model's run (Config.Tracer):
// the tracer's reader is the runtime's goroutine on both sides, left out
// of the counts and the numbering as rtrace leaves a real trace's out. Its
// wake-ups matter: sixty timer-woken 9ms bursts on one P are preempted
// 4–6 times in traced real runs (three quiet verify --all runs of ten,
// load 1.0–1.8: 4–5, 4–5 and 4–6) and 0–3 untraced; the model, over seeds
// 1–10, once without the reader and 4–6 times with it.
func TestModelRunsTheTracersReader(t *testing.T) {
	// Main sleeps past the reader's first wake-up, then starts two: the
	// reader runs first but is not the first goroutine started, and the
	// two keep their numbers.
	sc, err := scenarios.Parse("late.yaml", []byte("procs: 1\nmain:\n  - sleep: 150ms\n  - go: {count: 2, do: [{cpu: 1ms}]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	plain, traced := untracedAndTraced(t, sc, sc.Config())
	if plain.FirstStarted != 3 || traced.FirstStarted != plain.FirstStarted {
		t.Errorf("first goroutine started: G%d traced, G%d untraced; want G3 (runnext) both", traced.FirstStarted, plain.FirstStarted)
	}
	if traced.Goroutines != 2 || traced.PeakLive != 3 || traced.Migrations != 0 || traced.Preempted != 0 {
		t.Errorf("traced: %d goroutines, %d at once, %d migrations, %d preempted; want the scenario's 2, 3, 0, 0",
			traced.Goroutines, traced.PeakLive, traced.Migrations, traced.Preempted)
	}
	sc, err = scenarios.Load("timer-bursts")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 10; seed++ {
		cfg := sc.Config()
		cfg.Noise, cfg.Seed = true, seed
		plain, traced := untracedAndTraced(t, sc, cfg)
		if traced.Preempted < 4 || traced.Preempted > 6 || plain.Preempted >= traced.Preempted {
			t.Errorf("timer-bursts, seed %d: %d bursts preempted traced, %d untraced; want 4–6 traced, as the real runs, and fewer untraced",
				seed, traced.Preempted, plain.Preempted)
		}
	}
}

// untracedAndTraced measures sc's model run under cfg without and with
// the tracer's goroutines.
func untracedAndTraced(t *testing.T, sc *scenarios.Scenario, cfg gmp.Config) (plain, traced Observables) {
	t.Helper()
	for _, on := range []bool{false, true} {
		cfg.Tracer = on
		o, _, err := Model(sc.Program(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if on {
			traced = o
		} else {
			plain = o
		}
	}
	return plain, traced
}

// verify's model is configured as the real program runs: traced (the
// tracer's goroutines) and warm (a real main starts with the runtime's
// idle threads made, so its first wakep wakes one), with a busy machine's
// costs left to the profile.
func TestModelConfigAsTheRealProgramRuns(t *testing.T) {
	sc, err := scenarios.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	cfg, note := modelConfig(sc, scenarios.Overrides{}, 64)
	if !cfg.Tracer || !cfg.WarmStart || cfg.CPUs != 0 || note != "" {
		t.Errorf("tour on 64 CPUs: tracer %v, warm start %v, CPUs %d, note %q; want traced, warm, no CPUs modelled, no note",
			cfg.Tracer, cfg.WarmStart, cfg.CPUs, note)
	}
	cfg, note = modelConfig(sc, scenarios.Overrides{}, 1)
	if cfg.CPUs != 1 || note == "" {
		t.Errorf("tour (2 Ps) on 1 CPU: CPUs %d, note %q; want the model's Ms on 1 CPU, said", cfg.CPUs, note)
	}
}

// The runtime's goroutines that run on a P no scenario goroutine wants
// take nothing from the scenario. In this traced run of timer-2p
// (schedlab real timer-2p --emit DIR), runtime/trace's goroutines start,
// and its writer makes its first writes, on the P the hog left idle,
// while main sleeps: read with their events or without them, the run's
// P use is the same. Left out of the Ps' time, as they were before, they
// read 0.3 points higher, above the model's in every recorded series.
func TestRecorderRuntimeOnAnIdlePTakesNothing(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "tracer-on-idle-p-timer-2p.trace"))
	if err != nil {
		t.Fatal(err)
	}
	with, _, err := Real(bytes.NewReader(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(2)
	f := &stopFilter{rec: rec}
	var runtimeStarts int
	sum, err := rtrace.ReadWith(bytes.NewReader(data), rtrace.Options{Scenario: true, Runtime: func(e rtrace.Event) {
		if e.Kind == "go-start" && rec.seen && e.T > rec.first {
			runtimeStarts++
		}
	}}, f.scenario)
	if err != nil {
		t.Fatal(err)
	}
	f.end(sum.ScenarioEnd)
	without := rec.Observables()
	if runtimeStarts < 3 {
		t.Fatalf("%d starts of the runtime's goroutines in the window: the trace does not show what this test is about", runtimeStarts)
	}
	if with.Utilisation != without.Utilisation || with.Makespan != without.Makespan || with.Utilisation <= 0.5 {
		t.Errorf("P use %v and makespan %v with the runtime's goroutines, %v and %v without: want the same, above a half (the hog's P and main's turns)",
			with.Utilisation, with.Makespan, without.Utilisation, without.Makespan)
	}
}

// A program with an until hands its stopper a channel before the
// scenario, and main blocks on the send while the stopper and the
// tracer's goroutines start (until-forever-cooperative.trace, a traced
// run of forever-cooperative). The window opens after that, at main's
// first act in the scenario, its go statement: the makespan runs from
// there to the scenario's end.
func TestRealWindowOpensInTheScenario(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "rtrace", "testdata", "until-forever-cooperative.trace"))
	if err != nil {
		t.Fatal(err)
	}
	var opened time.Duration
	sum, err := rtrace.ReadWith(bytes.NewReader(data), rtrace.Options{Scenario: true}, func(e rtrace.Event) {
		if opened == 0 && e.G >= 0 && !e.BeforeScenario && e.Reason != rtrace.AlreadyRunning {
			opened = e.T
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	o, _, err := Real(bytes.NewReader(data), 1)
	if err != nil {
		t.Fatal(err)
	}
	if sum.BeforeScenario == 0 || opened == 0 || o.Makespan != sum.ScenarioEnd-opened {
		t.Errorf("makespan %v, want the scenario's end %v less its first event, %v (%d of main's events before it)", o.Makespan, sum.ScenarioEnd, opened, sum.BeforeScenario)
	}
}
