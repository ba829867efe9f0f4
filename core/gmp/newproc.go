package gmp

// Goroutine creation and exit: newproc (§2) and goexit with the free
// lists gfput/gfget (§10). The run queues they put Gs on are in runq.go.

const (
	// gfreeHigh: when a P's free list reaches this many, descriptors move
	// to the global list until fewer than gfreeLow remain (proc.go gfput).
	gfreeHigh = 64
	gfreeLow  = 32
	// gfreeRefill: gfget refills an empty local list up to this many.
	gfreeRefill = 32
)

// newproc runs one go statement of g (R2.1): the new G goes into runnext
// of the creator's P, kicking the previous runnext to the ring's tail, and
// wakep may start a spinning M. The creator keeps running.
func (s *Machine) newproc(m *M, parent *G, op *Op) {
	parent.Children++
	s.goStatement(m, parent, RuleNewproc, op)
}

// goStatement makes the goroutine of parent's go statement op on m's P
// with newproc1 and creates it under rule (newproc's, errgroup.Go's). The
// runtime's newproc1 allocates a g and its stack (malg) when no dead
// goroutine's descriptor is left to reuse, and emits go-create only at
// its end: so the creator spends Costs.NewG first (newG, which spreads it
// in lumps with Costs.FreshSpans), and the goroutine is created, in
// runnext, after it (stepGoCreate, goCreate). Either way the creator goes
// on Costs.Newproc after the go-create.
func (s *Machine) goStatement(m *M, parent *G, rule Rule, op *Op) {
	pp := s.p(m.P)
	newg, reusedFrom := s.newproc1(pp, parent, s.childBody[parent.op-1])
	if reusedFrom == NoG && s.cfg.Costs.NewG > 0 {
		m.creating, m.creatingRule, m.creatingOp = newg.ID, rule, op
		s.wakeMAt(m, s.after(s.newG()), stepGoCreate)
		return
	}
	s.emitCreate(m, pp, newg, reusedFrom, Event{Rule: rule, G2: parent.ID, Op: op})
	s.continueAfter(m, s.cfg.Costs.Newproc)
}

// goCreate creates the goroutine whose descriptor m's G, the creator,
// has allocated (goStatement).
func (s *Machine) goCreate(m *M) {
	newg := s.g(m.creating)
	ev := Event{Rule: m.creatingRule, G2: m.CurG, Op: m.creatingOp}
	m.creating, m.creatingOp = NoG, nil
	s.emitCreate(m, s.p(m.P), newg, NoG, ev)
	s.continueAfter(m, s.cfg.Costs.Newproc)
}

// emitCreate puts newg, just made by newproc1 on pp, into pp's runnext and
// calls wakep, after the go-create event ev (its rule, creator and
// details; emitCreate fills in the rest).
func (s *Machine) emitCreate(m *M, pp *P, newg *G, reusedFrom GID, ev Event) {
	to := s.readyPlace(pp)
	kicked := NoG
	if to.Kind == LocRunnext {
		kicked = pp.Runnext
	}
	if !s.counted() {
		ev.Kind = KindGoCreate
		ev.G = newg.ID
		ev.P = pp.ID
		ev.M = m.ID
		ev.To = to
		ev.G3 = kicked
		ev.N = pp.runq.len() + boolInt(kicked != NoG)
		ev.N2 = int(reusedFrom)
		ev.Flag = kicked != NoG && pp.runq.full()
		s.emit(&ev)
	}
	newg.Status = Grunnable
	s.putReady(pp, newg, to)
	s.wakep()
	s.peakLive = max(s.peakLive, s.live)
}

// newproc1 makes a goroutine that will run body, on a descriptor from the
// P's free list when there is one (R2.2). parent is nil for a goroutine
// the runtime starts (a timer's AfterFunc). reusedFrom is the goroutine
// whose descriptor was reused, or NoG. The caller counts the new G among
// its parent's children if wait: children should wait for it: a pool
// worker belongs to the pool, and wait: children waits for its tasks.
func (s *Machine) newproc1(pp *P, parent *G, body uint16) (*G, GID) {
	desc, ok := s.gfget(pp)
	if !ok {
		desc = s.gs.newDesc()
	}
	pid := NoG
	if parent != nil {
		pid = parent.ID
	}
	g, reusedFrom := s.allocG(pid, desc)
	g.Status = Gidle               // until go-create puts it in runnext
	g.pushFrame(frame{body: body}) // a fresh stack: cannot fail
	s.live++
	return g, reusedFrom
}

