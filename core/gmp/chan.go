package gmp

// Channels (R8.3). Only the number of buffered values is modelled. A
// sender or receiver that finds a parked partner hands over directly and
// readies it into its own P's runnext; wait queues are FIFO; close readies
// every waiter. A waiter may be a select's sudog (select.go): the partner
// that takes it claims the select, and drops one whose select is claimed.
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
// A select's work is locking its channels (sellock).
func (s *Machine) chanop(m *M, g *G, op *Op) {
	switch op.Kind {
	case OpSelect:
		s.selectgo(m, g, op)
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
	s.dropClaimed(m, g.ID, &c.RecvQ)
	if c.RecvQ.Len() > 0 {
		s.handOff(m, g, &c.RecvQ, ci, ReasonChanRecv)
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
	s.dropClaimed(m, g.ID, &c.SendQ)
	if c.SendQ.Len() > 0 {
		// A parked sender: unbuffered, take its value; buffered (and so
		// full), take the head of the buffer and move its value in.
		s.handOff(m, g, &c.SendQ, ci, ReasonChanSend)
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
	// A select's sudog claims its select as it is taken (dequeue's
	// selectDone); a select already claimed is dropped (dropClaimed),
	// which also drops a second sudog of a select just taken.
	var list []Sudog
	take := func(q *WaitQ, send bool) {
		for s.dropClaimed(m, g.ID, q); q.Len() > 0; s.dropClaimed(m, g.ID, q) {
			w := *q.first()
			if w.sel == 0 {
				q.grant()
				if send {
					s.g(w.G).closedOn = uint16(ci + 1) // New bounds the number of channels
				}
			} else {
				q.detachSel(w.G, w.sel)
				s.claim(w.G, int(w.sel-1), true)
			}
			list = append(list, w)
		}
	}
	take(&c.RecvQ, false)
	take(&c.SendQ, true)
	pp := s.p(m.P) // each ready takes its G off the channel's queues
	for i := len(list) - 1; i >= 0; i-- {
		w := list[i]
		if w.sel != 0 {
			s.ready(m, pp, s.g(w.G), Event{Rule: RuleReadySelectClose, G2: g.ID, N: ci, N2: int(w.sel - 1)})
			s.selectOf(w.G).readying = false
			continue
		}
		s.ready(m, pp, s.g(w.G), Event{Rule: RuleReadyClose, G2: g.ID, N: ci})
	}
	s.continueAfter(m, 0)
}
