package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Each probe runs as its own process and prints a line per run and a
// summary with a median and a range; a bad name or run count is a usage
// error. The figures themselves depend on the machine and are not checked.
func TestProbesRun(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "untraced")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`^\S+, .+, 1 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`)
	for name, p := range probes {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(bin, "-runs", "1", name).Output()
			if err != nil {
				t.Fatalf("%v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "run 1: ") {
				t.Fatalf("want a run line and a summary, got:\n%s", out)
			}
			if !summary.MatchString(lines[1]) || !strings.Contains(lines[1], p.what) {
				t.Errorf("summary %q does not name %q with a median and range", lines[1], p.what)
			}
		})
	}
	for _, args := range [][]string{{"bogus"}, {"-runs", "0", "timer-bursts"}, {}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
			t.Errorf("untraced %q exited %d, want 2 (a usage error):\n%s", args, code, out)
		}
		if !strings.Contains(string(out), "usage") && !strings.Contains(string(out), "must be at least 1") {
			t.Errorf("untraced %q says no usage:\n%s", args, out)
		}
	}
}
