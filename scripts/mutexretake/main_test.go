package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// The command runs the workload as its own processes and prints the load
// before and after, a line per run and a summary with a median and a
// range; a bad argument is a usage error. The figures depend on the
// machine and are not checked.
func TestMeasures(t *testing.T) {
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), "mutexretake")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-runs", "2").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^load before: `),
		regexp.MustCompile(`^run 1: \d+ of 799 acquisitions by the previous holder \([0-9.]+%\) in `),
		regexp.MustCompile(`^run 2: \d+ of 799 acquisitions`),
		regexp.MustCompile(`^load after: `),
		regexp.MustCompile(`^re-takes by the previous holder \(%\), 2 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), out)
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
	for _, args := range [][]string{{"-runs", "0"}, {"extra"}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
			t.Errorf("mutexretake %q exited %d, want 2:\n%s", args, code, out)
		}
	}
}
