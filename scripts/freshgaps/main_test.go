package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// A series prints the load, a line per run and a summary, for each kind;
// how long the gaps are depends on the machine and is not checked. Bad
// arguments are usage errors.
func TestSeriesRuns(t *testing.T) {
	bin := probetest.Build(t, "freshgaps")
	run := regexp.MustCompile(`^run [12]: \d+ gaps: mean \d+ns, median \d+ns, the first three \d+, \d+ and \d+ns, after the 20th \d+ns$`)
	for kind, after := range map[string]string{"park": "a park", "exit": "an exit", "yield": "a Gosched"} {
		lines := probetest.Lines(t, bin, "-runs", "2", "-n", "50", kind)
		if len(lines) != 5 || !run.MatchString(lines[1]) || !run.MatchString(lines[2]) ||
			!strings.HasPrefix(lines[4], "mean gap after "+after+" (ns), 2 runs: median ") {
			t.Errorf("%s: want the load, two run lines, the load and a summary, got:\n%s", kind, strings.Join(lines, "\n"))
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0", "park"}, {"-n", "49", "park"}, {"-n", "100001", "exit"}, {}, {"spin"}, {"park", "exit"}},
		"usage", "must be", "no kind of switch")
}
