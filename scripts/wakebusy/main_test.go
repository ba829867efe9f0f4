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
	bin := probetest.Build(t, "wakebusy")
	lines := probetest.Lines(t, bin, "-runs", "2", "-wakes", "20")
	part := `(no wake-ups|\d+ wake-ups \(median \S+ late, \d+ more than 1ms\))`
	run := regexp.MustCompile(`^run [12]: ` + part + `; ` + part + ` within \S+ of the busy thread's pick; ` + part + ` later$`)
	if len(lines) != 5 || !run.MatchString(lines[1]) || !run.MatchString(lines[2]) ||
		!regexp.MustCompile(`^\d+ CPUs, each busy, 2 runs of 20 wake-ups: more than 1ms late in \S+% of them \(median run; \S+–\S+%\)$`).MatchString(lines[4]) {
		t.Fatalf("want the load, two run lines, the load and a summary, got:\n%s", strings.Join(lines, "\n"))
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"-wakes", "0"}, {"extra"}}, "usage", "must be")
}
