package gmp

// Channels (R8.3). Only the number of buffered values is modelled. A
// sender or receiver that finds a parked partner hands over directly and
// readies it into its own P's runnext; wait queues are FIFO; close readies
// every waiter.
//
// An operation's cost (Costs.ChanOp) comes before its effect: chansend,
// chanrecv and closechan take the channel's lock, do their work, and
// ready a partner or park the caller at the end of it. That order decides
// two things a user can see. A partner readied into runnext waits there
// only from the end of the operation. And a preemption request that
// arrives while a G is inside the operation is honoured at the next
// call's prologue if the operation returns (newstack puts off a request
// while the M holds a lock, and unlock2 re-arms it, lock_spinbit.go), but
// lost if it parks: the G parks holding the channel's lock, chanparkcommit
// unlocks it afterwards, and execute clears the request (R7.6).

// chanop does a channel operation whose work is done: it takes effect.
func (s *Machine) chanop(m *M, g *G, op *Op) {
	switch op.Kind {
	case OpSend:
		s.chansend(m, g, op.Chan)
	case OpRecv:
		s.chanrecv(m, g, op.Chan)
	case OpClose:
		s.closechan(m, g, op.Chan)
	}
}

func (s *Machine) chansend(m *M, g *G, ci int) {
	c := &s.chans[ci]
	if c.Closed {
		s.gopanic(g, "send on closed channel "+c.Name)
		return
	}
	if c.RecvQ.Len() > 0 {
		r := c.RecvQ.grant().G // ready takes it off the queue
		s.ready(m, s.p(m.P), s.g(r), Event{Rule: RuleReadyChan, G2: g.ID, Reason: ReasonChanRecv, N: ci})
		s.continueAfter(m, 0)
		return
	}
	if c.Buf < c.Cap {
		c.Buf++
		s.continueAfter(m, 0)
		return
	}
	c.SendQ.push(Sudog{G: g.ID, Since: s.now})
	s.gopark(m, g, ReasonChanSend, Loc{Kind: LocChanSend, ID: int32(ci)}, 0, 0)
	s.enterScheduler(m)
}

func (s *Machine) chanrecv(m *M, g *G, ci int) {
	c := &s.chans[ci]
	if c.SendQ.Len() > 0 {
		// A parked sender: unbuffered, take its value; buffered (and so
		// full), take the head of the buffer and move its value in.
		w := c.SendQ.grant().G // ready takes it off the queue
		s.ready(m, s.p(m.P), s.g(w), Event{Rule: RuleReadyChan, G2: g.ID, Reason: ReasonChanSend, N: ci})
		s.continueAfter(m, 0)
		return
	}
	if c.Buf > 0 {
		c.Buf--
		s.continueAfter(m, 0)
		return
	}
	if c.Closed {
		s.continueAfter(m, 0)
		return
	}
	c.RecvQ.push(Sudog{G: g.ID, Since: s.now})
	s.gopark(m, g, ReasonChanRecv, Loc{Kind: LocChanRecv, ID: int32(ci)}, 0, 0)
	s.enterScheduler(m)
}

// closechan marks the channel closed and readies every waiter. The runtime
// gathers them into a list by pushing at its head (receivers, then
// senders) and readies them from the head, so they are readied in reverse;
// each passes through runnext, so the last readied stays there. A woken
// sender panics when it runs.
func (s *Machine) closechan(m *M, g *G, ci int) {
	c := &s.chans[ci]
	if c.Closed {
		s.gopanic(g, "close of closed channel "+c.Name)
		return
	}
	c.Closed = true
	var list []GID
	for c.RecvQ.Len() > 0 {
		list = append(list, c.RecvQ.grant().G)
	}
	for c.SendQ.Len() > 0 {
		w := c.SendQ.grant().G
		s.g(w).closedOn = uint16(ci + 1) // New bounds the number of channels
		list = append(list, w)
	}
	pp := s.p(m.P) // each ready takes its G off the channel's queues
	for i := len(list) - 1; i >= 0; i-- {
		s.ready(m, pp, s.g(list[i]), Event{Rule: RuleReadyClose, G2: g.ID, N: ci})
	}
	s.continueAfter(m, 0)
}
