package quiz_test

import (
	"fmt"
	"slices"
	"testing"
)

// selects: G asks which case a select takes. A select nobody sends to
// takes its timeout; one with two channels ready takes either, as the
// seed's poll order says, and the question's answer follows the run.
func TestSelectsFact(t *testing.T) {
	qs, err := settle(t, `
procs: 1
chans: {jobs: 0}
main:
  - go: {do: [{select: {cases: [{recv: jobs}, {after: 5ms}]}}]}
  - wait: children
ask:
  - at: 0s
    answer: {selects: G2}
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := qs[0].Correct(); got != "after 5ms" || !slices.Contains(qs[0].Choices, "recv jobs") {
		t.Errorf("answer %q of %v, want after 5ms among recv jobs", got, qs[0].Choices)
	}
	answers := map[string]bool{}
	for seed := 1; seed <= 20; seed++ {
		qs, err := settle(t, fmt.Sprintf(`
procs: 1
seed: %d
chans: {a: 1, b: 1}
main:
  - send: a
  - send: b
  - select: {cases: [{recv: a}, {recv: b}], default: [gosched]}
ask:
  - at: 0s
    answer: {selects: G1}
`, seed))
		if err != nil {
			t.Fatal(err)
		}
		if err := qs[0].Valid(); err != nil {
			t.Fatal(err)
		}
		answers[qs[0].Correct()] = true
	}
	if !answers["recv a"] || !answers["recv b"] || len(answers) != 2 {
		t.Errorf("over 20 seeds the select took %v: want recv a and recv b, each on some seed", answers)
	}
}
