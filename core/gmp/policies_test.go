package gmp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The policy table (policy.go) is read by ParsePolicy, String, the help,
// list --policies and the docs; these tests fail when a row is added and
// one of the places that must follow it is not.

// tablePolicies parses every policy of the table, the pattern fairness=N
// as fairness=5.
func tablePolicies(t *testing.T) (names []string, pols []Policy) {
	t.Helper()
	for _, info := range Policies() {
		name := info.Name
		if name == "fairness=N" {
			name = "fairness=5"
		}
		p, err := ParsePolicy(name)
		if err != nil {
			t.Errorf("the table's policy %q does not parse: %v (a row needs its set function)", info.Name, err)
			continue
		}
		names, pols = append(names, name), append(pols, p)
	}
	return names, pols
}

// Every policy of the table reads back from its String, and no two are
// the same switch. Add a row and a field but leave String alone, and this
// fails: "no-foo: String() = \"default\"".
func TestEveryPolicyReadsBack(t *testing.T) {
	names, pols := tablePolicies(t)
	for i, p := range pols {
		if got := p.String(); got != names[i] {
			t.Errorf("%s: String() = %q: name the policy's field in Policy.String", names[i], got)
		}
		if j := slices.Index(pols, p); j != i {
			t.Errorf("%s sets the same switches as %s", names[i], names[j])
		}
	}
}

// Every policy but the default changes what some micro-program does (the
// events of one of ruleProgs' programs), and the default changes none.
// Add a policy whose field no function of the model reads, and this
// fails: "no-foo changes no micro-program's run: read the field where
// the rule it changes lives".
func TestEveryPolicyChangesARun(t *testing.T) {
	names, pols := tablePolicies(t)
	type prog struct {
		mp     microProg
		events []Event
	}
	var progs []prog
	// Op points into each machine's own copy of the program: compare
	// the events without it.
	noOp := func(events []Event) []Event {
		for i := range events {
			events[i].Op = nil
		}
		return events
	}
	microRuns(t, func(_ Rule, mp microProg, events []Event) {
		if mp.policy == "" {
			progs = append(progs, prog{mp, noOp(events)})
		}
	})
	for i, pol := range pols {
		changed := 0
		for _, p := range progs {
			mp := p.mp
			mp.policy = pol.String()
			var events []Event
			runMicro(t, mp, func(e Event) { events = append(events, e) })
			if !slices.Equal(noOp(events), p.events) {
				changed++
			}
		}
		switch {
		case names[i] == "default" && changed > 0:
			t.Errorf("the default policy changes %d micro-programs' runs: it must be Go 1.26's rules", changed)
		case names[i] != "default" && changed == 0:
			t.Errorf("%s changes no micro-program's run: read the field where the rule it changes lives (policy.go's comment names the functions)", names[i])
		}
	}
}

// The policy list people read is the policy table's: every "Policies:"
// line in README.md or docs/*.md names every policy in the table's order,
// and at least one such line exists. Add a row to policies (policy.go)
// and leave README.md alone, and this fails with the line to paste
// ("README.md's list of policies is not the table's; it should read:
// Policies: `default`, …").
func TestPolicyListIsDocumented(t *testing.T) {
	var names []string
	for _, p := range Policies() {
		names = append(names, "`"+p.Name+"`")
	}
	want := "Policies: " + strings.Join(names, ", ") + "."
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, path := range append([]string{"../../README.md"}, docs...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(src)), " ")
		for rest := text; ; {
			i := strings.Index(rest, "Policies: `")
			if i < 0 {
				break
			}
			rest = rest[i:]
			found++
			if !strings.HasPrefix(rest, want) {
				t.Errorf("%s's list of policies is not the table's; it should read:\n%s", strings.TrimPrefix(path, "../../"), want)
			}
			rest = rest[1:]
		}
	}
	if found == 0 {
		t.Errorf("neither README.md nor docs/ lists the policies; one of them should read:\n%s", want)
	}
}
