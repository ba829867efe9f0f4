package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// sysmon (§6): a thread without a P that wakes up periodically, retakes Ps
// from long system calls, asks long-running Gs to stop, and polls the
// network when nobody has.

// SysmonDecisionKind is what sysmon last decided.
type SysmonDecisionKind uint8

const (
	SysmonIdle      SysmonDecisionKind = iota // a pass that did nothing (or no pass yet)
	SysmonSlept                               // the deep sleep: every P idle
	SysmonPolled                              // the pass polled the network and found N ready
	SysmonRetook                              // the pass retook P from a syscall
	SysmonPreempted                           // the pass asked G, running on P, to stop
)

// SysmonDecision is sysmon's last decision: of a pass that did several
// things, the last. Describer.SysmonDid words it.
type SysmonDecision struct {
	Kind SysmonDecisionKind
	P    PID
	G    GID
	N    int
}

const (
	sysmonMinDelay = 20 * time.Microsecond // first sleeps (proc.go sysmon)
	sysmonMaxDelay = 10 * time.Millisecond // back-off cap
	// sysmonIdlePasses is how many idle passes run at the minimum delay
	// before the delay starts doubling.
	sysmonIdlePasses = 50
	// forcePreemptNS: a time slice sysmon has seen for this long is
	// preempted (proc.go).
	forcePreemptNS = 10 * time.Millisecond
	// sysmonPollAge: sysmon polls the network if nobody has for this long.
	sysmonPollAge = 10 * time.Millisecond
	// syscallGrace: a syscall P with an empty ring is left alone for this
	// long while an idle P or spinning M exists (retake).
	syscallGrace = 10 * time.Millisecond
	// deepSleepMax is forcegcperiod/2: the longest deep sleep.
	deepSleepMax = 60 * time.Second
)

// MaxSysmonPrelude bounds Config.SysmonPrelude: past the first 25ms or
// so sysmon's sleep is at its cap, and a longer prelude only moves its
// phase.
const MaxSysmonPrelude = time.Minute

// startSysmon starts sysmon's first sleep as main starts. With
// Config.SysmonPrelude, sysmon has already run that long beside a main
// that computed: every pass of the prelude found a running P and took
// nothing from a syscall, so each counted as idle and, past the first 50,
// doubled the next sleep (proc.go's sysmon loop; retake's preemption of
// the computing main does not reset the back-off). The prelude's sleeps
// are replayed as the run's own are (usleep: the timer slack, and with
// noise the thread's wake-up), and the run starts inside the sleep that
// spans main's start, with the back-off they left. What the prelude did to main's time slice is not carried over:
// sysmon's first look in the run records the slice as new.
func (s *Machine) startSysmon() {
	s.mon.Delay = sysmonMinDelay
	if prelude := s.cfg.SysmonPrelude; prelude > 0 {
		// at is when the current sleep began, before main's start.
		at := -prelude
		for {
			// main runs through the prelude: its start-up, then the
			// calibration's computing.
			next := s.sleepFor(s.mon.Delay, true)
			if at+next > 0 {
				s.mon.gen++
				s.mon.NextPass = s.after(at + next)
				s.agenda.Push(s.mon.NextPass, wake{kind: wakeSysmon, m: s.mon.M, gen: s.mon.gen})
				return
			}
			at += next
			s.mon.Idle++
			if s.mon.Idle > sysmonIdlePasses {
				s.mon.Delay = min(2*s.mon.Delay, sysmonMaxDelay)
			}
		}
	}
	s.sleepSysmon(s.mon.Delay)
}

func (s *Machine) sleepSysmon(d time.Duration) {
	s.mon.gen++
	s.mon.NextPass = s.after(s.usleep(s.mon.M, d))
	s.agenda.Push(s.mon.NextPass, wake{kind: wakeSysmon, m: s.mon.M, gen: s.mon.gen})
}

// sysmon runs when sysmon's sleep ends.
func (s *Machine) sysmon() {
	if s.mon.Deep {
		// The deep sleep ran its course (the next timer is due), or a
		// syscall cut it short.
		s.emit(&Event{Kind: KindSysmon, Rule: RuleSysmonWake, P: NoP, M: s.mon.M, Flag: s.mon.syscallWake})
		s.mon.Deep = false
		s.sched.SysmonWait = false
		s.mon.syscallWake = false
		s.sysmonPass()
		return
	}
	if s.cfg.SchedTrace == 0 && s.sched.Npidle == len(s.ps) {
		next := s.timeSleepUntil()
		if next == 0 || next > s.now {
			sleep := deepSleepMax
			if next != 0 && next.Sub(s.now) < sleep {
				sleep = next.Sub(s.now)
			}
			s.emit(&Event{Kind: KindSysmon, Rule: RuleSysmonSleep, P: NoP, M: s.mon.M, D: sleep, Flag: next != 0})
			s.mon.Deep = true
			s.sched.SysmonWait = true
			s.mon.gen++
			// notetsleep is a futex wait with a timeout, and the kernel
			// lengthens it by its timer slack as it does a usleep.
			s.mon.NextPass = s.after(s.usleep(s.mon.M, sleep))
			s.mon.Did = SysmonDecision{Kind: SysmonSlept}
			s.agenda.Push(s.mon.NextPass, wake{kind: wakeSysmon, m: s.mon.M, gen: s.mon.gen})
			return
		}
	}
	s.sysmonPass()
}

