package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// The command runs the workload as its own processes and prints the load
// before and after, a line per run and a summary with a median and a
// range; a bad argument is a usage error. The figures depend on the
// machine and are not checked.
func TestMeasures(t *testing.T) {
	bin := probetest.Build(t, "mutexretake")
	lines := probetest.Lines(t, bin, "-runs", "2")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^load before: `),
		regexp.MustCompile(`^run 1: \d+ of 799 acquisitions by the previous holder \([0-9.]+%\) in `),
		regexp.MustCompile(`^run 2: \d+ of 799 acquisitions`),
		regexp.MustCompile(`^load after: `),
		regexp.MustCompile(`^re-takes by the previous holder \(%\), 2 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"extra"}})
}
