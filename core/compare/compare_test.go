package compare

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/golden"
)

// Every built-in that submits tasks has a golden comparison table.
func TestGoldenTables(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sc := range all {
		if !submits(sc.Main) {
			continue
		}
		n++
		t.Run(sc.Name, func(t *testing.T) {
			// No invariant checks here: with 10,000 raw goroutines they
			// cost seconds. TestResultsAreConsistent checks every mode.
			rep, err := Compare(sc.Name, sc.Title, sc.Program(), sc.Config(), taskmode.All)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := rep.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.End.Reason == gmp.Invariant {
					t.Fatalf("%s broke an invariant: %v", r.Mode, r.End.Err)
				}
			}
			golden.Check(t, filepath.Join("testdata", sc.Name+".txt"), buf.Bytes())
		})
	}
	if n < 4 {
		t.Fatalf("only %d built-ins submit tasks", n)
	}
}

func parse(t *testing.T, src string) *gmp.Program {
	t.Helper()
	sc, err := scenarios.Parse("w.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc.Program()
}

const workload = `procs: 2
pools: {p: {size: 3}}
main:
  - submit: {pool: p, count: 20, do: [{cpu: 300us}]}
  - wait: children
`

// Each mode rewrites the submit action, and only it, into its own shape.
func TestTransformRewritesSubmits(t *testing.T) {
	prog := parse(t, workload)
	cases := map[taskmode.Mode]func(ops []gmp.Op) bool{
		taskmode.Pool: func(ops []gmp.Op) bool { return ops[0].Kind == gmp.OpSubmit && ops[0].Count == 20 },
		taskmode.Raw:  func(ops []gmp.Op) bool { return ops[0].Kind == gmp.OpGo && ops[0].Count == 20 },
		taskmode.Errgroup: func(ops []gmp.Op) bool {
			return ops[0].Kind == gmp.OpGroup && ops[0].Limit == 3 && ops[0].Count == 20
		},
		taskmode.Semaphore: func(ops []gmp.Op) bool {
			l := ops[0]
			if l.Kind != gmp.OpLoop || l.Count != 20 || len(l.Body) != 2 {
				return false
			}
			acq, g := l.Body[0], l.Body[1]
			last := g.Body[len(g.Body)-1]
			return acq.Kind == gmp.OpAcquire && acq.N == 1 && g.Kind == gmp.OpGo &&
				last.Kind == gmp.OpRelease && last.Sem == acq.Sem
		},
	}
	for mode, ok := range cases {
		p, err := Transform(prog, mode)
		if err != nil {
			t.Fatal(err)
		}
		if !ok(p.Main) || p.Main[1].Kind != gmp.OpWait {
			t.Errorf("%s: main became %+v", mode, p.Main)
		}
		if mode == taskmode.Semaphore && (len(p.Sems) != 1 || p.Sems[0].Size != 3) {
			t.Errorf("semaphore: sems %+v, want one of size 3", p.Sems)
		}
	}
	if prog.Main[0].Kind != gmp.OpSubmit || len(prog.Sems) != 0 {
		t.Error("Transform changed the program it was given")
	}
	if _, err := Transform(parse(t, "procs: 1\nmain: [{cpu: 1ms}]\n"), taskmode.Raw); err == nil || !strings.Contains(err.Error(), "submits no tasks") {
		t.Errorf("a program without submits: %v", err)
	}
}

// The figures hold together: every mode runs every task; the bounded
// modes keep at most size+1 goroutines alive; raw makes one per task.
func TestResultsAreConsistent(t *testing.T) {
	prog := parse(t, workload)
	cfg := gmp.Config{Procs: 2, Seed: 1, Costs: gmp.DefaultCosts(), Check: true}
	rep, err := Compare("w", "", prog, cfg, taskmode.All)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.End.Reason != gmp.MainReturned {
			t.Fatalf("%s ended %v: %v", r.Mode, r.End.Reason, r.End.Err)
		}
		// 20 tasks of 300µs on 2 Ps take at least 3ms.
		if r.Makespan < 3*time.Millisecond || r.Makespan > 5*time.Millisecond {
			t.Errorf("%s: makespan %v", r.Mode, r.Makespan)
		}
		if r.StackBytes < r.PeakLive*StackSize || r.Starts < 20 || r.LatencyP99 < r.LatencyP50 {
			t.Errorf("%s: stack %d for peak %d live, %d starts, p50 %v p99 %v", r.Mode, r.StackBytes, r.PeakLive, r.Starts, r.LatencyP50, r.LatencyP99)
		}
		switch r.Mode {
		case taskmode.Raw:
			if r.Goroutines != 21 || r.PeakLive < 10 {
				t.Errorf("raw: %d goroutines, peak %d", r.Goroutines, r.PeakLive)
			}
		case taskmode.Pool:
			if r.Goroutines != 4 || r.PeakLive != 4 || r.Pool.Submitted != 20 || r.Pool.WorkersStarted != 3 || r.ReuseRatio() != 17.0/20 {
				t.Errorf("pool: %d goroutines, peak %d, stats %+v", r.Goroutines, r.PeakLive, r.Pool)
			}
		default:
			if r.Goroutines != 21 || r.PeakLive != 4 {
				t.Errorf("%s: %d goroutines, peak %d live, want 21 and 4", r.Mode, r.Goroutines, r.PeakLive)
			}
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Modes []struct {
			Mode       string `json:"mode"`
			MakespanNS int64  `json:"makespan_ns"`
			Goroutines int    `json:"goroutines"`
		} `json:"modes"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Modes) != 4 || back.Modes[1].Mode != "pool" ||
		back.Modes[1].MakespanNS != int64(rep.Results[1].Makespan) || back.Modes[0].Goroutines != 21 {
		t.Fatalf("JSON %s (%v)", js.Bytes(), err)
	}
}

func TestPercentile(t *testing.T) {
	var ws []wait
	for _, d := range []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6} {
		ws = append(ws, wait{d: d})
	}
	if p := percentile(ws, 50); p != (wait{d: 5}) {
		t.Errorf("p50 = %v", p)
	}
	if p := percentile(ws, 99); p != (wait{d: 10}) {
		t.Errorf("p99 = %v", p)
	}
	if p := percentile(nil, 50); p != (wait{}) {
		t.Errorf("p50 of nothing = %v", p)
	}
	// An open wait above the rank leaves it exact; one at or below it
	// makes it a lower bound.
	ws = append(ws, wait{d: 20, open: true})
	if p := percentile(ws, 50); p != (wait{d: 6}) {
		t.Errorf("p50 with an open wait above = %v", p)
	}
	if p := percentile(ws, 100); p != (wait{d: 20, open: true}) {
		t.Errorf("p100 with an open wait = %v", p)
	}
	ws = append(ws, wait{d: 1, open: true})
	if p := percentile(ws, 50); p != (wait{d: 5, open: true}) {
		t.Errorf("p50 with an open wait below = %v", p)
	}
}

// Under no-steal the idle P never takes work from the busy one: no
// steals, the makespan grows, and the idle P's time while work waits,
// zero under the runtime's rules, is most of the run. Policy columns are
// labelled by the policy and run the scenario as written.
func TestComparePolicies(t *testing.T) {
	rep := stealUnderNoSteal(t)
	def, ns := rep.Results[0], rep.Results[1]
	if def.Label != "default" || ns.Label != "no-steal" {
		t.Errorf("labels %q, %q", def.Label, ns.Label)
	}
	if def.Steals == 0 || ns.Steals != 0 {
		t.Errorf("steals: default %d, no-steal %d", def.Steals, ns.Steals)
	}
	if def.IdleWhileRunnable != 0 || ns.IdleWhileRunnable < ns.Makespan/2 {
		t.Errorf("idle while runnable: default %v, no-steal %v of %v", def.IdleWhileRunnable, ns.IdleWhileRunnable, ns.Makespan)
	}
	if ns.Makespan <= def.Makespan || ns.LongestWait <= def.LongestWait {
		t.Errorf("no-steal makespan %v, longest wait %v; default %v, %v", ns.Makespan, ns.LongestWait, def.Makespan, def.LongestWait)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Policies []struct {
			Policy string `json:"policy"`
			Steals int    `json:"steals"`
		} `json:"policies"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil || len(out.Policies) != 2 || out.Policies[1].Policy != "no-steal" {
		t.Errorf("json %s: %v", buf.String(), err)
	}
}

// A task that calls runtime.Goexit still gives back its semaphore slot
// and its errgroup token (both are deferred in Go), so every mode ends as
// the pool does; and a submit too deep for a mode's rewrite is refused
// before anything runs, rather than panicking in the model.
func TestTasksThatExitAndDeepSubmits(t *testing.T) {
	exit, err := scenarios.Parse("exit.yaml", []byte("procs: 2\npools: {w: {size: 2}}\nmain:\n  - submit: {pool: w, count: 4, do: [{cpu: 1ms}, exit]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(exit.Name, "", exit.Program(), exit.Config(), taskmode.All)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.End.Reason != gmp.MainReturned {
			t.Errorf("%s: ended %v (%v)", r.Label, r.End.Reason, r.End.Err)
		}
	}
	deep := "procs: 2\npools: {w: {size: 2}}\nmain:\n" +
		"  - loop:\n      times: 2\n      do:\n" +
		"        - loop:\n            times: 2\n            do:\n" +
		"              - loop:\n                  times: 2\n                  do:\n" +
		"                    - loop:\n                        times: 2\n                        do:\n" +
		"                          - submit: {pool: w, count: 2, do: [{cpu: 100us}]}\n  - wait: children\n"
	sc, err := scenarios.Parse("deep.yaml", []byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Transform(sc.Program(), taskmode.Errgroup); err == nil || !strings.Contains(err.Error(), "deep.yaml:16:29: the errgroup mode cannot rewrite this submit: inside 4 loops") {
		t.Errorf("errgroup rewrite of a submit 4 loops deep: %v", err)
	}
	for _, mode := range []taskmode.Mode{taskmode.Raw, taskmode.Pool, taskmode.Semaphore} {
		r, err := Run(sc.Program(), sc.Config(), mode)
		if err != nil || r.End.Reason != gmp.MainReturned || r.Goroutines < 2 {
			t.Errorf("%s: %v, %+v", mode, err, r)
		}
	}
}

// A nonblocking pool that rejects most tasks did less work than the other
// modes: the table says how much each ran, and warns.
func TestUnequalWorkIsFlagged(t *testing.T) {
	sc, err := scenarios.Parse("nb.yaml", []byte("procs: 2\npools: {w: {size: 4, nonblocking: true}}\nmain:\n  - submit: {pool: w, count: 100, do: [{cpu: 100us}]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(sc.Name, "", sc.Program(), sc.Config(), taskmode.All)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		want := 100
		if r.Mode == taskmode.Pool {
			want = 100 - r.Pool.Rejected
		}
		if r.TasksStarted != want || (r.Mode == taskmode.Pool && r.Pool.Rejected == 0) {
			t.Errorf("%s started %d tasks, want %d (rejected %d)", r.Label, r.TasksStarted, want, r.Pool.Rejected)
		}
	}
	var text, js bytes.Buffer
	rep.WriteText(&text)
	rep.WriteJSON(&js)
	if !strings.Contains(text.String(), "not like for like") || !strings.Contains(js.String(), `"warning": "not like for like`) ||
		!strings.Contains(js.String(), `"tasks_started": 100`) {
		t.Errorf("no warning or count:\n%s\n%s", text.String(), js.String())
	}
	rep, _ = Compare("burst", "", sc.Program(), sc.Config(), []taskmode.Mode{taskmode.Raw, taskmode.Semaphore})
	if rep.unequalWork() != "" {
		t.Error("a warning for modes that ran the same tasks")
	}
}

// A submit inside a select's case is rewritten like any other, and runs
// every mode: the case is taken from a buffered channel, or on a timeout.
func TestTransformRewritesSubmitsInSelectCases(t *testing.T) {
	prog := parse(t, `procs: 2
chans: {go: 1}
pools: {p: {size: 3}}
main:
  - send: go
  - select:
      cases:
        - recv: go
          do: [{submit: {pool: p, count: 20, do: [{cpu: 300us}]}}]
        - after: 1ms
  - wait: children
`)
	if !Submits(prog) {
		t.Fatal("Submits misses the submit in a select case")
	}
	p, err := Transform(prog, taskmode.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if k := p.Main[1].Cases[0].Body[0].Kind; k != gmp.OpGo {
		t.Errorf("raw: the case runs %v, want go", k)
	}
	if k := prog.Main[1].Cases[0].Body[0].Kind; k != gmp.OpSubmit {
		t.Errorf("Transform changed the program it was given: the case runs %v", k)
	}
	rep, err := Compare(prog.Name, "", prog, gmp.Config{Procs: 2, Seed: 1}, taskmode.All)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.End.Reason != gmp.MainReturned || r.TasksStarted != 20 {
			t.Errorf("%s: ended %v (%v) after %d tasks", r.Label, r.End.Reason, r.End.Err, r.TasksStarted)
		}
	}
}

// Waits still open when the run ends count, as censored waits: under
// no-preempt two of preempt's hogs never run in its 150ms (issue 26,
// defect 5: the table said "longest wait to run 1.1µs" and "sched latency
// p50 0ns", dropping them). Their waits are lower bounds, marked ≥ and
// said so under the table, and the goroutines that never ran are counted.
func TestOpenWaitsAreCensoredNotDropped(t *testing.T) {
	sc, err := scenarios.Load("preempt")
	if err != nil {
		t.Fatal(err)
	}
	noPreempt, _ := gmp.ParsePolicy("no-preempt")
	rep, err := ComparePolicies(sc.Name, sc.Title, sc.Program(), sc.Config(), []gmp.Policy{{}, noPreempt})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	row := func(label string) []string {
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), label) {
				return strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), label))
			}
		}
		t.Fatalf("no row %q:\n%s", label, text)
		return nil
	}
	if got := row("longest wait to run"); len(got) != 4 || got[2] != "≥" || got[3] != "150ms" {
		t.Errorf("longest wait under no-preempt %q, want ≥ 150ms:\n%s", got, text)
	}
	if got := row("goroutines never run"); len(got) != 2 || got[0] != "0" || got[1] != "2" {
		t.Errorf("goroutines never run %q, want 0 and 2:\n%s", got, text)
	}
	if got := row("waits open at the end"); len(got) != 2 || got[1] != "2" {
		t.Errorf("waits open at the end %q:\n%s", got, text)
	}
	if !strings.Contains(text, "censored") {
		t.Errorf("the table does not say what ≥ means:\n%s", text)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Policies []struct {
			NeverRan       int   `json:"never_ran"`
			OpenWaits      int   `json:"open_waits"`
			LongestWaitNS  int64 `json:"longest_wait_ns"`
			LongestAtLeast bool  `json:"longest_wait_at_least"`
		} `json:"policies"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || len(out.Policies) != 2 {
		t.Fatalf("json %s: %v", js.String(), err)
	}
	if np := out.Policies[1]; np.NeverRan != 2 || np.OpenWaits != 2 || !np.LongestAtLeast || np.LongestWaitNS < int64(149*time.Millisecond) {
		t.Errorf("json for no-preempt: %+v", np)
	}
}

// What-if policies over a scenario that submits no tasks have no tasks to
// count: the row is left out, not "tasks started 0" (issue 26, defect 12).
func TestPolicyTableHasNoTasksRowWithoutTasks(t *testing.T) {
	rep := stealUnderNoSteal(t)
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "tasks started") {
		t.Errorf("a table of policies without tasks counts them:\n%s", buf.String())
	}
	burst, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	noSteal, _ := gmp.ParsePolicy("no-steal")
	rep, err = ComparePolicies(burst.Name, burst.Title, burst.Program(), burst.Config(), []gmp.Policy{{}, noSteal})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "tasks started") {
		t.Errorf("a table of policies over a pool's tasks does not count them:\n%s", buf.String())
	}
}

// stealUnderNoSteal compares steal under the runtime's rules and under
// no-steal.
func stealUnderNoSteal(t *testing.T) *Report {
	t.Helper()
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	noSteal, _ := gmp.ParsePolicy("no-steal")
	rep, err := ComparePolicies(sc.Name, sc.Title, sc.Program(), sc.Config(), []gmp.Policy{{}, noSteal})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
