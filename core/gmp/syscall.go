package gmp

import "time"

// System calls as Go 1.26 makes them (§5): the P stays attached to the M
// while its G is in the call. Only sysmon's retake, or another goroutine
// returning from a syscall, takes it away.

// entersyscall starts a system call of duration d. With block set it is
// entersyscallblock, used for calls known to block, which hands the P off
// at once (R5.6); otherwise reentersyscall (R5.1).
func (s *Machine) entersyscall(m *M, g *G, d time.Duration, block bool) {
	pp := s.p(m.P)
	m.Syscalltick = pp.Syscalltick
	rule := RuleEntersyscall
	policy := !block && s.cfg.Policy.SyscallHandoff
	block = block || policy
	if block {
		rule = RuleEntersyscallblock
		pp.Syscalltick++
		m.OldP = NoP
	} else {
		m.OldP = pp.ID
	}
	s.emit(&Event{Kind: KindSyscallEnter, Rule: rule, G: g.ID, P: pp.ID, M: m.ID,
		From: at(LocRunning, pp.ID), To: Loc{Kind: LocSyscall}, D: d, Op: s.OpOf(g), Flag: policy})
	g.Status = Gsyscall
	g.Where = Loc{Kind: LocSyscall}
	g.inCPU = false
	m.State = MSyscall
	if block {
		s.releasep(m, Event{Rule: RuleEntersyscallblock, G: g.ID})
		s.held = pp.ID
		s.handoffp(pp)
	} else if s.sched.SysmonWait {
		s.wakeSysmonFromSyscall()
	}
	s.wakeMAt(m, s.after(d+s.cfg.Costs.Syscall), stepSyscallDone)
}

// exitsyscall returns g from its system call (R5.3-R5.5).
func (s *Machine) exitsyscall(m *M) {
	g := s.g(m.CurG)
	oldp := m.OldP
	m.OldP = NoP
	if m.P != NoP {
		// Fast path: nobody took the P. No new time slice.
		s.resumeAfterSyscall(m, g, RuleExitsyscallFast, NoM)
		return
	}
	if pp, from := s.exitsyscallTryGetP(m, oldp); pp != nil {
		rule := RuleExitsyscallIdleP
		if from != NoM {
			rule = RuleExitsyscallOldP
		}
		s.acquirep(m, pp, RuleAcquirep)
		s.held = NoP
		s.resumeAfterSyscall(m, g, rule, from)
		return
	}
	// exitsyscallNoP: no P anywhere. The G waits in the global queue and
	// the thread parks; nothing wakes another M for it.
	s.emit(&Event{Kind: KindSyscallExit, Rule: RuleExitsyscallNoP, G: g.ID, P: NoP, M: m.ID,
		From: Loc{Kind: LocSyscall}, To: Loc{Kind: LocGlobal}, Op: s.OpOf(g)})
	g.Status = Grunnable
	g.Runnable = s.now
	g.M = NoM
	s.dropg(m)
	s.globrunqput(g.ID)
	s.stopm(m)
}

func (s *Machine) resumeAfterSyscall(m *M, g *G, rule Rule, from MID) {
	s.emit(&Event{Kind: KindSyscallExit, Rule: rule, G: g.ID, P: m.P, M: m.ID, M2: from,
		From: Loc{Kind: LocSyscall}, To: at(LocRunning, m.P), Op: s.OpOf(g), Flag: g.Preempt})
	s.p(m.P).Syscalltick++
	g.Status = Grunning
	g.Where = at(LocRunning, m.P)
	m.State = MRunning
	s.runG(m)
}

// exitsyscallTryGetP takes back the old P from another thread that is in a
// syscall with it, or else any idle P. from is the thread the old P was
// taken from, or NoM.
func (s *Machine) exitsyscallTryGetP(m *M, oldp PID) (*P, MID) {
	if oldp != NoP {
		op := s.p(oldp)
		if vm, ok := s.syscallingThread(op); ok {
			s.takeP(op, vm, m, Event{Rule: RuleTakeBackOldP})
			return op, vm.ID
		}
	}
	if pp := s.idleHead(); pp != nil { // pidleget; acquirep takes it
		if s.sched.SysmonWait {
			s.wakeSysmonFromSyscall()
		}
		return pp, NoM
	}
	return nil, NoM
}

// syscallingThread reports the M attached to pp if its G is in a system
// call (setBlockOnExitSyscall).
func (s *Machine) syscallingThread(pp *P) (*M, bool) {
	if pp.Status != Prunning || pp.M == NoM {
		return nil, false
	}
	vm := s.m(pp.M)
	if vm.CurG == NoG || s.g(vm.CurG).Status != Gsyscall {
		return nil, false
	}
	return vm, true
}

// takeP detaches pp from vm, whose G is in a syscall (proc-steal). by is
// the M that takes it, or sysmon's; ev carries the rule and its details.
func (s *Machine) takeP(pp *P, vm, by *M, ev Event) {
	ev.Kind = KindProcSteal
	ev.G = vm.CurG
	ev.P = pp.ID
	ev.M = by.ID
	ev.M2 = vm.ID
	s.emit(&ev)
	s.held = pp.ID // until handoffp, or the taker, places it
	pp.M = NoM
	pp.Status = Pidle
	vm.P = NoP
	pp.Syscalltick++
}
