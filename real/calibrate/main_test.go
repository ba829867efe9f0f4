package calibrate

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as the copy Measure starts to time
// a wake-up after idle, as schedlab's main does.
func TestMain(m *testing.M) {
	BecomeMeasuringChild()
	os.Exit(m.Run())
}
