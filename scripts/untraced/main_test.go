package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// Each probe runs as its own process and prints a line per run and a
// summary with a median and a range; a bad name or run count is a usage
// error. The figures themselves depend on the machine and are not checked.
func TestProbesRun(t *testing.T) {
	bin := probetest.Build(t, "untraced")
	summary := regexp.MustCompile(`^\S+, .+, 1 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`)
	for name, p := range probes {
		t.Run(name, func(t *testing.T) {
			lines := probetest.Lines(t, bin, "-runs", "1", name)
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "run 1: ") {
				t.Fatalf("want a run line and a summary, got:\n%s", strings.Join(lines, "\n"))
			}
			if !summary.MatchString(lines[1]) || !strings.Contains(lines[1], p.what) {
				t.Errorf("summary %q does not name %q with a median and range", lines[1], p.what)
			}
		})
	}
	probetest.UsageErrors(t, bin, [][]string{{"bogus"}, {"-runs", "0", "timer-bursts"}, {}}, "usage", "must be at least 1")
}
