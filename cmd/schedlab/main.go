// Command schedlab shows how the Go scheduler and goroutine pools work:
// a step-by-step UI by default, and headless commands for traces, checks,
// comparisons and benchmarks.
package main

import (
	"io"
	"os"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/prog"
)

// stdin is where a scenario named "-" is read from; tests replace it.
var stdin io.Reader = os.Stdin

func main() {
	// schedlab real starts each real program through a copy of itself
	// that bounds its memory and trace file first (real/prog).
	prog.BecomeBoundedProgram()
	// calibrate times a thread's wake-up after idle in fresh copies of
	// itself (real/calibrate).
	calibrate.BecomeMeasuringChild()
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}
