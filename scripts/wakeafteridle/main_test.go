package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// A series prints the load, a line per run and a summary; the figures
// depend on the machine and are not checked. Bad flags are usage errors.
func TestSeriesRuns(t *testing.T) {
	bin := probetest.Build(t, "wakeafteridle")
	lines := probetest.Lines(t, bin, "-runs", "2", "-rounds", "5", "-idle", "1ms")
	run := regexp.MustCompile(`^run [12]: 5 rounds: start p10 \S+, median \S+, p90 \S+, max \S+; \d later than 500µs$`)
	if len(lines) != 5 || !run.MatchString(lines[1]) || !run.MatchString(lines[2]) ||
		!strings.HasPrefix(lines[4], "rounds started late (%, after 1ms idle), 2 runs: median ") {
		t.Fatalf("want the load, two run lines, the load and a summary, got:\n%s", strings.Join(lines, "\n"))
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"-rounds", "0"}, {"-idle", "2s"}, {"extra"}}, "usage", "must be")
}
