// Package probetest checks a probe (see package probe) as a user runs it:
// built, run as its own process, and given bad arguments.
package probetest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/realtest"
)

// Build skips t unless real programs run, and otherwise builds the probe
// in the test's directory and returns the binary's path.
func Build(t *testing.T, name string) string {
	t.Helper()
	realtest.Require(t)
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Lines runs bin with args and returns the lines of its standard output;
// a run that fails fails t.
func Lines(t *testing.T, bin string, args ...string) []string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", filepath.Base(bin), args, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// UsageErrors checks that bin, given each of bad, exits 2, and says one
// of says if any are given.
func UsageErrors(t *testing.T, bin string, bad [][]string, says ...string) {
	t.Helper()
	for _, args := range bad {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
			t.Errorf("%s %q exited %d, want 2 (a usage error):\n%s", filepath.Base(bin), args, code, out)
		}
		if len(says) > 0 && !containsAny(string(out), says) {
			t.Errorf("%s %q says none of %q:\n%s", filepath.Base(bin), args, says, out)
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
