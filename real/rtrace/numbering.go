package rtrace

import (
	"strings"

	"golang.org/x/exp/trace"
)

// numbering gives a scenario program's goroutines the scenario's numbers
// (Options.Scenario).
type numbering struct {
	num     map[trace.GoID]int64
	next    int64
	runtime map[trace.GoID]bool
}

// mainGoID is the main goroutine's ID: G1 in every Go program, as in the
// model.
const mainGoID trace.GoID = 1

func newNumbering() *numbering {
	return &numbering{num: map[trace.GoID]int64{mainGoID: 1}, next: 2, runtime: map[trace.GoID]bool{}}
}

// renumber rewrites out's goroutines in the scenario's numbers and
// reports whether out concerns a scenario goroutine (or no goroutine).
func (n *numbering) renumber(ev trace.Event, st trace.StateTransition, out *Event, s *Summary) bool {
	if out.G < 0 {
		return true
	}
	real := trace.GoID(out.G)
	if out.Kind == "go-create" {
		// A timer's callback (time.AfterFunc, as a pool's purge) is
		// started by the scheduler, between goroutines: no goroutine
		// creates it.
		creator := ev.Goroutine()
		_, byScenario := n.num[creator]
		start := startFunc(st.Stack)
		if (byScenario || creator == trace.NoGoroutine) && !isRuntime(start) {
			n.num[real] = n.next
			n.next++
		}
	}
	g, ok := n.num[real]
	if !ok {
		n.runtime[real] = true
		s.RuntimeEvents++
		return false
	}
	out.G = g
	if out.G2 >= 0 {
		if g2, ok := n.num[trace.GoID(out.G2)]; ok {
			out.G2 = g2
		} else {
			out.G2 = -1
		}
	}
	return true
}

// startFunc is the function a new goroutine starts in: the outermost
// frame of its starting stack.
func startFunc(st trace.Stack) string {
	var last string
	for f := range st.Frames() {
		last = f.Func
	}
	return last
}

// isRuntime says whether a goroutine starting in fn is the runtime's own
// (runtime.gcBgMarkWorker, runtime/trace.Start.func1…).
func isRuntime(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "runtime/")
}
