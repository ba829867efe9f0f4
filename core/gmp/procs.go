package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Ps and Ms: the idle lists, acquirep/releasep, spinning, wakep, startm,
// stopm and handoffp (§4).

// pidleput pushes pp on the head of the idle P list. Its queue is empty.
func (s *Machine) pidleput(pp *P) {
	pp.Status = Pidle
	pp.Idle = true
	s.sched.Pidle = append(s.sched.Pidle, pp.ID)
	s.sched.Npidle++
}

// pidleget pops the head of the idle P list (LIFO), or returns nil.
func (s *Machine) pidleget() *P {
	n := len(s.sched.Pidle)
	if n == 0 {
		return nil
	}
	pp := s.p(s.sched.Pidle[n-1])
	s.sched.Pidle = s.sched.Pidle[:n-1]
	s.sched.Npidle--
	pp.Idle = false
	return pp
}

// idleForSpinning is pidlegetSpinning for an M that found work: the idle
// P it would get, or nil, in which case needspinning is set so that an M
// about to drop its P spins instead (R4.6). acquirep takes the P off the
// idle list, after its event.
func (s *Machine) idleForSpinning() *P {
	pp := s.idleHead()
	if pp == nil {
		s.sched.Needspinning = true
	}
	return pp
}

// mput parks m on the head of the idle M list.
func (s *Machine) mput(m *M) {
	m.State = MIdle
	m.parked = s.now
	s.sched.Midle = append(s.sched.Midle, m.ID)
	s.sched.Nmidle++
}

// mget pops the head of the idle M list (LIFO), or returns nil.
func (s *Machine) mget() *M {
	n := len(s.sched.Midle)
	if n == 0 {
		return nil
	}
	m := s.m(s.sched.Midle[n-1])
	s.sched.Midle = s.sched.Midle[:n-1]
	s.sched.Nmidle--
	return m
}

// acquirep attaches pp to m (proc-start). An idle pp must be the head of
// the idle list (pidleget); acquirep takes it off after the event.
func (s *Machine) acquirep(m *M, pp *P, rule Rule) {
	s.emit(&Event{Kind: KindProcStart, Rule: rule, P: pp.ID, M: m.ID, Flag: m.Spinning})
	if pp.Idle {
		s.pidleget()
	}
	s.acquirepSilently(m, pp)
}

func (s *Machine) acquirepSilently(m *M, pp *P) {
	m.P = pp.ID
	pp.M = m.ID
	pp.Status = Prunning
}

// dropg is an M letting go of its G (dropg): from here it runs the
// scheduler's code.
func (s *Machine) dropg(m *M) {
	m.CurG = NoG
	m.g = nil
	m.State = MScheduler
}

// releasep detaches m's P (proc-stop). ev carries the rule.
func (s *Machine) releasep(m *M, ev Event) *P {
	pp := s.p(m.P)
	ev.Kind = KindProcStop
	ev.P = pp.ID
	ev.M = m.ID
	s.emit(&ev)
	pp.M = NoM
	pp.Status = Pidle
	m.P = NoP
	return pp
}

// becomeSpinning marks m as looking for work (R4.1).
func (s *Machine) becomeSpinning(m *M) {
	m.Spinning = true
	s.sched.Nmspinning++
	s.sched.Needspinning = false
}

// resetspinning is called when a spinning M found work: it stops spinning
// and calls wakep, so another M takes over the search. This chain is how
// parallelism ramps up (R4.2).
func (s *Machine) resetspinning(m *M) {
	m.Spinning = false
	s.sched.Nmspinning--
	s.wakep()
}

// wakep starts one spinning M on an idle P, but only if no M is spinning
// already (R2.7).
func (s *Machine) wakep() {
	if s.sched.Nmspinning != 0 {
		return
	}
	// The runtime counts the spinner (CAS 0→1) and then takes an idle P
	// with pidlegetSpinning, undoing the count if there is none. Both
	// happen in startm here, after its event.
	if pp := s.idleForSpinning(); pp != nil {
		s.startm(pp, true, RuleWakep)
	}
}

// idleHead is the P pidleget would return, left on the list.
func (s *Machine) idleHead() *P {
	if n := len(s.sched.Pidle); n > 0 {
		return s.p(s.sched.Pidle[n-1])
	}
	return nil
}

