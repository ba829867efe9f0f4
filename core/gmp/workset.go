package gmp

import (
	"math/bits"

	"github.com/schedlab/schedlab/core/sim"
)

// The work set: which Ps have something another P's stealWork could take
// or run, kept up to date where queues and timer heaps change, so that the
// cost of a steal pass follows the Ps that can give something rather than
// the number of Ps, and the work-conservation measure costs no scan of
// them. The runtime looks at every P on each pass (cheap beside a real
// thread's wake-up); the model's cost per event grew with the Ps.
//
// A pass still draws its random start and stride and visits Ps in that
// order; it only leaves out the visits that did nothing: a P with no
// queued G (and, on the last pass, no timer) gives nothing, and a P whose
// timers are none of them due and that has no queued G gives the last
// pass only its earliest timer's time (foldWake). When few Ps can give
// something, the pass goes straight to them, in the enumeration's order
// (victimsAhead); otherwise it steps through every P testing bits. Traces
// are the same event for event.

// workSet counts and marks the Ps with queued Gs or pending timers.
type workSet struct {
	// queued counts Ps with a G in runnext or the ring; timed, Ps with
	// timers.
	queued, timed int
	// queuedBits and timedBits have bit i set when P i has queued Gs,
	// or timers: a steal pass visits those Ps and skips the others.
	queuedBits, timedBits []uint64
	// wake[i] is P i's earliest timer (timerHeap.wakeTime), kept beside
	// the bits so that the last steal pass reads it without touching the
	// P: most Ps' timers are not due, and then all the pass takes from
	// them is that time.
	wake []sim.Time
}

func newWorkSet(procs int) workSet {
	n := (procs + 63) / 64
	return workSet{queuedBits: make([]uint64, n), timedBits: make([]uint64, n), wake: make([]sim.Time, procs)}
}

func (w *workSet) clone() workSet {
	c := *w
	c.queuedBits = append([]uint64(nil), w.queuedBits...)
	c.timedBits = append([]uint64(nil), w.timedBits...)
	c.wake = append([]sim.Time(nil), w.wake...)
	return c
}

// setBit sets or clears bit i of *bits, growing it if need be (a machine
// built without New, in tests, starts with none).
func setBit(bits *[]uint64, i int, on bool) {
	if n := i>>6 + 1; n > len(*bits) {
		*bits = append(*bits, make([]uint64, n-len(*bits))...)
	}
	if on {
		(*bits)[i>>6] |= 1 << (i & 63)
	} else {
		(*bits)[i>>6] &^= 1 << (i & 63)
	}
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
	setBit(&s.work.queuedBits, int(pp.ID), has)
}

// noteTimers records pp's timer heap after it changed.
func (s *Machine) noteTimers(pp *P) {
	if i := int(pp.ID); i < len(s.work.wake) {
		s.work.wake[i] = pp.timers.wakeTime()
	}
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
	setBit(&s.work.timedBits, int(pp.ID), has)
}

// victimWord is word j of the Ps a steal pass by pp may find something
// on: those with queued Gs, unless the policy never steals, and on the
// last pass (the only one that runs timers) those with timers; never pp.
func (s *Machine) victimWord(j int, pp *P, last bool) uint64 {
	var w uint64
	if !s.cfg.Policy.NoSteal && j < len(s.work.queuedBits) {
		w = s.work.queuedBits[j]
	}
	if last && j < len(s.work.timedBits) {
		w |= s.work.timedBits[j]
	}
	if int(pp.ID)>>6 == j {
		w &^= 1 << (int(pp.ID) & 63)
	}
	return w
}

// victimsAhead lists the Ps a steal pass by pp may find something on
// (see victimWord) that e has yet to visit from where it stands, as
// steps of e, in no order (the caller takes the smallest first), when
// they are few: dense says there are too many to be worth it, and the
// caller steps through every P instead, skipping the others by their
// bits. The list is s's scratch, valid until the next call.
func (s *Machine) victimsAhead(e *randomEnum, pp *P, last bool) (steps []int32, dense bool) {
	words := (e.count + 63) / 64
	n := 0
	for j := range words {
		n += bits.OnesCount64(s.victimWord(j, pp, last))
	}
	if n > maxSparseVictims {
		return nil, true
	}
	steps = s.stealSteps[:0]
	for j := range words {
		for w := s.victimWord(j, pp, last); w != 0; w &= w - 1 {
			p := j<<6 + bits.TrailingZeros64(w)
			if k := e.stepOf(p); k >= e.i {
				steps = append(steps, int32(k))
			}
		}
	}
	s.stealSteps = steps
	return steps, false
}

// foldWake is the last pass's visit of P i when i has timers, none of
// them due, and no queued G: runTimers would run nothing and report i's
// earliest timer, and runqsteal would find nothing. It reports whether it
// stood in for the visit.
func (s *Machine) foldWake(m *M, i int) bool {
	if i >= len(s.work.wake) || s.work.queuedBits[i>>6]&(1<<(i&63)) != 0 {
		return false
	}
	w := s.work.wake[i]
	if w == 0 || w <= s.now {
		return false
	}
	if st := &m.fr; st.stealPoll == 0 || w < st.stealPoll {
		st.stealPoll = w
	}
	return true
}

// maxSparseVictims is the most Ps a steal pass visits from a sorted list;
// past it, stepping through every P and testing its bits is as cheap.
const maxSparseVictims = 8
