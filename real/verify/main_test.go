package verify_test

import (
	"os"
	"testing"

	"github.com/schedlab/schedlab/real/prog"
)

// TestMain lets this test binary serve as the bounded copy that starts
// each real program (real/prog), as schedlab's main does.
func TestMain(m *testing.M) {
	prog.BecomeBoundedProgram()
	os.Exit(m.Run())
}
