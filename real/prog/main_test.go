package prog

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as the bounded copy that
// limitedCommand starts, as schedlab's main does.
func TestMain(m *testing.M) {
	BecomeBoundedProgram()
	os.Exit(m.Run())
}