// wakeSysmonFromSyscall ends sysmon's deep sleep early (entersyscall, or
// exitsyscall getting an idle P). It resets sysmon's back-off, betting
// that more syscalls will follow.
func (s *Machine) wakeSysmonFromSyscall() {
	if !s.mon.Deep {
		return
	}
	s.sched.SysmonWait = false
	s.mon.Idle = 0
	s.mon.Delay = sysmonMinDelay
	s.mon.syscallWake = true
	s.mon.gen++
	s.mon.NextPass = s.after(s.cfg.Costs.WakeM) // notewakeup, then the thread runs
	s.agenda.Push(s.mon.NextPass, wake{kind: wakeSysmon, m: s.mon.M, gen: s.mon.gen})
}

// sysmonPass is the body of sysmon's loop after its sleep.
func (s *Machine) sysmonPass() {
	// The pass is under way from its first instant: its time, its count
	// and its decision change together (InPass says the back-off and the
	// next wake are still the last sleep's until it ends).
	s.mon.Passes++
	s.mon.LastPass = s.now
	s.mon.InPass = true
	s.mon.Did = SysmonDecision{}
	// The back-off as for an idle pass; a retake sets it back to the
	// shortest sleep as it decides (retake).
	s.mon.Idle++
	if s.mon.Idle > sysmonIdlePasses {
		s.mon.Delay = min(2*s.mon.Delay, sysmonMaxDelay)
	}
	if s.sched.NetpollInited && s.sched.NetpollBlocked == NoM && s.sched.Lastpoll.Add(sysmonPollAge) < s.now {
		s.sched.Lastpoll = s.now
		if list := s.netpoll(); len(list) > 0 {
			s.mon.Did = SysmonDecision{Kind: SysmonPolled, N: len(list)}
			s.emit(&Event{Kind: KindSysmon, Rule: RuleSysmonNetpoll, P: NoP, M: s.mon.M, N: len(list)})
			s.injectglist(s.m(s.mon.M), nil, list)
		}
	}
	s.retake()
	if s.cfg.SchedTrace > 0 && (!s.mon.traced || s.mon.lastTrace.Add(s.cfg.SchedTrace) <= s.now) {
		if !s.mon.traced {
			s.mon.traced = true
			s.mon.traceStart = s.now
		}
		s.mon.lastTrace = s.now
		if s.trace != nil {
			s.trace(s.SchedTrace(s.cfg.SchedDetail))
		}
	}
	s.mon.InPass = false
	s.sleepSysmon(s.mon.Delay)
}

// RetakeCause says why retake took a P from a syscall (the proc-steal
// event's "retakeCause", Event.RetakeCause).
type RetakeCause int

const (
	RetakeGraceOver  RetakeCause = iota + 1 // the 10ms grace for an empty ring ran out
	RetakeQueued                            // Gs wait in the P's own queue
	RetakeNoHelper                          // no idle P and no spinning M could take new work
	RetakeStaleSlice                        // first seen in a slice already 10ms old (sysretake): the grace counted from an earlier syscall
)

// retake preempts Gs whose time slice sysmon has seen for 10ms and takes
// Ps from threads in long system calls (R5.7, R6.6). Only taking a P
// resets sysmon's back-off, not a preemption.
func (s *Machine) retake() {
	sysmonM := s.m(s.mon.M)
	for i := range s.ps {
		pp := &s.ps[i]
		if pp.Status != Prunning {
			continue
		}
		pd := &pp.Sysmontick
		sysretake := false
		if pd.Schedtick != pp.Schedtick {
			pd.Schedtick = pp.Schedtick
			pd.Schedwhen = s.now
		} else if pd.Schedwhen.Add(forcePreemptNS) <= s.now {
			if !s.cfg.Policy.NoPreempt {
				s.preemptone(pp)
			}
			sysretake = true
		}
		vm, ok := s.syscallingThread(pp)
		if !ok {
			continue
		}
		if !sysretake && pd.Syscalltick != pp.Syscalltick {
			// First sighting of this syscall: remember it, leave it.
			pd.Syscalltick = pp.Syscalltick
			pd.Syscallwhen = s.now
			continue
		}
		queued := pp.runq.len() > 0 || pp.Runnext != NoG
		helpers := s.sched.Nmspinning + s.sched.Npidle
		if !queued && helpers > 0 && pd.Syscallwhen.Add(syscallGrace) > s.now {
			// Nothing queued here and someone else can take new work:
			// give the syscall its grace period.
			continue
		}
		cause := RetakeGraceOver
		switch {
		case queued:
			cause = RetakeQueued
		case helpers == 0:
			cause = RetakeNoHelper
		case pd.Syscalltick != pp.Syscalltick:
			// sysretake skipped recording this syscall, so the grace
			// was measured from an earlier one.
			cause = RetakeStaleSlice
		}
		s.takeP(pp, vm, sysmonM, Event{Rule: RuleRetake, D: s.now.Sub(pd.Syscallwhen), N2: int(cause),
			Flag: pp.Syscalltick == 0})
		// A retake resets the back-off: with the decision, so the two
		// show together.
		s.mon.Did = SysmonDecision{Kind: SysmonRetook, P: pp.ID}
		s.mon.Idle = 0
		s.mon.Delay = sysmonMinDelay
		s.handoffp(pp)
	}
}

