package gmp

import "github.com/schedlab/schedlab/core/sim"

// Zombie timers (R8.8). Since Go 1.23 a time.After's timer is in a heap
// only while a goroutine waits on its channel. A select woken by another
// case lets go of its time.After timers in pass 3 (unblockTimerChan), but
// does not take them out of the heap, where removing one means finding
// it: it marks each a zombie and counts it. A zombie stays in the heap,
// and its When stays the heap's wakeTime while it is the earliest, until
// one of three things takes it out (time.go):
//
//   - an add to the heap (maybeAdd's cleanHead) first drops zombies from
//     the heap's last slot and its top, until neither holds one;
//   - a check of the heap (timers.check, at findRunnable's top for the
//     M's own P, on the last steal pass for another's) that gets past its
//     "nothing is due yet" test drops each zombie that comes to the top
//     (updateHeap); the test is skipped on the M's own P when more than a
//     quarter of its timers are zombies, and such a check also drops
//     every zombie in the heap once it has run what was due (adjust with
//     force);
//   - nothing else: not the zombie's own time, which only makes it due.
//
// So a program can see a zombie: an idle M blocks in netpoll until the
// zombie's When (the earliest of any P's heap), wakes for nothing, drops
// it on a steal pass, and blocks again, in whole milliseconds each time;
// and checkdead counts it as a pending timer.

// zombieAt names the zombie timer due at when that tops a P's heap, if
// one does: the timer an idle M blocking in netpoll until when waits for.
// A live timer due at the same instant comes first: the M has work then.
func (s *Machine) zombieAt(when sim.Time) (g GID, on PID, ok bool) {
	for i := range s.ps {
		h := &s.ps[i].timers
		if len(h.items) == 0 || h.items[0].When != when {
			continue
		}
		if !h.items[0].Zombie {
			return NoG, NoP, false
		}
		if !ok {
			g, on, ok = h.items[0].G, s.ps[i].ID, true
		}
	}
	return g, on, ok
}

// tooManyZombies is check's test for cleaning up at once: more than a
// quarter of the heap's timers are zombies.
func (h *timerHeap) tooManyZombies() bool {
	return h.zombies > len(h.items)/4
}

// unblockTimerChan makes g's time.After timer for case sel (plus one) of
// its select a zombie, if it is still in pp's heap (one that fired is
// not). The heap keeps it where it is, so its wakeTime does not change.
func (s *Machine) unblockTimerChan(pp *P, g GID, sel int32) {
	h := &pp.timers
	for i := range h.items {
		if t := &h.items[i]; t.G == g && t.sel == sel && !t.Zombie {
			t.Zombie = true
			h.zombies++
			return
		}
	}
}

// cleanHead drops the zombies at the end of pp's heap's slice and at its
// top, as maybeAdd does before an add: the last slot costs nothing to
// empty, and emptying it may bring a live timer to the top when the top
// zombie goes.
func (s *Machine) cleanHead(pp *P) {
	h := &pp.timers
	for h.zombies > 0 && len(h.items) > 0 {
		if last := len(h.items) - 1; h.items[last].Zombie {
			h.items = h.items[:last]
			s.zombieGone(pp)
			continue
		}
		if !h.items[0].Zombie {
			return
		}
		s.dropZombieHead(pp)
	}
}

// dropZombieHead takes the zombie at the top of pp's heap out of it
// (updateHeap).
func (s *Machine) dropZombieHead(pp *P) {
	pp.timers.removeAt(0)
	s.zombieGone(pp)
}

// dropZombies takes every zombie out of pp's heap (adjust with force).
func (s *Machine) dropZombies(pp *P) {
	h := &pp.timers
	kept := h.items[:0]
	for _, t := range h.items {
		if t.Zombie {
			s.ntimers--
			h.zombies--
			continue
		}
		kept = append(kept, t)
	}
	clear(h.items[len(kept):])
	h.items = kept
	for i := (len(h.items) - 2) / timerArity; i >= 0; i-- {
		h.down(i) // heapify: the last parent first
	}
	s.noteTimers(pp)
}

// zombieGone accounts for a zombie taken out of pp's heap.
func (s *Machine) zombieGone(pp *P) {
	pp.timers.zombies--
	s.ntimers--
	s.noteTimers(pp)
}
