package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Timers (R8.5): each P owns a heap of timers. A sleeping G's timer goes
// into the heap of the P it ran on, and timers fire only when a P runs
// findRunnable: its own at the top, other Ps' on the last steal pass.
// sysmon never runs them.

// Timer is a pending time.Sleep, a pool's purge timer (a
// time.AfterFunc), or the timer of a select's time.After case.
type Timer struct {
	When sim.Time
	G    GID // the sleeper; NoG for a purge timer
	// Purge is the pool (index plus one) whose purge the timer starts,
	// or 0.
	Purge int32
	// sel is, for the timer of a select's time.After case, the case plus
	// one (select.go); 0 otherwise.
	sel int32
	// Zombie marks a select's timer that its select let go of, woken by
	// another case (unblockTimerChan): stopped, but still in the heap,
	// where it counts as the heap's earliest until a check or an add
	// takes it out (zombies.go).
	Zombie bool
	seq    uint64
}

// timerHeap is a 4-ary min-heap ordered by (When, seq), as the runtime's
// timer heaps are. With every sleeping goroutine's timer in its P's heap,
// a heap holds thousands, and each level a timer sinks through is a cache
// line to wait for: four children a level halve the levels of a binary
// heap. No two timers share (When, seq), so the order they fire in does
// not depend on the heap's shape.
type timerHeap struct {
	items []Timer
	seq   uint64
	// zombies counts the items that are zombies (ts.zombies).
	zombies int
}

func (h *timerHeap) len() int { return len(h.items) }

// wakeTime is the earliest When, or 0 if the heap is empty.
func (h *timerHeap) wakeTime() sim.Time {
	if len(h.items) == 0 {
		return 0
	}
	return h.items[0].When
}

func (h *timerHeap) less(i, j int) bool {
	a, b := &h.items[i], &h.items[j]
	if a.When != b.When {
		return a.When < b.When
	}
	return a.seq < b.seq
}

func (h *timerHeap) push(t Timer) {
	h.seq++
	t.seq = h.seq
	h.items = append(h.items, t)
	h.up(len(h.items) - 1)
}

func (h *timerHeap) pop() Timer {
	top := h.items[0]
	h.removeAt(0)
	return top
}

// remove deletes g's sleep timer, if it has one (not a select's, live or
// a zombie: g may have left one of those behind before it slept).
func (h *timerHeap) remove(g GID) bool {
	for i := range h.items {
		if t := &h.items[i]; t.G == g && t.sel == 0 && t.Purge == 0 {
			h.removeAt(i)
			return true
		}
	}
	return false
}

func (h *timerHeap) removeAt(i int) {
	last := len(h.items) - 1
	h.items[i] = h.items[last]
	h.items = h.items[:last]
	if i < last {
		h.down(i)
		h.up(i)
	}
}

// timerArity is the number of children a node of timerHeap has.
const timerArity = 4

func (h *timerHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / timerArity
		if !h.less(i, parent) {
			return
		}
		h.items[i], h.items[parent] = h.items[parent], h.items[i]
		i = parent
	}
}

func (h *timerHeap) down(i int) {
	for {
		first := timerArity*i + 1
		if first >= len(h.items) {
			return
		}
		small := first
		for c := first + 1; c < first+timerArity && c < len(h.items); c++ {
			if h.less(c, small) {
				small = c
			}
		}
		if !h.less(small, i) {
			return
		}
		h.items[i], h.items[small] = h.items[small], h.items[i]
		i = small
	}
}

func (h *timerHeap) clone() timerHeap {
	return timerHeap{items: append([]Timer(nil), h.items...), seq: h.seq, zombies: h.zombies}
}

