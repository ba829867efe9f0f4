package gmp

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// schedule() and findRunnable() (§3). findRunnable is a sequence of checks
// that return as soon as one finds a G. Three points in it make the thread
// wait: the usleep(3) before stealing a runnext, blocking in netpoll, and
// stopm. There the M's findState remembers where to carry on.

// pick is what findRunnable found: the G, whether it inherits the current
// time slice, and how it was found.
type pick struct {
	g       GID
	inherit bool
	rule    Rule
	from    Loc
	n       int // Gs taken in the same batch
	victim  PID // for stolen Gs
}

type findPhase uint8

const (
	phaseTop     findPhase = iota // start at the top of findRunnable
	phaseSteal                    // inside stealWork
	phaseBackoff                  // inside runqgrab's usleep(3)
	phaseNetpoll                  // blocked in netpoll
)

// findState is findRunnable's local state that must survive the M waiting.
type findState struct {
	phase       findPhase
	pollUntil   sim.Time
	wasSpinning bool
	// stealWork's loop
	pass      int
	enum      randomEnum
	started   bool
	ranTimer  bool
	stealPoll sim.Time
	// runqgrab waiting out its back-off before taking victim's runnext,
	// and how long the wait was drawn to last (the steal's event says it)
	victim  PID
	next    GID
	backoff time.Duration
}

type findResult uint8

const (
	found     findResult = iota // a G to run
	suspended                   // the M waits; its wake will resume
	again                       // goto top
)

// schedule finds a G and runs it on m (R3.1).
func (s *Machine) schedule(m *M) {
	for range 1000 {
		pk, res := s.findRunnable(m)
		switch res {
		case found:
			m.Picked = pk.g
			g := s.g(pk.g)
			g.Where = Loc{Kind: LocPicked, ID: int32(m.ID)}
			if m.Spinning {
				s.resetspinning(m)
			}
			s.execute(m, pk, g)
			return
		case suspended:
			return
		}
	}
	s.fail(Invariant, fmt.Errorf("%v: findRunnable went back to its top 1000 times at %v", m.ID, s.now))
}

// execute runs pk's G, g, on m (R3.2). It clears any pending preemption
// request, and only a G that does not inherit the slice advances schedtick.
func (s *Machine) execute(m *M, pk pick, g *G) {
	pp := s.p(m.P)
	tick := pp.Schedtick
	if !pk.inherit {
		tick++
	}
	if !s.counted() {
		s.emit(&Event{Kind: KindGoStart, Rule: pk.rule, G: g.ID, P: pp.ID, M: m.ID, From: pk.from,
			To: at(LocRunning, pp.ID), N: int(tick), N2: pk.n, P2: pk.victim,
			D: s.now.Sub(g.Runnable), Op: s.OpOf(g)})
	}
	// A request still set here was either honoured (the G was preempted
	// or yielded) or lost when the G parked, which go-block reported.
	g.Preempt = false
	m.Picked = NoG
	g.Status = Grunning
	g.Where = at(LocRunning, pp.ID)
	g.M = m.ID
	g.runGen++
	g.RunStart = s.now
	m.CurG = g.ID
	m.g = g
	m.State = MRunning
	if !pk.inherit {
		pp.Schedtick++
		pp.SliceStart = s.now
	}
	s.wakeMAt(m, s.after(s.cfg.Costs.Execute), stepRunG)
	if pk.rule == RuleStolenRun {
		s.takeTurn(m, s.p(pk.victim))
	}
}

