package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Each probe runs as its own process and prints the load average before
// and after, a line a run, and each figure's median and range, the share
// of the time its threads waited for a CPU among them; a bad name or run
// count is a usage error. The figures themselves depend on the machine and
// are not checked.
func TestProbesRun(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "underload")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`^\S+ \S+, 1 runs: median [0-9.e+-]+, range [0-9.e+-]+–[0-9.e+-]+$`)
	for name := range probes {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(bin, "-runs", "1", name).Output()
			if err != nil {
				t.Fatalf("%v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) < 6 || !strings.HasPrefix(lines[1], "loadavg before: ") || !strings.HasPrefix(lines[2], "run 1: ") ||
				!strings.HasPrefix(lines[3], "loadavg after: ") {
				t.Fatalf("want a title, the load before, a run, the load after and summaries, got:\n%s", out)
			}
			waited := false
			for _, l := range lines[4:] {
				if !summary.MatchString(l) {
					t.Errorf("summary %q has no median and range", l)
				}
				waited = waited || strings.Contains(l, " waited%, ")
			}
			if !waited {
				t.Errorf("no waited%% figure:\n%s", out)
			}
		})
	}
	for _, args := range [][]string{{"bogus"}, {"-runs", "0", "fan-in"}, {}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
			t.Errorf("underload %q exited %d, want 2 (a usage error):\n%s", args, code, out)
		}
	}
}
