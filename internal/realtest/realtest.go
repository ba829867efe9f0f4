// Package realtest marks the tests that build and run real Go programs and
// read what they did: their outcome depends on the machine's load and on
// its CPUs, so they stay out of ./test.sh and run from scripts/fidelity.sh,
// which sets SCHEDLAB_REAL_PROGRAMS=1.
package realtest

import (
	"os"
	"testing"
)

// Env is the variable that lets the real-program tests run.
const Env = "SCHEDLAB_REAL_PROGRAMS"

// Enabled says whether the real-program tests run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips t unless the real-program tests run, saying how to run it.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("runs real programs, whose outcome depends on the machine's load: scripts/fidelity.sh runs it")
	}
}