// findRunnable follows R3.3. GC workers, the finalizer and safe-point
// functions are not modelled (doc.go); the trace reader is, with
// Config.Tracer.
func (s *Machine) findRunnable(m *M) (pick, findResult) {
	switch m.fr.phase {
	case phaseSteal, phaseBackoff:
		return s.findSteal(m)
	case phaseNetpoll:
		m.fr.phase = phaseTop
		return s.findAfterNetpoll(m)
	}
	pp := s.p(m.P)
	// Step 2: this P's expired timers; they ready Gs into its runnext.
	pollUntil, _ := s.runTimers(pp, pp, m)
	// Step 3: a full trace buffer, when the run is traced (tracer.go).
	if s.tr.on {
		if pk, ok := s.traceReader(m); ok {
			return pk, found
		}
	}

	// Step 5: every 61st fresh slice, one G from the global queue first.
	if due, period := s.fairnessDue(pp); due && s.sched.runq.len() > 0 {
		g := s.sched.runq.pop()
		pk := pick{g: g, rule: RuleGlobalFairness, from: Loc{Kind: LocGlobal}}
		if period != fairnessPeriod {
			pk.n = period // the describer names a period other than 61
		}
		return pk, found
	}
	// Step 7: the local queue, runnext first.
	if pk, ok := s.runqget(pp); ok {
		return pk, found
	}
	// Step 8: a batch from the global queue (one G under global-fifo,
	// which keeps no per-P queues).
	if s.sched.runq.len() > 0 && s.cfg.Policy.GlobalFIFO {
		return pick{g: s.sched.runq.pop(), rule: RuleGlobalBatch, from: Loc{Kind: LocGlobal}, n: 1}, found
	}
	if s.sched.runq.len() > 0 {
		return s.globrunqgetbatch(pp, RuleGlobalBatch), found
	}
	// Step 9: a non-blocking poll, unless nobody waits or an M is
	// already blocked in netpoll.
	if s.sched.NetpollInited && s.sched.NetpollWaiters > 0 && s.sched.NetpollBlocked == NoM {
		if list := s.netpoll(); len(list) > 0 {
			return s.runFromNetpoll(m, pp, list), found
		}
	}
	m.fr.pollUntil = pollUntil
	// Step 10: steal, if this M spins already or fewer than half the busy
	// Ps have a spinning M.
	if m.Spinning || 2*s.sched.Nmspinning < len(s.ps)-s.sched.Npidle {
		if !m.Spinning {
			s.becomeSpinning(m)
		}
		m.fr.phase = phaseSteal
		m.fr.pass = 0
		m.fr.started = false
		m.fr.ranTimer = false
		m.fr.stealPoll = 0
		return s.findSteal(m)
	}
	return s.findIdle(m)
}

func (s *Machine) findSteal(m *M) (pick, findResult) {
	pk, res := s.stealWork(m)
	switch res {
	case stealFound:
		m.fr.phase = phaseTop
		return pk, found
	case stealWaiting:
		return pick{}, suspended
	}
	m.fr.phase = phaseTop
	if m.fr.ranTimer {
		// Timers ran and may have readied Gs: look again.
		return pick{}, again
	}
	if w := m.fr.stealPoll; w != 0 && (m.fr.pollUntil == 0 || w < m.fr.pollUntil) {
		m.fr.pollUntil = w
	}
	return s.findIdle(m)
}

// findIdle is the end of findRunnable (R3.3 steps 13-16): last looks at
// the global queue, give the P back, and if this M was spinning, check
// everything again before blocking in netpoll or parking.
func (s *Machine) findIdle(m *M) (pick, findResult) {
	pp := s.p(m.P)
	if s.sched.runq.len() > 0 {
		return s.globrunqgetbatch(pp, RuleGlobalBatch), found
	}
	if !m.Spinning && s.sched.Needspinning {
		// The delicate dance (R4.6): someone found work but no idle P.
		s.becomeSpinning(m)
		return pick{}, again
	}
	wasSpinning := m.Spinning
	s.releasep(m, Event{Rule: RuleReleasepIdle, Flag: wasSpinning})
	s.pidleput(pp)
	pollUntil := m.fr.pollUntil
	if wasSpinning {
		m.Spinning = false
		s.sched.Nmspinning--
		// Step 14 of the runtime looks at the global queue again first:
		// another M may have put work there since step 13 let go of
		// sched.lock. Here findIdle runs at one instant and step 13 just
		// found the queue empty, so that look could never find anything
		// (no program makes it fire: TestEventsSetOnlyTheirRulesFields).
		// The look at other Ps' queues is for stealing from them, which
		// the no-steal policy forbids.
		if p2 := s.checkRunqsNoP(); p2 != nil && !s.cfg.Policy.NoSteal {
			s.acquirep(m, p2, RuleAcquirep)
			s.becomeSpinning(m)
			return pick{}, again
		}
		pollUntil = s.checkTimersNoP(pollUntil)
	}
	// Step 15: block in netpoll until the next timer, if nobody else does.
	if s.sched.NetpollInited && (s.sched.NetpollWaiters > 0 || pollUntil != 0) && s.sched.NetpollBlocked == NoM {
		ev := Event{Kind: KindNetpoll, Rule: RuleNetpollBlock, P: NoP, M: m.ID, N: s.sched.NetpollWaiters}
		if pollUntil != 0 {
			ev.D = max(pollUntil.Sub(s.now), 0)
			ev.Flag = true
			if g, on, ok := s.zombieAt(pollUntil); ok {
				ev.G2, ev.P2 = g, on
			}
		}
		s.emit(&ev)
		s.sched.NetpollBlocked = m.ID
		s.sched.PollUntil = pollUntil
		m.State = MNetpoll
		s.threadSleeps(m)
		m.fr.phase = phaseNetpoll
		m.fr.wasSpinning = wasSpinning
		switch {
		case len(s.net.ready) > 0:
			s.wakeMAt(m, s.now, stepNetpollDone)
		case pollUntil != 0:
			s.wakeMAt(m, s.after(s.epollTimeout(m.ID, pollUntil.Sub(s.now))), stepNetpollDone)
		default:
			m.gen++ // no wake until an fd is ready
		}
		return pick{}, suspended
	} else if pollUntil != 0 && s.sched.NetpollInited {
		if s.sched.PollUntil == 0 || s.sched.PollUntil > pollUntil {
			s.netpollBreak(m)
		}
	}
	s.stopm(m)
	return pick{}, suspended
}

