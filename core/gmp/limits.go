package gmp

import (
	"fmt"
	"time"
)

// Bounds on a run's work, so that any program a scenario can write ends
// in a result or a message, in bounded time.

// MaxSimTime ends a run that reaches a century of simulated time: the
// clock counts nanoseconds in an int64, which holds 292 years, and no
// single wait a scenario can write (a year at most) can carry it past.
const MaxSimTime = 100 * 365 * 24 * time.Hour

// stepsPerEvent bounds the steps (agenda wake-ups) of a run at this many
// per event of Config.MaxEvents. Most steps emit an event; those that do
// not are compute actions, sysmon passes and zero-time actions, and a
// program made of nothing else (a loop of cpu: 1us a billion times, or
// loops of cpu: 0s under until:) would otherwise run for hours without an
// event to stop it.
const stepsPerEvent = 4

// stepLimitError says that the run stopped on the step limit, and which
// scenario line it was running: in a run that emits no events, the line
// the last step ran is the loop that keeps it going.
func (s *Machine) stepLimitError() error {
	where := ""
	if op := s.lastOp; op != nil {
		where = fmt.Sprintf(", running the %s at %v over and over", op.Kind, op.Pos)
	}
	where += s.spinNote()
	return fmt.Errorf("stopped after %d steps and %d events at %v without an end%s: "+
		"raise the limit with --max-events or max_events: in the file (a run may take %d steps per event), or stop the run earlier with --until",
		s.steps, s.emitted+1, s.now, where, stepsPerEvent) // the stop is an event too
}

// A sweep of the invariants (Config.Check) visits every goroutine id the
// run has made, every descriptor and every P. A run whose sweep is small
// is swept after every step; a larger one every sweepSize/checkSpread
// steps, which keeps a checked run within a small factor of an unchecked
// one instead of quadratic in its goroutines. The last state is always
// swept.
const (
	checkEveryStepUpTo = 512
	checkSpread        = 4
)

// checkDue reports whether this step's state is swept.
func (s *Machine) checkDue() bool {
	size := s.gs.len() + int(s.gs.ndesc) + len(s.ps)
	if size <= checkEveryStepUpTo {
		return true
	}
	s.sinceCheck++
	if s.sinceCheck*checkSpread < size {
		return false
	}
	s.sinceCheck = 0
	return true
}

// horizonError says the run reached its horizon (MaxSimTime unless a test
// lowered it), and the line it ran last.
func (s *Machine) horizonError() error {
	where := ""
	if op := s.lastOp; op != nil {
		where = fmt.Sprintf(", last running the %s at %v", op.Kind, op.Pos)
	}
	return fmt.Errorf("the run reached a century of simulated time without an end, the most the model's clock runs for%s: stop it earlier with --until", where)
}
