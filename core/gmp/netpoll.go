package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// The network poller (§9). A G that reads from the network parks; its fd
// becomes ready at a set time, but the G only becomes runnable when some M
// polls: findRunnable (non-blocking, or blocking by at most one M), or
// sysmon when nobody has polled for 10ms.

// NetWait is a goroutine parked on the network.
type NetWait struct {
	G       GID
	ReadyAt sim.Time
	Ready   bool // the fd is ready; the G waits for a poll
}

type netpoller struct {
	waiting []NetWait // in the order the Gs parked
	ready   []GID     // fds ready and not yet polled, in the order they became ready
}

func (n *netpoller) clone() netpoller {
	return netpoller{
		waiting: append([]NetWait(nil), n.waiting...),
		ready:   append([]GID(nil), n.ready...),
	}
}

// netpollblock parks g until its read is ready, after d.
func (s *Machine) netpollblock(m *M, g *G, d time.Duration) {
	s.gopark(m, g, ReasonNetwork, Loc{Kind: LocNetpoll}, d, 0)
	s.sched.NetpollInited = true
	s.sched.NetpollWaiters++
	s.net.waiting = append(s.net.waiting, NetWait{G: g.ID, ReadyAt: s.after(d)})
	s.agenda.Push(s.after(d), wake{kind: wakeNetReady, g: g.ID})
	s.enterScheduler(m)
}

// netReady is the fd of gid becoming ready. An M blocked in epoll_wait
// returns; otherwise the G waits for the next poll.
func (s *Machine) netReady(gid GID) {
	blocked := s.sched.NetpollBlocked
	s.emit(&Event{Kind: KindNetpoll, Rule: RuleNetReady, G: gid, P: NoP, M: blocked, Op: s.OpOf(s.g(gid))})
	for i := range s.net.waiting {
		if s.net.waiting[i].G == gid {
			s.net.waiting[i].Ready = true
		}
	}
	s.net.ready = append(s.net.ready, gid)
	if blocked != NoM {
		s.wakePoller(s.m(blocked))
	}
}

// wakePoller makes the M blocked in netpoll return after the wake latency,
// unless it returns earlier anyway.
func (s *Machine) wakePoller(m *M) {
	at := s.after(s.late(s.cfg.Costs.NetpollWake, s.cfg.Costs.NetpollJitter))
	if m.next == stepNetpollDone && m.wakeAt <= at {
		return
	}
	s.wakeMAt(m, at, stepNetpollDone)
}

// netpollBreak interrupts the M blocked in netpoll (by is the M asking,
// or nil for a timer change).
func (s *Machine) netpollBreak(by *M) {
	blocked := s.sched.NetpollBlocked
	if blocked == NoM {
		return
	}
	ev := Event{Kind: KindNetpoll, Rule: RuleNetpollBreak, P: NoP, M: blocked, M2: NoM}
	if by != nil {
		ev.M2 = by.ID
	}
	s.emit(&ev)
	s.wakePoller(s.m(blocked))
}

// netpoll returns the Gs whose fds are ready. Like the runtime's netpoll,
// it builds a list by pushing each at the head, so they come out in the
// reverse of the order they became ready. Each G leaves the poller when
// it is made runnable (netDetach), after its event.
func (s *Machine) netpoll() []GID {
	if len(s.net.ready) == 0 {
		return nil
	}
	list := make([]GID, len(s.net.ready))
	for i, g := range s.net.ready {
		list[len(list)-1-i] = g
	}
	return list
}

// netDetach takes g out of the poller (netpollAdjustWaiters).
func (s *Machine) netDetach(g GID) {
	s.net.ready = without(s.net.ready, g)
	for i, w := range s.net.waiting {
		if w.G == g {
			s.net.waiting = append(s.net.waiting[:i], s.net.waiting[i+1:]...)
			s.sched.NetpollWaiters--
			return
		}
	}
}

// injectglist makes the polled Gs runnable (R9.2). Without a P, all go to
// the global queue and an M is started for each idle P (up to one per G).
// With a P, one G per idle P goes to the global queue with an M started
// for it, the rest to this P's ring, and then wakep.
func (s *Machine) injectglist(m *M, pp *P, list []GID) {
	if len(list) == 0 {
		return
	}
	if pp == nil {
		for _, g := range list {
			s.injectOne(m, NoP, g, true)
		}
		s.startIdle(len(list))
		return
	}
	k := min(s.sched.Npidle, len(list))
	for _, g := range list[:k] {
		s.injectOne(m, pp.ID, g, true)
	}
	s.startIdle(k)
	for _, g := range list[k:] {
		s.injectOne(m, pp.ID, g, pp.runq.full())
	}
	s.wakep()
}

func (s *Machine) injectOne(m *M, pid PID, gid GID, global bool) {
	g := s.g(gid)
	ev := Event{Kind: KindGoUnblock, Rule: RuleInjectLocal, G: gid, P: pid, M: m.ID, From: g.Where, Op: s.OpOf(g)}
	if global {
		ev.Rule = RuleInjectGlobal
		ev.To = Loc{Kind: LocGlobal}
	} else {
		ev.To = at(LocRunq, pid)
	}
	s.emit(&ev)
	s.netDetach(gid)
	g.Status = Grunnable
	g.Runnable = s.now
	if global {
		s.globrunqput(gid)
	} else {
		s.p(pid).runq.push(gid)
		g.Where = at(LocRunq, pid)
		s.noteQueue(s.p(pid))
	}
}

// startIdle starts a non-spinning M on up to n idle Ps.
func (s *Machine) startIdle(n int) {
	for range n {
		pp := s.idleForSpinning()
		if pp == nil {
			return
		}
		s.startm(pp, false, RuleInjectStart)
	}
}
