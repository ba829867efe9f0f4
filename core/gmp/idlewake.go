package gmp

import (
	"fmt"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// A thread woken after a long park can start late, and by far more than a
// futex wake-up's usual time. scripts/wakeafteridle measures it on this
// project's machine (2 vCPUs, Linux, HZ=250): a program on 2 Ps sleeps,
// then makes a goroutine and computes 5ms. After 1 or 2ms asleep, the
// other P's thread starts the goroutine within about 0.1ms in all but 1
// round in 200; after 3-4ms, a third of the rounds start more than 0.5ms
// late, and after 8ms three quarters do (median 1.5ms late, never past one
// scheduler tick, 4ms). perf sched shows why: the woken thread is put in
// the run queue of the CPU it last ran on, which is the waker's, busy, and
// waits there until the waker's thread is switched out at a tick, while
// the other CPU idles. Which CPU a thread last ran on is not in a model
// without CPUs, and the placements of the idle period before decide it,
// so the model takes the measurement as it is: with Config.Noise, and
// without a CPU model (whose own placement decides where there is one),
// when an M's step makes startm wake an M that has been parked at least a
// point's After, the woken M starts later with the point's Share as its
// chance, by a time drawn evenly from Min to Max, unless the waker's
// thread leaves its CPU first (parks, or blocks in netpoll): then it
// starts at once. schedlab calibrate measures the points
// (wake_after_idle), so a profile of another machine brings its own; the
// defaults have none, and every run without a profile is as before.

// MaxIdleWakePoints is how many idle times Costs.IdleWake holds.
const MaxIdleWakePoints = 4

// IdleWakePoint is the lateness of a thread woken after being parked for
// After or more (up to the next point's After).
type IdleWakePoint struct {
	After time.Duration
	// Share is the chance, from 0 to 1, that the thread starts late.
	Share float64
	// Min and Max bound how late, drawn evenly between them.
	Min, Max time.Duration
}

// IdleWake is the lateness of threads woken after a park, by how long
// they were parked: its points in ascending order of After, each unused
// point's After zero and after the used ones.
type IdleWake [MaxIdleWakePoints]IdleWakePoint

// at returns the point for a thread parked for parked: the last point
// whose After it reaches, or nil.
func (w *IdleWake) at(parked time.Duration) *IdleWakePoint {
	var found *IdleWakePoint
	for i := range w {
		p := &w[i]
		if p.After <= 0 || parked < p.After {
			break
		}
		found = p
	}
	return found
}

// validate says what is wrong with w, if anything.
func (w *IdleWake) validate() error {
	var last time.Duration
	for i, p := range w {
		switch {
		case p.After == 0 && (p.Share != 0 || p.Min != 0 || p.Max != 0):
			return fmt.Errorf("idle wake point %d has no idle time but a lateness", i+1)
		case p.After == 0:
			continue
		case p.After < 0 || p.After <= last && i > 0:
			return fmt.Errorf("idle wake point %d: its idle time %v must be positive and after the one before", i+1, p.After)
		case i > 0 && w[i-1].After == 0:
			return fmt.Errorf("idle wake point %d follows an unused one", i+1)
		case !(p.Share >= 0 && p.Share <= 1):
			return fmt.Errorf("idle wake point %d: its share must be from 0 to 1, got %v", i+1, p.Share)
		case p.Min < 0 || p.Max < p.Min:
			return fmt.Errorf("idle wake point %d: want 0 ≤ min ≤ max, got %v and %v", i+1, p.Min, p.Max)
		}
		last = p.After
	}
	return nil
}

// idleWakeLate is how much later than its wake-up an M parked since
// parked starts, now that startm wakes it while s.acting runs: 0 without
// noise, or when no point of Costs.IdleWake applies. The generator is
// drawn from only when a point applies, so that a run without the points
// is as before. startm asks only when an M's step wakes the thread: the
// waker's CPU is then busy, as in the measurement; sysmon and the
// netpoller wake threads as their own go to sleep.
func (s *Machine) idleWakeLate(parked sim.Time) time.Duration {
	if !s.cfg.Noise || s.cpu != nil {
		return 0
	}
	p := s.cfg.Costs.IdleWake.at(s.now.D() - parked.D())
	if p == nil || p.Share <= 0 {
		return 0
	}
	if s.rng.Float64() >= p.Share {
		return 0
	}
	return p.Min + time.Duration(s.rng.Int63n(int64(p.Max-p.Min)+1))
}

// idleWakeFreed is m's thread leaving its CPU (it parks, or blocks in
// netpoll): a thread woken late behind it gets that CPU and starts now,
// or when it would have started anyway.
func (s *Machine) idleWakeFreed(m *M) {
	if s.lateMs == 0 {
		return
	}
	for _, w := range s.ms {
		if w.late && w.lateBehind == m.ID {
			w.late = false
			s.lateMs--
			s.wakeMAt(w, max(s.now, w.lateFrom), stepStart)
		}
	}
}
