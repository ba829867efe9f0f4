package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Work conservation, after google/schedviz: a scheduler conserves work
// when no processor idles while runnable work waits. The model measures
// the opposite, the time Ps spent idle while Gs sat runnable in a queue,
// summed over Ps: 2 idle Ps for 1ms while a G waits count 2ms. It is what
// no-steal or a slow wake-up costs, in one number.
//
// Whether a G waits anywhere is the work set's count (workset.go), so the
// measure costs O(1) whenever time advances; it is still off unless
// Config.MeasureIdle asks for it.

// accountIdle adds the idle-while-runnable time between now and at.
func (s *Machine) accountIdle(at sim.Time) {
	if s.sched.Npidle == 0 || !s.runnableWaits() {
		return
	}
	s.idleWhileRunnable += time.Duration(s.sched.Npidle) * at.Sub(s.now)
}

// runnableWaits reports whether some G waits in the global queue or in a
// P's runnext or ring.
func (s *Machine) runnableWaits() bool { return s.sched.runq.len() > 0 || s.work.queued > 0 }

// IdleWhileRunnable is the time Ps spent idle while runnable Gs waited in a
// queue, summed over Ps, up to now. It is 0 unless Config.MeasureIdle is
// set.
func (s *Machine) IdleWhileRunnable() time.Duration { return s.idleWhileRunnable }
