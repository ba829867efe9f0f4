// Command freshgaps times the switch gaps calibrate measures, the idle P
// a runtime trace shows from a goroutine's stop to the next goroutine's
// start, in fresh processes that trace into a file as schedlab real's
// programs do. calibrate times them in its own long-running process,
// after its other figures (traced_park_gap, traced_exit_gap,
// traced_yield_gap); here each run is a new process on one P that makes
// the same switches with calibrate's own probes and nothing before them.
//
//	go run ./scripts/freshgaps park           # 10 runs of 300 switches
//	go run ./scripts/freshgaps -runs 12 -n 8000 exit
//
// The kind is park (a ping-pong through channels, each side computing
// about 16µs between its waits), exit (goroutines that compute as long
// and end) or yield (two goroutines calling runtime.Gosched in turn).
// Each run prints how many gaps its trace shows, their mean, the first
// three, and the mean after the twentieth; the summary is of the runs'
// means, in ns. docs/fidelity.md (Fifty runs a series) sets them beside
// the profile's.
package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// after names each kind's switch in the summary.
var after = map[string]string{"park": "a park", "exit": "an exit", "yield": "a Gosched"}

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_FRESHGAPS_RUN"

// settled is how many gaps a run's later mean leaves out: the first
// switches of a fresh process are slower than the rest.
const settled = 20

func main() {
	runs := probe.RunsFlag()
	n := probe.SwitchesFlag("switches")
	probe.SetUsage("go run ./scripts/freshgaps [-runs N] [-n SWITCHES] park|exit|yield")
	flag.Parse()
	probe.CheckSwitches("freshgaps", *n)
	kind, _ := probe.Pick("freshgaps", "kind of switch", calibrate.SwitchKinds)
	args := []string{"-n=" + strconv.Itoa(*n), kind}
	got := probe.Fresh("freshgaps", runEnv, *runs, args, func() (float64, string) { return once(kind, *n) })
	fmt.Printf("mean gap after %s (ns), %s\n", after[kind], probe.Summarize(got))
}

// once makes n switches of kind on one P while the process traces into
// a file, and returns the mean gap the trace shows, in ns, and the run's
// line.
func once(kind string, n int) (float64, string) {
	return probe.TracedGaps("freshgaps", kind, settled, func() {
		if err := calibrate.Switches(kind, n); err != nil {
			probe.Fail("freshgaps", err)
		}
	})
}
