package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// Each mode runs as its own process and prints the load, a line per run
// and a summary with a median and a range; a bad flag is a usage error.
// The figures depend on the machine and are not checked.
func TestEachModeRuns(t *testing.T) {
	bin := probetest.Build(t, "firstwake")
	summary := regexp.MustCompile(`^.+ \(µs.*\), 1 runs: median [0-9.e+]+, range [0-9.e+]+–[0-9.e+]+$`)
	for _, args := range [][]string{{}, {"-warm"}, {"-trace"}, {"-pipewake"}, {"-procs", "1"}, {"-slack", "1"}} {
		t.Run(strings.Join(append([]string{"mode"}, args...), ""), func(t *testing.T) {
			lines := probetest.Lines(t, bin, append([]string{"-runs", "1"}, args...)...)
			if len(lines) != 4 || !strings.HasPrefix(lines[1], "run 1: ") || !summary.MatchString(lines[3]) {
				t.Fatalf("want the load, a run line, the load and a summary, got:\n%s", strings.Join(lines, "\n"))
			}
			if len(args) > 0 && args[0] == "-slack" && !strings.Contains(lines[1], "timer slack 1ns") {
				t.Errorf("-slack 1 did not set the timer slack: %s", lines[1])
			}
			if len(args) > 0 && args[0] == "-trace" && !strings.Contains(lines[1], "ProcStart") {
				t.Errorf("a traced run does not split the wake-up: %s", lines[1])
			}
		})
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"-pipewake", "-warm"}, {"extra"}, {"-procs", "0"}}, "usage")
}
