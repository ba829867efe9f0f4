package gmp_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/gmp/internal/rulegen"
	"github.com/schedlab/schedlab/core/scenarios"
)

// Every event of every built-in under every policy sets only the fields
// its rule declares in the rule table. TestEventsSetOnlyTheirRulesFields
// checks every rule on its micro-program; this checks them on the runs
// people see, under the what-if policies too.
func TestBuiltinsSetOnlyTheirRulesFields(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[gmp.Rule]bool{}
	for _, name := range gmp.PolicyNames() {
		pol, err := gmp.ParsePolicy(name)
		if err != nil {
			continue // fairness=N is a pattern, not a name
		}
		for _, sc := range all {
			cfg := sc.Config()
			cfg.Policy = pol
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			m.SetSink(func(e gmp.Event) {
				seen[e.Rule] = true
				if bad := gmp.UndeclaredFields(&e); len(bad) > 0 {
					t.Errorf("%s under %s: a %s event (rule %q, %s) sets %s, which the rule table does not declare (%q)",
						sc.Name, name, e.Kind, e.Rule.Doc(), e.Rule.Fn(), strings.Join(bad, ", "), e.Rule.Fields())
				}
			})
			m.Run()
		}
	}
	if len(seen) < 50 {
		t.Errorf("the corpus reaches only %d rules", len(seen))
	}
}

// Every rule has a row: a runtime function and a sentence.
func TestRuleTableComplete(t *testing.T) {
	for r := gmp.Rule(1); r.Doc() != ""; r++ {
		if r.Fn() == "" && r != gmp.RuleUntil {
			t.Errorf("rule %d (%s) names no runtime function", r, r.Doc())
		}
	}
	if gmp.RuleGroupWaitDone.Doc() == "" {
		t.Error("the last rule has no row")
	}
}

// A typed accessor reads the field the event's rule keeps the detail in
// (one name may live in different fields for different rules), and
// "none" for a rule without that detail.
func TestTypedDetails(t *testing.T) {
	steal := gmp.Event{Rule: gmp.RuleRunqsteal, N: 5, N2: 4, P2: 1}
	if steal.Stolen() != 5 || steal.Left() != 4 || steal.Victim() != 1 {
		t.Errorf("steal: stolen %d left %d victim %v, want 5, 4 and P1", steal.Stolen(), steal.Left(), steal.Victim())
	}
	run := gmp.Event{Rule: gmp.RuleStolenRun, N: 30, N2: 3, P2: 2}
	if run.Stolen() != 3 || run.Schedtick() != 30 || run.Victim() != 2 {
		t.Errorf("stolen run: stolen %d schedtick %d victim %v, want 3, 30 and P2", run.Stolen(), run.Schedtick(), run.Victim())
	}
	dispatch := gmp.Event{Rule: gmp.RulePoolDispatchIdle, N: 3, N2: 17, G2: 9, Obj: 1}
	if dispatch.Worker() != 3 || dispatch.Task() != 17 || dispatch.WorkerG() != 9 || dispatch.Pool() != 1 ||
		dispatch.Stolen() != 0 || dispatch.Victim() != gmp.NoP || dispatch.Thread() != gmp.NoM || dispatch.Kicked() != gmp.NoG {
		t.Errorf("dispatch: worker %d task %d workerG %v pool %d; stolen %d victim %v thread %v kicked %v",
			dispatch.Worker(), dispatch.Task(), dispatch.WorkerG(), dispatch.Pool(),
			dispatch.Stolen(), dispatch.Victim(), dispatch.Thread(), dispatch.Kicked())
	}
	retake := gmp.Event{Rule: gmp.RuleRetake, N2: int(gmp.RetakeQueued), M2: 3}
	if retake.RetakeCause() != gmp.RetakeQueued || retake.Thread() != 3 {
		t.Errorf("retake: cause %v thread %v", retake.RetakeCause(), retake.Thread())
	}
	create := gmp.Event{Rule: gmp.RuleNewproc, G: 7, G2: 1, G3: 4, N: 2, N2: 5, Flag: true}
	if create.Kicked() != 4 || create.RingLen() != 2 || create.ReusedFrom() != 5 || !create.RingFull() || create.Worker() != 0 {
		t.Errorf("create: kicked %v ring %d reused %v full %v worker %d",
			create.Kicked(), create.RingLen(), create.ReusedFrom(), create.RingFull(), create.Worker())
	}
}

// Involves names the goroutine concerned and the goroutines the rule's
// fields name, not a number another rule keeps in the same field, and
// never "no goroutine".
func TestInvolves(t *testing.T) {
	create := gmp.Event{Rule: gmp.RuleNewproc, G: 7, G2: 1, G3: 4, N2: 5}
	for _, c := range []struct {
		e    gmp.Event
		g    gmp.GID
		want bool
	}{
		{create, 7, true}, {create, 1, true}, {create, 4, true},
		{create, 5, false}, // N2: the dead goroutine whose descriptor is reused
		{create, gmp.NoG, false},
		{gmp.Event{Rule: gmp.RuleReadyTimer, G: 3, G3: 6}, 6, true},
		{gmp.Event{Rule: gmp.RulePoolHandoff, G: 3, G2: 8}, 8, true},
		{gmp.Event{Rule: gmp.RuleRunqHead, G: 3, N: 9}, 9, false},
		{gmp.Event{Rule: gmp.RuleSysmonSleep}, gmp.NoG, false},
	} {
		if got := c.e.Involves(c.g); got != c.want {
			t.Errorf("%s event %+v: Involves(%v) = %v, want %v", c.e.Rule.Fn(), c.e, c.g, got, c.want)
		}
	}
}

// details_gen.go is what go generate writes from the rule table now.
// Rename a detail in ruletable.go, or give a rule a new field, without
// running go generate, and this fails: "details_gen.go is stale".
func TestDetailsAreGenerated(t *testing.T) {
	events, err := os.ReadFile("events.go")
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile("ruletable.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rulegen.Generate(events, table)
	if err != nil {
		t.Fatalf("the rule table cannot be generated from: %v", err)
	}
	got, err := os.ReadFile("details_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		line := 0
		for line < min(len(gl), len(wl)) && gl[line] == wl[line] {
			line++
		}
		at := func(l []string) string {
			if line < len(l) {
				return l[line]
			}
			return "(end of file)"
		}
		t.Errorf("details_gen.go is stale: run go generate ./core/gmp\nline %d is\n\t%s\nthe table gives\n\t%s", line+1, at(gl), at(wl))
	}
}
