package rulegen

import (
	"strings"
	"testing"
)

const events = `package gmp

type Rule uint8

const (
	RuleNone Rule = iota
	RuleA
	RuleB
	numRules
)

type Event struct {
	T      int
	Rule   Rule
	Reason Reason
	Flag   bool
	G      GID
	G2, G3 GID
	P2     PID
	M2     MID
	Obj    int32
	N3     int32
	N, N2  int
	D, D2  time.Duration
	Cause  int32
}
`

func table(a, b string) string {
	return "package gmp\n\nvar ruleTable = [numRules]ruleInfo{\n\tRuleNone: {doc: \"no rule\"},\n" +
		"\tRuleA: {\"fa\", \"does a\", " + a + "},\n\tRuleB: {\"fb\", \"does b\", " + b + "},\n}\n"
}

// One name read from different fields by different rules gives one
// accessor with a case per field; the ID types answer "none" for other
// rules, int32 fields read as int, and a third word names the type.
func TestGenerate(t *testing.T) {
	_, err := Generate([]byte(events), []byte(table(`"N stolen; P2 victim; G3 kicked"`, `"N2 stolen; N3 running; N2x bad"`)))
	if err == nil || !strings.Contains(err.Error(), "N2x is not one of Event's rule-specific fields") {
		t.Fatalf("an unknown field: err = %v", err)
	}
	out, err := Generate([]byte(events), []byte(table(`"N stolen; P2 victim; G3 kicked"`, `"N2 stolen; N3 running; D why Cause; Reason reason"`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"func (e *Event) Stolen() int {\n\tswitch e.Rule {\n\tcase RuleA:\n\t\treturn e.N\n\tcase RuleB:\n\t\treturn e.N2\n\t}\n\treturn 0\n}",
		"func (e *Event) Victim() PID {\n\tswitch e.Rule {\n\tcase RuleA:\n\t\treturn e.P2\n\t}\n\treturn NoP\n}",
		"func (e *Event) Running() int {\n\tswitch e.Rule {\n\tcase RuleB:\n\t\treturn int(e.N3)\n",
		"func (e *Event) Why() Cause {\n\tswitch e.Rule {\n\tcase RuleB:\n\t\treturn Cause(e.D)\n",
		"\tcase RuleA:\n\t\treturn e.G3 == g\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks\n%s\n--- output:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "func (e *Event) Reason()") {
		t.Error("the Reason field got an accessor that clashes with it")
	}
}

// What the generator refuses, each with a message that says what to
// change in the table.
func TestGenerateRefuses(t *testing.T) {
	for _, c := range []struct {
		a, b, want string
	}{
		{`"N n; Flag n"`, `""`, `"Flag n" given twice`},
		{`"N n; N m"`, `""`, `"N m" given twice`},
		{`"N spinning"`, `"Flag spinning"`, `the detail "spinning" is int (N) for RuleA but bool (Flag) for RuleB: give one of them another name`},
		{`"N cause"`, `""`, `the detail's accessor would be named like Event's field Cause`},
		{`"N Big"`, `""`, `a detail's name is a lower-case Go identifier`},
		{`"N"`, `""`, `want "Field name" or "Field name Type"`},
		{`"N a;N2 b"`, `""`, `a detail's name is a lower-case Go identifier`},
	} {
		_, err := Generate([]byte(events), []byte(table(c.a, c.b)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s / %s: err = %v, want %q", c.a, c.b, err, c.want)
		}
	}
	// A rule with no row.
	short := strings.Replace(table(`""`, `""`), "\tRuleB: {\"fb\", \"does b\", \"\"},\n", "", 1)
	if _, err := Generate([]byte(events), []byte(short)); err == nil || !strings.Contains(err.Error(), "no row for RuleB") {
		t.Errorf("a missing row: err = %v", err)
	}
}
