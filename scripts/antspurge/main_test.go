package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Each pool runs as its own process, and the program prints a line per run,
// the load before and after, and a summary with a median and a range; a bad
// flag is a usage error. The counts depend on the machine and are not
// checked, but for the exact pool's floor: it starts at least its size.
func TestRunsEachPool(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "antspurge")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`^(ants|pool|coarse), workers started, 1 runs: median (\d+), range \d+–\d+$`)
	for name := range pools {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(bin, "-runs", "1", "-pool", name).Output()
			if err != nil {
				t.Fatalf("%v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != 4 || !strings.HasPrefix(lines[0], "load before: ") || !strings.HasPrefix(lines[1], "run 1: ") ||
				!strings.HasPrefix(lines[2], "load after: ") || !summary.MatchString(lines[3]) {
				t.Fatalf("want the load, a run line, the load and a summary, got:\n%s", out)
			}
			if n, _ := strconv.Atoi(summary.FindStringSubmatch(lines[3])[2]); n < 8 {
				t.Errorf("%s started %d workers for 80 tasks on a pool of 8", name, n)
			}
		})
	}
	for _, args := range [][]string{{"-pool", "bogus"}, {"-runs", "0"}, {"extra"}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), "usage") {
			t.Errorf("antspurge %q exited %d, want 2 and the usage:\n%s", args, code, out)
		}
	}
}
