package gmp

import (
	"strings"
	"testing"
)

// Every rule is worded by one of the describe_*.go files, so no event
// falls back to its bare kind.
func TestEveryRuleIsWorded(t *testing.T) {
	d := NewDescriber(nil)
	for r := Rule(1); r < numRules; r++ {
		if wordings[r] == nil {
			t.Errorf("rule %d (%s: %s) has no wording", r, r.Fn(), r.Doc())
			continue
		}
		e := Event{Kind: KindGoCreate, Rule: r}
		if s := d.Describe(e); s == "" || s == e.Kind.String() {
			t.Errorf("rule %d (%s) is told as %q", r, r.Fn(), s)
		}
	}
}

// Wording a rule in two files is refused when the package loads.
func TestARuleWordedTwiceIsRefused(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "worded twice") {
			t.Fatalf("recover() = %v", p)
		}
	}()
	gatherWords(scheduleWords, words{RuleGosched: scheduleWords[RuleGosched]})
}