// startm gives pp to an idle M, or to a new thread when none is idle
// (R4.3); pp is either the head of the idle list, which startm takes, or
// a P just taken from its M (handoffp). A spinning M is counted in
// nmspinning from here. rule says who asked, for the event. The M starts
// running after the wake-up or thread-creation latency.
func (s *Machine) startm(pp *P, spinning bool, rule Rule) {
	created := len(s.sched.Midle) == 0
	id := MID(len(s.ms)) // the id newm will give
	var parked, late, quick time.Duration
	preempts := NoM // the waker whose CPU the woken thread takes
	if !created {
		id = s.sched.Midle[len(s.sched.Midle)-1]
		at := s.m(id).parked
		parked = s.now.D() - at.D()
		if s.acting != NoM {
			late = s.idleWakeLate(at)
		}
		var ok bool
		if quick, ok = s.wakePreempts(late); ok {
			preempts = s.acting
		}
	}
	s.emit(&Event{Kind: KindMStart, Rule: rule, P: pp.ID, M: id, M2: preempts, Flag: created, N: boolInt(spinning),
		N2: s.sched.Nmspinning + boolInt(spinning), D: late, D2: parked})
	if pp.Idle {
		s.pidleget()
	}
	if spinning {
		s.sched.Nmspinning++
	}
	if s.held == pp.ID {
		s.held = NoP
	}
	var nmp *M
	// A thread's wake-up or start begun before the run (Config.TracerLead,
	// s.wakeLead) is that much along already.
	if created {
		nmp = s.newM(MStarting)
		s.wakeMAt(nmp, s.after(max(s.late(s.cfg.Costs.NewM, s.cfg.Costs.NewM)-s.wakeLead, 0)), stepStart)
	} else {
		nmp = s.mget()
		nmp.State = MStarting
		if s.acting != NoM {
			s.wakeCalls += s.cfg.Costs.WakeCall
		}
		var start sim.Time
		if preempts != NoM {
			start = s.after(max(quick-s.wakeLead, 0))
		} else {
			start = s.after(max(s.late(s.cfg.Costs.WakeM, 4*s.cfg.Costs.WakeM)-s.wakeLead, 0))
		}
		if late > 0 {
			nmp.late, nmp.lateBehind, nmp.lateFrom = true, s.acting, start
			s.lateMs++
		}
		s.wakeMAt(nmp, start.Add(late), stepStart)
	}
	nmp.Spinning = spinning
	nmp.NextP = pp.ID
	nmp.takesCPUOf = preempts
}

// leaveAfterWakeCalls defers what a goroutine does next to a step of its
// own, next, when this step readied a goroutine and that woke a parked M
// for an idle P (wakep): the goroutine's thread makes the futex call
// (Costs.WakeCall) in the ready, before it yields (a mutex handoff),
// ends (a Done, then exit) or parks (a pool worker after its task), so
// those wait for it (payWakeCalls). Charged after them instead, the call
// would be idle P time between two goroutines, where a trace shows it as
// the waker's running time. It reports whether it deferred.
func (s *Machine) leaveAfterWakeCalls(m *M, next mStep) bool {
	if s.wakeCalls == 0 {
		return false
	}
	s.wakeMAt(m, s.now, next)
	return true
}

// payWakeCalls makes m, whose step just ran, go on later by what its
// wake-ups of parked Ms cost it (Costs.WakeCall): notewakeup's futex call
// is made by the waker's thread, between the ready that asked for an M and
// whatever the thread does next. A step that left m with nothing to do
// next (parked) pays nothing: nothing of the program waits on it.
func (s *Machine) payWakeCalls(m *M) {
	d := s.wakeCalls
	if d == 0 {
		return
	}
	s.wakeCalls = 0
	if m.next != stepNone {
		s.wakeMAt(m, m.wakeAt.Add(d), m.next)
	}
}

// mstart runs when a started M gets the CPU: it takes the P startm gave it
// and looks for work.
func (s *Machine) mstart(m *M) {
	pp := s.p(m.NextP)
	m.NextP = NoP
	m.State = MScheduler
	if m.late {
		m.late = false
		s.lateMs--
	}
	m.fr = findState{}
	if m.takesCPUOf != NoM {
		// A waker that slept since has left the CPU.
		if w := s.m(m.takesCPUOf); !w.State.asleep() {
			s.share(m, w)
		}
		m.takesCPUOf = NoM
	}
	s.acquirep(m, pp, RuleAcquirep)
	s.schedule(m)
}

// stopm parks m on the idle M list until startm wakes it (R4.4).
func (s *Machine) stopm(m *M) {
	s.emit(&Event{Kind: KindMPark, Rule: RuleStopm, P: NoP, M: m.ID, N: s.sched.Nmidle + 1})
	m.fr = findState{}
	s.mput(m)
	s.threadSleeps(m)
}

// threadSleeps is m's thread leaving its CPU to sleep in the kernel (it
// parks, or blocks in netpoll): a thread woken late behind it gets that
// CPU (idlewake.go), and a thread that shared it shares it no more
// (wakepreempt.go).
func (s *Machine) threadSleeps(m *M) {
	s.idleWakeFreed(m)
	s.unshare(m)
}

// handoffp finds an M for a P whose M will not run Go code for a while
// (syscall retake, entersyscallblock), or puts the P on the idle list
// (R4.5).
func (s *Machine) handoffp(pp *P) {
	switch {
	case pp.runq.len() > 0 || pp.Runnext != NoG || s.sched.runq.len() > 0:
		s.startm(pp, false, RuleHandoffWork)
		return
	case s.sched.Nmspinning+s.sched.Npidle == 0:
		// Nobody else is looking for work: this P's M should.
		s.startm(pp, true, RuleHandoffSpin)
		s.sched.Needspinning = false
		return
	case s.sched.Npidle == len(s.ps)-1 && s.sched.NetpollBlocked == NoM:
		// The last running P, and nobody polls the network.
		s.startm(pp, false, RuleHandoffPoll)
		return
	}
	when := pp.timers.wakeTime()
	s.emit(&Event{Kind: KindProcStop, Rule: RuleHandoffIdle, P: pp.ID, M: NoM})
	s.held = NoP
	s.pidleput(pp)
	if when != 0 {
		s.wakeNetPoller(when)
	}
}
