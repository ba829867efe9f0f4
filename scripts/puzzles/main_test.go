package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// Each quick puzzle runs as its own process and prints a line per run and
// a summary naming what it measured, the runs and the load; a bad name or
// run count is a usage error. The answers depend on the machine and are
// not checked, except where the runtime leaves no choice: main returns
// before done! can print.
func TestPuzzlesRun(t *testing.T) {
	bin := probetest.Build(t, "puzzles")
	summary := regexp.MustCompile(`^\S+: .+; 2 runs, GOMAXPROCS .+, go1\.\S+, load .+ → .+$`)
	for _, name := range []string{"threads", "print-order", "println-cost", "first-print", "done-flag", "schedtick"} {
		t.Run(name, func(t *testing.T) {
			lines := probetest.Lines(t, bin, "-runs", "2", name)
			if len(lines) < 4 || !strings.HasPrefix(lines[0], "run 1: ") || !summary.MatchString(lines[2]) {
				t.Fatalf("want two run lines, a summary and counts, got:\n%s", strings.Join(lines, "\n"))
			}
			if name == "done-flag" && lines[3] != "    2× (nothing)" {
				t.Errorf("done! was printed: main returns first, so it cannot be:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
	probetest.UsageErrors(t, bin, [][]string{{"bogus"}, {"-runs", "0", "threads"}, {}})
}
