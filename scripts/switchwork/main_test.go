package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// A series prints the load, a line per run and a summary; how long the
// gaps are depends on the machine and is not checked. Bad arguments are
// usage errors.
func TestSeriesRuns(t *testing.T) {
	bin := probetest.Build(t, "switchwork")
	run := regexp.MustCompile(`^run [12]: \d+ gaps: mean \d+ns, median \d+ns, the first three \d+, \d+ and \d+ns, after the 20th \d+ns$`)
	for _, work := range []string{"0", "20us"} {
		lines := probetest.Lines(t, bin, "-runs", "2", "-n", "50", work)
		want := "mean gap after a park, " + map[string]string{"0": "0s", "20us": "20µs"}[work] + " of work a hop (ns), 2 runs: median "
		if len(lines) != 5 || !run.MatchString(lines[1]) || !run.MatchString(lines[2]) || !strings.HasPrefix(lines[4], want) {
			t.Errorf("%s: want the load, two run lines, the load and a summary, got:\n%s", work, strings.Join(lines, "\n"))
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0", "0"}, {"-n", "49", "0"}, {"-n", "100001", "0"}, {}, {"fast"}, {"-1us"}, {"11ms"}, {"0", "1us"}},
		"usage", "must be", "want a duration")
}

func TestParseWork(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "13us": 13 * time.Microsecond, "10ms": 10 * time.Millisecond} {
		if got, err := parseWork(in); err != nil || got != want {
			t.Errorf("parseWork(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "x", "-1ns", "10.001ms"} {
		if _, err := parseWork(in); err == nil {
			t.Errorf("parseWork(%q): no error", in)
		}
	}
}
