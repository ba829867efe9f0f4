package gmp_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// setFields lists the rule-specific fields an event sets: non-zero, and for
// the second P and M not "none" either.
func setFields(e *gmp.Event) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(e.Flag, "Flag")
	add(e.G2 != gmp.NoG, "G2")
	add(e.G3 != gmp.NoG, "G3")
	add(e.P2 != 0 && e.P2 != gmp.NoP, "P2")
	add(e.M2 != 0 && e.M2 != gmp.NoM, "M2")
	add(e.Obj != 0, "Obj")
	add(e.N != 0, "N")
	add(e.N2 != 0, "N2")
	add(e.N3 != 0, "N3")
	add(e.D != 0, "D")
	add(e.D2 != 0, "D2")
	add(e.Reason != gmp.NoReason, "Reason")
	return out
}

// Every event sets only the fields its rule declares in the rule table,
// over every built-in under every policy.
func TestEventsSetOnlyTheirRulesFields(t *testing.T) {
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
				declared := e.Rule.Fields()
				for _, f := range setFields(&e) {
					if !strings.HasPrefix(declared, f+" ") && !strings.Contains(declared, "; "+f+" ") {
						t.Errorf("%s under %s: a %s event (rule %q, %s) sets %s, which the rule table does not declare (%q)",
							sc.Name, name, e.Kind, e.Rule.Doc(), e.Rule.Fn(), f, declared)
					}
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

// Named accessors read the field the event's rule declares, and nothing
// for a rule without that detail.
func TestNamedAccessors(t *testing.T) {
	steal := gmp.Event{Rule: gmp.RuleRunqsteal, N: 5, N2: 4, P2: 1}
	if steal.Stolen() != 5 || steal.Left() != 4 {
		t.Errorf("steal: stolen %d left %d, want 5 and 4", steal.Stolen(), steal.Left())
	}
	if v, ok := steal.Detail("victim"); !ok || v != 1 {
		t.Errorf("steal victim = %d, %v", v, ok)
	}
	dispatch := gmp.Event{Rule: gmp.RulePoolDispatchIdle, N: 3, N2: 17, G2: 9}
	if dispatch.Worker() != 3 || dispatch.Task() != 17 || dispatch.Stolen() != 0 {
		t.Errorf("dispatch: worker %d task %d stolen %d", dispatch.Worker(), dispatch.Task(), dispatch.Stolen())
	}
	retake := gmp.Event{Rule: gmp.RuleRetake, N2: int(gmp.RetakeQueued)}
	if retake.RetakeCause() != gmp.RetakeQueued {
		t.Errorf("retake cause %v", retake.RetakeCause())
	}
	create := gmp.Event{Rule: gmp.RuleNewproc, G3: 4, N: 2}
	if create.Kicked() != 4 || create.RingLen() != 2 || create.Worker() != 0 {
		t.Errorf("create: kicked %v ring %d worker %d", create.Kicked(), create.RingLen(), create.Worker())
	}
	if _, ok := create.Detail("no such detail"); ok {
		t.Error("an unknown detail was found")
	}
	// Each accessor's detail is declared by some rule.
	var table strings.Builder
	for r := gmp.Rule(1); r.Doc() != ""; r++ {
		table.WriteString(" " + r.Fields() + ";")
	}
	for _, name := range []string{"worker", "task", "waiterNo", "purged", "idle", "stolen", "left", "ringLen",
		"moved", "globalLen", "schedtick", "kicked", "waiterG", "cause", "ringFull"} {
		if !strings.Contains(table.String(), " "+name+";") {
			t.Errorf("no rule declares %q", name)
		}
	}
}