// preemptone asks the G running on pp to stop (R7.1): it sets gp.preempt
// and sends the thread a signal. A G in a syscall, or an M between Gs,
// is left alone.
func (s *Machine) preemptone(pp *P) bool {
	if pp.M == NoM {
		return false
	}
	m := s.m(pp.M)
	if m.CurG == NoG {
		return false
	}
	g := s.g(m.CurG)
	if g.Status != Grunning {
		return false
	}
	// Under the cooperative policy there is no signal (Go 1.2 to 1.13):
	// the request waits for the G's next function call.
	noSignal := s.cfg.Policy.Cooperative
	var spin *Op // the loop, for a G that spins in one that calls nothing
	if s.spinning(g) {
		spin = s.OpOf(g)
	}
	s.emit(&Event{Kind: KindSysmon, Rule: RuleSysmonPreempt, G: g.ID, P: pp.ID, M: s.mon.M, M2: m.ID,
		D: s.now.Sub(pp.Sysmontick.Schedwhen), N: int(pp.Schedtick), Op: spin, Flag: noSignal})
	g.Preempt = true
	s.mon.Did = SysmonDecision{Kind: SysmonPreempted, G: g.ID, P: pp.ID}
	if !noSignal {
		s.agenda.Push(s.after(s.late(s.cfg.Costs.PreemptSignal, 2*s.cfg.Costs.PreemptSignal)), wake{kind: wakeSignal, m: m.ID, g: g.ID, gen: g.runGen})
	}
	return true
}

// preemptSignal delivers SIGURG to m. If the G it was meant for is still
// running user code with the request pending, it stops here (the
// asynchronous path, R7.3). Otherwise the request stays armed for the next
// safe point, or is dropped if the G parks first.
func (s *Machine) preemptSignal(mid MID, gid GID, runGen uint32) {
	m := s.m(mid)
	if m.CurG != gid || m.State != MRunning {
		return
	}
	g := s.g(gid)
	if g.runGen != runGen || !g.Preempt || !g.inCPU {
		return
	}
	if s.spinning(g) {
		// A loop that calls nothing has no end to resume towards: the
		// G starts the loop afresh when it runs again.
		g.CPULeft = 0
	} else {
		g.CPULeft = g.cpuEnd.Sub(s.now)
	}
	g.inCPU = false
	s.goschedImpl(m, g, RulePreemptAsync)
}

// goschedImpl stops g and puts it at the tail of the global queue, for a
// preemption as for runtime.Gosched (R7.4), then wakes an M if one is
// needed and schedules.
func (s *Machine) goschedImpl(m *M, g *G, rule Rule) {
	reason := ReasonPreempted
	if rule == RuleGosched {
		reason = ReasonGosched
	}
	pp := s.p(m.P)
	s.emit(&Event{Kind: KindGoStop, Rule: rule, G: g.ID, P: pp.ID, M: m.ID, From: at(LocRunning, pp.ID),
		To: Loc{Kind: LocGlobal}, Reason: reason, D: s.now.Sub(g.RunStart), D2: s.now.Sub(pp.SliceStart),
		N: s.sched.runq.len() + 1, Op: s.OpOf(g)})
	g.Status = Grunnable
	g.Runnable = s.now
	g.M = NoM
	g.inCPU = false
	s.dropg(m)
	s.globrunqput(g.ID)
	s.wakep()
	s.enterSchedulerAfter(m, s.cfg.Costs.ScheduleYield)
}

// timeSleepUntil is the earliest timer of any P, or 0.
func (s *Machine) timeSleepUntil() sim.Time {
	var next sim.Time
	for i := range s.ps {
		if w := s.ps[i].timers.wakeTime(); w != 0 && (next == 0 || w < next) {
			next = w
		}
	}
	return next
}
