package gmp

// The work set: which Ps have something another P's stealWork could take
// or run, kept up to date as queues and timer heaps change, so that a
// steal pass with nothing to find costs no look at any P, and the
// work-conservation measure no scan of them. The runtime looks at every P
// on each pass (its passes are cheap against a real thread's wake-up);
// the model's cost per event would otherwise grow with the number of Ps.
// Only the cost changes: the Ps are enumerated, and the generator drawn
// from, exactly as before.

// workSet counts and marks the Ps with queued Gs or pending timers.
type workSet struct {
	// queued counts Ps with a G in runnext or the ring; timed, Ps with
	// timers.
	queued, timed int
	// bits has bit i set when P i has queued Gs or timers: a steal pass
	// skips the others without touching their records.
	bits []uint64
}

func newWorkSet(procs int) workSet {
	return workSet{bits: make([]uint64, (procs+63)/64)}
}

func (w *workSet) clone() workSet {
	c := *w
	c.bits = append([]uint64(nil), w.bits...)
	return c
}

// busy reports whether P i has queued Gs or timers.
func (w *workSet) busy(i int) bool {
	// A machine built without New (in tests) starts with no bits; its
	// Ps get them as they get work.
	return i>>6 < len(w.bits) && w.bits[i>>6]&(1<<(i&63)) != 0
}

// noteQueue records pp's queue after it changed.
func (s *Machine) noteQueue(pp *P) {
	has := pp.Runnext != NoG || pp.runq.len() > 0
	if has == pp.queued {
		return
	}
	pp.queued = has
	if has {
		s.work.queued++
	} else {
		s.work.queued--
	}
	s.markBusy(pp)
}

// noteTimers records pp's timer heap after it changed.
func (s *Machine) noteTimers(pp *P) {
	has := pp.timers.len() > 0
	if has == pp.timed {
		return
	}
	pp.timed = has
	if has {
		s.work.timed++
	} else {
		s.work.timed--
	}
	s.markBusy(pp)
}

func (s *Machine) markBusy(pp *P) {
	i := int(pp.ID)
	if n := i>>6 + 1; n > len(s.work.bits) {
		s.work.bits = append(s.work.bits, make([]uint64, n-len(s.work.bits))...)
	}
	if pp.queued || pp.timed {
		s.work.bits[i>>6] |= 1 << (i & 63)
	} else {
		s.work.bits[i>>6] &^= 1 << (i & 63)
	}
}

// othersHaveWork reports whether a steal pass by pp can find anything on
// another P: a queued G, unless the policy never steals, or, on the last
// pass (the only one that runs timers), a timer.
func (s *Machine) othersHaveWork(pp *P, last bool) bool {
	queued, timed := s.work.queued, s.work.timed
	if pp.queued {
		queued--
	}
	if pp.timed {
		timed--
	}
	return queued > 0 && !s.cfg.Policy.NoSteal || last && timed > 0
}
