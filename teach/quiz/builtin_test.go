package quiz_test

import (
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/quiz"
)

// Every built-in carries questions, and each is settled by its run with one
// correct choice among distinct ones.
func TestBuiltinQuestions(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		if len(sc.Asks) == 0 {
			t.Errorf("%s has no questions (ask:)", sc.Name)
			continue
		}
		qs, err := quiz.Settle(sc.Config(), sc.Program(), sc.Asks)
		if err != nil {
			t.Errorf("%s: %v", sc.Name, err)
			continue
		}
		if len(qs) != len(sc.Asks) {
			t.Errorf("%s: %d of %d questions settled", sc.Name, len(qs), len(sc.Asks))
		}
		for _, q := range qs {
			if err := q.Valid(); err != nil {
				t.Errorf("%s: %v", sc.Name, err)
			}
			if testing.Verbose() {
				t.Logf("%s @%d→%d: %s %q → %s", sc.Name, q.At+1, q.Event+1, q.Text, q.Choices, q.Correct())
			}
		}
	}
}
