package main

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

func TestExerciseCommand(t *testing.T) {
	code, out, errOut := cli(t, "exercise", "steal", "--seed", "3")
	if code != exitOK || !strings.Contains(out, "Which P steals first?") || strings.Contains(out, "Answers") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	_, withAnswers, _ := cli(t, "exercise", "steal", "--seed", "3", "--answers")
	if !strings.HasPrefix(withAnswers, strings.TrimSuffix(out[:strings.Index(out, "(the answers")], "\n")) ||
		!strings.Contains(withAnswers, "Answers") {
		t.Errorf("--answers does not add the key to the same exercise:\n%s", withAnswers)
	}
	_, md, _ := cli(t, "exercise", "steal", "--seed", "3", "--answers", "--format", "md")
	if !strings.HasPrefix(md, "# Exercise: steal (seed 3)") || !strings.Contains(md, "## Answer key") {
		t.Errorf("markdown handout:\n%s", md)
	}
	_, yaml, _ := cli(t, "exercise", "steal", "--seed", "3", "--scenario")
	if _, err := scenarios.Parse("steal-3.yaml", []byte(yaml)); err != nil {
		t.Errorf("--scenario does not print a scenario file: %v\n%s", err, yaml)
	}
	code, list, _ := cli(t, "exercise")
	if code != exitOK || !strings.Contains(list, "fairness61") {
		t.Errorf("exercise with no topic: exit %d\n%s", code, list)
	}
}

func TestExerciseErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exercise", "stealing"}, `unknown topic "stealing"`},
		{[]string{"exercise", "steal", "--format", "pdf"}, `unknown format "pdf"`},
		{[]string{"exercise", "steal", "--seed", "x"}, `--seed "x"`},
		{[]string{"exercise", "steal", "--scenario", "--answers"}, "--scenario prints only"},
		{[]string{"exercise", "steal", "pool"}, "accepts at most 1 arg"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}
