package probe

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/schedlab/schedlab/real/calibrate"
)

// The switches a run of a gap probe makes (-n): enough that the gaps
// after the first settled ones are many, few enough that a trace held to
// read stays small.
const (
	minSwitches = 50
	maxSwitches = 100_000
)

// SwitchesFlag defines -n, how many switches a run of a gap probe makes,
// 300 unless told; what names them in the help ("switches", "hops").
func SwitchesFlag(what string) *int {
	return flag.Int("n", 300, fmt.Sprintf("how many %s a run makes (%d to %d)", what, minSwitches, maxSwitches))
}

// CheckSwitches is a usage error, saying why, unless n is within the
// bounds SwitchesFlag gives.
func CheckSwitches(prog string, n int) {
	if n < minSwitches || n > maxSwitches {
		fmt.Fprintf(os.Stderr, "%s: -n must be from %d to %d\n", prog, minSwitches, maxSwitches)
		BadUsage()
	}
}

// TracedGaps runs work on one P while the process traces into a file, as
// schedlab real's programs do, and returns the mean of the gaps the trace
// shows after a switch of kind (calibrate.GapsOf) and a run's line: how
// many, their mean and median, the first three, and the mean after the
// first settled, which leaves out a fresh process's slower first
// switches. A trace that cannot be written or read, or too few gaps to
// time, ends the program with status 1.
func TracedGaps(prog, kind string, settled int, work func()) (float64, string) {
	runtime.GOMAXPROCS(1)
	dir, err := os.MkdirTemp("", prog)
	if err != nil {
		Fail(prog, err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "trace.out")
	stop, err := Trace(path)
	if err != nil {
		Fail(prog, err)
	}
	work()
	stop()
	f, err := os.Open(path)
	if err != nil {
		Fail(prog, err)
	}
	defer f.Close()
	gaps, err := calibrate.GapsOf(f, kind)
	if err != nil {
		Fail(prog, err)
	}
	if len(gaps) <= settled {
		Fail(prog, fmt.Errorf("the trace shows %d gaps after a %s, too few to time", len(gaps), kind))
	}
	mean := func(v []float64) float64 {
		var sum float64
		for _, g := range v {
			sum += g
		}
		return sum / float64(len(v))
	}
	all := mean(gaps)
	sorted := slices.Sorted(slices.Values(gaps))
	return all, fmt.Sprintf("%d gaps: mean %.0fns, median %.0fns, the first three %.0f, %.0f and %.0fns, after the %dth %.0fns",
		len(gaps), all, sorted[len(sorted)/2], gaps[0], gaps[1], gaps[2], settled, mean(gaps[settled:]))
}
