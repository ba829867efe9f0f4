package gmp

// errgroup.Group with SetLimit, as golang.org/x/sync/errgroup implements
// it: the limit is a buffered channel of that capacity. Go sends a token
// on it before starting the goroutine, so the caller blocks in a channel
// send while the group is full; each goroutine receives a token back as
// it ends (done), which readies a blocked caller into its runnext, and
// then marks a WaitGroup done; Wait waits on that WaitGroup.
//
// A group action runs as a body New makes up: a loop of Count times
// [send a token, go the task + done], then Wait. Each run of a group
// action gets a group of its own, with a channel of its own.

// group is one errgroup.Group in use.
type group struct {
	owner   GID   // the goroutine that runs the group action
	ch      int32 // the limit channel, or -1 without a limit
	pending int32 // the WaitGroup's counter
	wait    WaitQ // the owner, while it is parked in Wait
}

// groupOf returns the group that owner is running.
func (s *Machine) groupOf(owner GID) *group {
	for i := range s.groups {
		if s.groups[i].owner == owner {
			return &s.groups[i]
		}
	}
	return nil
}

// groupStart makes a new group for g's group action (new(errgroup.Group)
// and SetLimit) and enters the action's body.
func (s *Machine) groupStart(m *M, g *G, op *Op) {
	gr := group{owner: g.ID, ch: -1}
	if op.Limit >= 0 {
		// SetLimit(0) makes a channel no Go can send on: every Go
		// blocks, as with x/sync.
		gr.ch = s.newChan(Chan{Name: "errgroup limit", Cap: op.Limit})
	}
	s.groups = append(s.groups, gr)
	g.pushFrame(frame{body: s.childBody[g.op-1]}) // the parser leaves room for it
	s.continueAfter(m, s.cfg.Costs.ChanOp)
}

// groupSend is the token send at the start of errgroup.Go. A group
// without a limit has no channel, and its body no send (groupBody).
func (s *Machine) groupSend(m *M, g *G) {
	s.chansend(m, g, int(s.groupOf(g.ID).ch))
}

// groupGo is the rest of errgroup.Go: wg.Add(1) and the go statement.
func (s *Machine) groupGo(m *M, g *G, op *Op) {
	s.groupOf(g.ID).pending++
	g.Children++
	s.goStatement(m, g, RuleGroupGo, op)
}

// groupDone is a group goroutine's deferred done: it takes its token back
// and marks the WaitGroup done, readying the owner if it waits and this
// was the last goroutine.
func (s *Machine) groupDone(m *M, g *G) {
	gr := s.groupOf(g.Parent)
	pp := s.p(m.P)
	if gr.ch >= 0 {
		c := &s.chans[gr.ch]
		if c.SendQ.Len() > 0 {
			// The owner is blocked in Go with the channel full: taking a
			// token lets its send complete.
			s.ready(m, pp, s.g(c.SendQ.grant().G), Event{Rule: RuleGroupSlot, G2: g.ID, N: c.Cap})
		} else {
			c.Buf--
		}
	}
	gr.pending--
	if gr.pending == 0 && gr.wait.Len() > 0 {
		s.ready(m, pp, s.g(gr.wait.grant().G), Event{Rule: RuleGroupWaitDone, G2: g.ID})
		s.freeGroup(gr)
	}
	s.continueAfter(m, s.cfg.Costs.ChanOp)
}

// groupWait is errgroup.Wait.
func (s *Machine) groupWait(m *M, g *G) {
	gr := s.groupOf(g.ID)
	if gr.pending == 0 {
		s.freeGroup(gr)
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	gr.wait.push(Sudog{G: g.ID, Since: s.now})
	s.gopark(m, g, ReasonWaitGroup, Loc{Kind: LocGroupWait}, 0, int(gr.pending))
	s.enterScheduler(m)
}

// freeGroup forgets a group whose Wait is over, and recycles its channel.
func (s *Machine) freeGroup(gr *group) {
	if gr.ch >= 0 {
		s.freeChans = append(s.freeChans, gr.ch)
	}
	for i := range s.groups {
		if &s.groups[i] == gr {
			s.groups = append(s.groups[:i], s.groups[i+1:]...)
			return
		}
	}
}

// newChan makes a channel at run time, reusing a freed one if it can.
func (s *Machine) newChan(c Chan) int32 {
	if n := len(s.freeChans); n > 0 {
		i := s.freeChans[n-1]
		s.freeChans = s.freeChans[:n-1]
		s.chans[i] = c
		return i
	}
	s.chans = append(s.chans, c)
	return int32(len(s.chans) - 1)
}