// goexit ends g. returned says the program ran to its end; for main that
// is main returning, which ends the program. Otherwise the G dies: a
// parent waiting for its children is readied by the last one, and the
// descriptor goes onto the P's free list (R10.1).
func (s *Machine) goexit(m *M, g *G, returned bool) {
	pp := s.p(m.P)
	if g.ID == 1 && returned {
		if k := s.cfg.Costs.EndMark; k > 0 && !s.endMarked {
			// The end mark's work, then main returns (Costs.EndMark).
			s.endMarked = true
			s.continueAfter(m, k)
			return
		}
		s.emit(&Event{Kind: KindGoExit, Rule: RuleMainReturn, G: g.ID, P: pp.ID, M: m.ID,
			From: at(LocRunning, pp.ID), N: s.live - 1})
		s.finish(MainReturned, nil, RuleNone)
		return
	}
	if !returned && s.runDeferred(m, g) {
		return
	}
	if pi, ok := s.isPoolWorker(g); ok {
		if !returned {
			// runtime.Goexit in a task: the worker's deferred
			// bookkeeping runs before the goroutine ends.
			s.poolWorkerLost(m, g, pi)
		}
	} else {
		s.childDone(m, pp, g.Parent, g.ID, RuleReadyChildren)
	}
	if s.leaveAfterWakeCalls(m, stepGoexit) {
		return
	}
	s.gdestroy(m, g)
}

// gdestroy is the end of a goroutine that is not main returning, once
// what it readied on its way out is done (goexit0): go-exit, its
// descriptor onto the P's free list, and the M to schedule.
func (s *Machine) gdestroy(m *M, g *G) {
	pp := s.p(m.P)
	rule := RuleGoexit
	if g.ID == 1 {
		rule = RuleMainGoexit
	}
	if !s.counted() {
		s.emit(&Event{Kind: KindGoExit, Rule: rule, G: g.ID, P: pp.ID, M: m.ID,
			From: at(LocRunning, pp.ID), To: at(LocFree, pp.ID), Op: s.OpOf(g)})
	}
	g.Status = Gdead
	g.Where = Loc{}
	g.M = NoM
	g.resetFrames()
	g.inCPU = false
	s.live--
	s.dropg(m)
	s.gfput(pp, g.Desc)
	if s.live == 0 {
		s.fail(Deadlock, &Error{Msg: "no goroutines (main called runtime.Goexit) - deadlock!",
			Hint: "main ran an exit action; a program whose main goroutine calls runtime.Goexit crashes once every other goroutine has exited"})
		return
	}
	s.enterSchedulerAfter(m, s.cfg.Costs.ScheduleExit)
}

// childDone is a goroutine started by parent ending, or a task parent
// submitted finishing (rule says which): the last one readies a parent
// parked in wait: children. The parent may have exited, and its
// descriptor gone to another G.
func (s *Machine) childDone(m *M, pp *P, parent, child GID, rule Rule) {
	if parent == NoG {
		return
	}
	o := s.gs.current(parent)
	if o == nil || o.Status == Gdead {
		return
	}
	o.Children--
	if o.Children == 0 && o.Status == Gwaiting && o.Where.Kind == LocWait {
		s.ready(m, pp, o, Event{Rule: rule, G2: child})
	}
}

// taskDone is a pool task of owner's finishing on worker g.
func (s *Machine) taskDone(m *M, pp *P, owner, worker GID) {
	s.childDone(m, pp, owner, worker, RuleReadyTasks)
}

// gfput caches a dead descriptor on pp; at 64, descriptors move to the
// global list until 31 remain (R10.2).
func (s *Machine) gfput(pp *P, desc int32) {
	pp.GFree = append(pp.GFree, desc)
	if len(pp.GFree) < gfreeHigh {
		return
	}
	moved := len(pp.GFree) - (gfreeLow - 1)
	s.emit(&Event{Kind: KindGFree, Rule: RuleGfput, P: pp.ID, M: pp.M, N: moved, N2: gfreeLow - 1})
	for len(pp.GFree) >= gfreeLow {
		top := pp.GFree[len(pp.GFree)-1]
		pp.GFree = pp.GFree[:len(pp.GFree)-1]
		s.sched.GFree = append(s.sched.GFree, top)
	}
}

// gfget takes a dead descriptor from pp's free list, refilling an empty
// list from the global one up to 32 first (R10.3).
func (s *Machine) gfget(pp *P) (int32, bool) {
	if len(pp.GFree) == 0 && len(s.sched.GFree) > 0 {
		moved := min(gfreeRefill, len(s.sched.GFree))
		s.emit(&Event{Kind: KindGFree, Rule: RuleGfget, P: pp.ID, M: pp.M, N: moved, N2: len(s.sched.GFree) - moved})
		for range moved {
			top := s.sched.GFree[len(s.sched.GFree)-1]
			s.sched.GFree = s.sched.GFree[:len(s.sched.GFree)-1]
			pp.GFree = append(pp.GFree, top)
		}
	}
	if len(pp.GFree) == 0 {
		return 0, false
	}
	d := pp.GFree[len(pp.GFree)-1]
	pp.GFree = pp.GFree[:len(pp.GFree)-1]
	return d, true
}
