package rtrace

import (
	"fmt"

	"golang.org/x/exp/trace"
)

// guard calls f, one call into the trace package, and turns a panic of
// that package into an error. The package panics on some malformed
// traces where it should return an error: it checks a P's status
// (ProcStatus) as a byte but looks the whole number up when it describes
// the transition, so a status of 6144 passes the check and indexes a
// table of five (testdata/procstatus-6144.trace is such a trace). A trace is
// a file anyone may send; it must end in an error, not a crash. Only the
// package's calls are guarded, so that a panic of schedlab's own code
// still fails its tests.
func guard[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("an event the trace package cannot decode (%v)", p)
		}
	}()
	return f()
}

// transition is ev's state transition, guarded.
func transition(ev trace.Event) (trace.StateTransition, error) {
	return guard(func() (trace.StateTransition, error) { return ev.StateTransition(), nil })
}
