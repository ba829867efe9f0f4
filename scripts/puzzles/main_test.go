package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Each quick puzzle runs as its own process and prints a line per run and
// a summary naming what it measured, the runs and the load; a bad name or
// run count is a usage error. The answers depend on the machine and are
// not checked, except where the runtime leaves no choice: main returns
// before done! can print.
func TestPuzzlesRun(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "puzzles")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`^\S+: .+; 2 runs, GOMAXPROCS .+, go1\.\S+, load .+ → .+$`)
	for _, name := range []string{"threads", "print-order", "println-cost", "first-print", "done-flag", "schedtick"} {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(bin, "-runs", "2", name).Output()
			if err != nil {
				t.Fatalf("%v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) < 4 || !strings.HasPrefix(lines[0], "run 1: ") || !summary.MatchString(lines[2]) {
				t.Fatalf("want two run lines, a summary and counts, got:\n%s", out)
			}
			if name == "done-flag" && lines[3] != "    2× (nothing)" {
				t.Errorf("done! was printed: main returns first, so it cannot be:\n%s", out)
			}
		})
	}
	for _, args := range [][]string{{"bogus"}, {"-runs", "0", "threads"}, {}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
			t.Errorf("puzzles %q exited %d, want 2 (a usage error):\n%s", args, code, out)
		}
	}
}
