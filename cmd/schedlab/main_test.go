package main

import (
	"os"
	"testing"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/prog"
)

// TestMain lets this test binary serve as the bounded copy that starts
// each real program (real/prog), and as calibrate's copy that times a
// wake-up after idle (real/calibrate), as schedlab's main does.
func TestMain(m *testing.M) {
	prog.BecomeBoundedProgram()
	calibrate.BecomeMeasuringChild()
	os.Exit(m.Run())
}
