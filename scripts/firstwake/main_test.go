package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Each mode runs as its own process and prints the load, a line per run
// and a summary with a median and a range; a bad flag is a usage error.
// The figures depend on the machine and are not checked.
func TestEachModeRuns(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "firstwake")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`^.+ \(µs.*\), 1 runs: median [0-9.e+]+, range [0-9.e+]+–[0-9.e+]+$`)
	for _, args := range [][]string{{}, {"-warm"}, {"-trace"}, {"-pipewake"}} {
		t.Run(strings.Join(append([]string{"mode"}, args...), ""), func(t *testing.T) {
			out, err := exec.Command(bin, append([]string{"-runs", "1"}, args...)...).Output()
			if err != nil {
				t.Fatalf("%v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != 4 || !strings.HasPrefix(lines[1], "run 1: ") || !summary.MatchString(lines[3]) {
				t.Fatalf("want the load, a run line, the load and a summary, got:\n%s", out)
			}
			if len(args) > 0 && args[0] == "-trace" && !strings.Contains(lines[1], "ProcStart") {
				t.Errorf("a traced run does not split the wake-up: %s", lines[1])
			}
		})
	}
	for _, args := range [][]string{{"-runs", "0"}, {"-pipewake", "-warm"}, {"extra"}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), "usage") {
			t.Errorf("firstwake %q exited %d, want 2 and the usage:\n%s", args, code, out)
		}
	}
}