// earliest appends the heap's k earliest timers to buf, in firing order,
// and returns it. It reads the heap without changing or copying it: the
// next timer to fire is always the earliest of a frontier that starts at
// the root and, each time one is taken, gains that one's children, so k
// of them cost O(k²) comparisons however many timers the heap holds.
// A display that shows a few timers per P needs no more.
func (h *timerHeap) earliest(k int, buf []Timer) []Timer {
	if k <= 0 || len(h.items) == 0 {
		return buf
	}
	var small [16]int
	frontier := append(small[:0], 0)
	for range k {
		if len(frontier) == 0 {
			break
		}
		best := 0
		for i := 1; i < len(frontier); i++ {
			if h.less(frontier[i], frontier[best]) {
				best = i
			}
		}
		top := frontier[best]
		buf = append(buf, h.items[top])
		frontier[best] = frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		for c := timerArity*top + 1; c <= timerArity*top+timerArity && c < len(h.items); c++ {
			frontier = append(frontier, c)
		}
	}
	return buf
}

// sorted returns the timers in firing order.
func (h *timerHeap) sorted() []Timer {
	c := h.clone()
	out := make([]Timer, 0, len(c.items))
	for c.len() > 0 {
		out = append(out, c.pop())
	}
	return out
}

// timeSleep parks g for d (time.Sleep). The timer is armed after the park,
// in the heap of the P g ran on; if it is that heap's earliest, the
// netpoller or a spinning M is told (wakeNetPoller).
func (s *Machine) timeSleep(m *M, g *G, d time.Duration) {
	pp := s.p(m.P)
	s.gopark(m, g, ReasonSleep, at(LocTimer, pp.ID), d, 0)
	s.addTimer(pp, Timer{When: s.after(d), G: g.ID})
	s.enterScheduler(m)
}

// addTimer puts t in pp's heap, once the zombies at the heap's two ends
// are out of it; if t is then the heap's earliest, the netpoller or a
// spinning M is told (timer.maybeAdd, wakeNetPoller).
func (s *Machine) addTimer(pp *P, t Timer) {
	s.sched.NetpollInited = true // any timer use initialises the poller
	s.cleanHead(pp)
	earliest := pp.timers.len() == 0 || t.When < pp.timers.wakeTime()
	pp.timers.push(t)
	s.ntimers++
	s.noteTimers(pp)
	if earliest {
		s.wakeNetPoller(t.When)
	}
}

// runTimers runs tp's expired timers on behalf of runner's M: each sleeper
// is readied into runner's runnext (timers.check). It returns the next
// timer's time (0 if none) and whether any ran. Until the earliest timer
// is due it does nothing, unless tp is runner's own P and more than a
// quarter of its timers are zombies; past that, a zombie at the top
// leaves the heap as it comes up, due or not, and on the runner's own P
// every zombie does if more than a quarter still are (zombies.go).
func (s *Machine) runTimers(tp, runner *P, m *M) (sim.Time, bool) {
	next := tp.timers.wakeTime()
	if next == 0 || s.now < next && !(tp == runner && tp.timers.tooManyZombies()) {
		return next, false
	}
	ran := false
	for tp.timers.len() > 0 {
		t := tp.timers.items[0] // ready (or the purge) takes it out of the heap
		if t.Zombie {
			s.dropZombieHead(tp)
			continue
		}
		if t.When > s.now {
			break
		}
		ran = true
		if t.Purge != 0 {
			s.firePurgeTimer(m, runner, tp, t)
			continue
		}
		if t.sel != 0 {
			s.fireSelectTimer(m, runner, tp, t)
			continue
		}
		s.ready(m, runner, s.g(t.G), Event{Rule: RuleReadyTimer, P2: tp.ID, D: s.now.Sub(t.When)})
	}
	if tp == runner && tp.timers.tooManyZombies() {
		s.dropZombies(tp)
	}
	return tp.timers.wakeTime(), ran
}

// wakeNetPoller makes sure someone will run a timer due at when: the M
// blocked in netpoll is woken if it would sleep past it; if no M is in
// netpoll, wakep starts one (proc.go wakeNetPoller).
func (s *Machine) wakeNetPoller(when sim.Time) {
	if s.sched.NetpollBlocked != NoM {
		if s.sched.PollUntil == 0 || s.sched.PollUntil > when {
			s.netpollBreak(nil)
		}
		return
	}
	s.wakep()
}
