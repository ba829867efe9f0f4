package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// The command runs its measurement as its own processes and prints the
// load before and after, a line per run and a summary; a bad argument is
// a usage error. The figures depend on the machine and are not checked.
func TestMeasures(t *testing.T) {
	bin := probetest.Build(t, "cpustall")
	lines := probetest.Lines(t, bin, "-runs", "1", "-for", "20ms")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^load before: `),
		regexp.MustCompile(`^run 1: (\d+ stalls a second on each CPU, median .+ \(p10 .+, p90 .+\); [0-9.]+% of the CPUs' time lost; [0-9.]+ a second over 200µs, [0-9.]+% lost, the longest .+|no stalls over 5µs)$`),
		regexp.MustCompile(`^load after: `),
		regexp.MustCompile(`^stalls a second on each CPU, 1 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"-for", "0s"}, {"extra"}})
}
