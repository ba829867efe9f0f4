package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// Each pool runs as its own process, and the program prints a line per run,
// the load before and after, and a summary with a median and a range; a bad
// flag is a usage error. The counts depend on the machine and are not
// checked, but for the exact pool's floor: it starts at least its size.
func TestRunsEachPool(t *testing.T) {
	bin := probetest.Build(t, "antspurge")
	summary := regexp.MustCompile(`^(ants|pool|coarse), workers started, 1 runs: median (\d+), range \d+–\d+$`)
	for name := range pools {
		t.Run(name, func(t *testing.T) {
			lines := probetest.Lines(t, bin, "-runs", "1", "-pool", name)
			if len(lines) != 4 || !strings.HasPrefix(lines[0], "load before: ") || !strings.HasPrefix(lines[1], "run 1: ") ||
				!strings.HasPrefix(lines[2], "load after: ") || !summary.MatchString(lines[3]) {
				t.Fatalf("want the load, a run line, the load and a summary, got:\n%s", strings.Join(lines, "\n"))
			}
			if n, _ := strconv.Atoi(summary.FindStringSubmatch(lines[3])[2]); n < 8 {
				t.Errorf("%s started %d workers for 80 tasks on a pool of 8", name, n)
			}
		})
	}
	probetest.UsageErrors(t, bin, [][]string{{"-pool", "bogus"}, {"-runs", "0"}, {"extra"}}, "usage")
}