// epollTimeout is how long a blocking netpoll for delay really sleeps:
// netpoll passes epoll_pwait whole milliseconds (at least 1, truncated
// otherwise, netpoll_epoll.go), and the kernel adds its timer slack. A
// truncated wait wakes early and findRunnable simply polls again.
func (s *Machine) epollTimeout(m MID, delay time.Duration) time.Duration {
	if delay <= 0 {
		return 0
	}
	waitms := max(delay/time.Millisecond, 1)
	return s.usleep(m, waitms*time.Millisecond)
}

// findAfterNetpoll continues findRunnable when blocking netpoll returns.
func (s *Machine) findAfterNetpoll(m *M) (pick, findResult) {
	list := s.netpoll()
	s.emit(&Event{Kind: KindNetpoll, Rule: RuleNetpollReturn, P: NoP, M: m.ID, N: len(list)})
	s.sched.PollUntil = 0
	s.sched.Lastpoll = s.now
	s.sched.NetpollBlocked = NoM
	m.State = MScheduler
	pp := s.idleHead()
	if pp == nil {
		s.injectglist(m, nil, list)
		s.stopm(m)
		return pick{}, suspended
	}
	s.acquirep(m, pp, RuleAcquirep)
	if len(list) > 0 {
		return s.runFromNetpoll(m, pp, list), found
	}
	if m.fr.wasSpinning {
		s.becomeSpinning(m)
	}
	return pick{}, again
}

// runFromNetpoll runs the first G a poll returned and injects the rest
// (R9.3).
func (s *Machine) runFromNetpoll(m *M, pp *P, list []GID) pick {
	first := list[0]
	s.injectglist(m, pp, list[1:])
	g := s.g(first)
	s.emit(&Event{Kind: KindGoUnblock, Rule: RuleNetpollRun, G: first, P: pp.ID, M: m.ID,
		From: g.Where, To: at(LocRunning, pp.ID), Op: s.OpOf(g)})
	s.netDetach(first)
	g.Status = Grunnable
	g.Runnable = s.now
	return pick{g: first, rule: RuleNetpollRun, from: Loc{Kind: LocNetpoll}}
}

// checkRunqsNoP looks for a busy P with queued Gs after this M dropped its
// P; if there is one and an idle P, it returns the idle P (R3.3 step 14).
func (s *Machine) checkRunqsNoP() *P {
	// Only the Ps in the work set's queued bits have a queued G
	// (workset.go): looking at those alone finds the same, without
	// reading every P.
	for j, word := range s.work.queuedBits {
		for ; word != 0; word &= word - 1 {
			if i := j<<6 + bits.TrailingZeros64(word); i < len(s.ps) && !s.ps[i].Idle {
				return s.idleForSpinning()
			}
		}
	}
	return nil
}

// checkTimersNoP lowers pollUntil to the earliest timer of any P.
func (s *Machine) checkTimersNoP(pollUntil sim.Time) sim.Time {
	for i := range s.ps {
		if w := s.ps[i].timers.wakeTime(); w != 0 && (pollUntil == 0 || w < pollUntil) {
			pollUntil = w
		}
	}
	return pollUntil
}
