package gmp

// sync.WaitGroup as Go 1.26 builds it (sync/waitgroup.go): one state word
// holding the counter and the number of waiters, and a semaphore. Add
// (Done is Add(-1)) changes the counter; below zero it panics; the Add
// that brings it to zero with waiters resets the word and releases every
// waiter (runtime_Semrelease, each readied into the releaser's runnext).
// Wait returns at once at zero, else counts itself a waiter and parks
// (runtime_SemacquireWaitGroup). A woken Wait checks the word once more:
// if the group is in use again (an Add came before this Wait returned),
// it panics, which is why a group may be reused only after every Wait of
// the previous round has returned. wg.Go (Go 1.25) is Add(1) and a go
// statement whose goroutine defers Done.

// WaitGroup is a simulated sync.WaitGroup.
type WaitGroup struct {
	Decl    WaitGroupDecl
	Counter int // the counter (state >> 32)
	Waiters int // the waiters (the state's low bits)
	// Sema holds the goroutines parked in Wait.
	Sema WaitQ
	// returning are waiters released and not yet back from Wait, where
	// they look at the state word again.
	returning []GID
}

func (wg *WaitGroup) clone() WaitGroup {
	c := *wg
	c.Sema = wg.Sema.clone()
	c.returning = append([]GID(nil), wg.returning...)
	return c
}

// wgGoBody is what a goroutine wg.Go starts runs: the function, then the
// Done it defers (so runtime.Goexit in it still runs Done).
func wgGoBody(op *Op) []Op {
	body := make([]Op, 0, len(op.Body)+1)
	body = append(body, op.Body...)
	return append(body, Op{Kind: OpDone, WG: op.WG, Defer: true, Pos: op.Pos})
}

// wgAdd is WaitGroup.Add(delta); Done and wg.Go call it too. The caller
// goes on unless the run ended (a negative counter panics).
func (s *Machine) wgAdd(m *M, g *G, op *Op, delta int) {
	wg := &s.wgs[op.WG-1]
	v := wg.Counter + delta
	if v < 0 {
		s.gopanic(g, "sync: negative WaitGroup counter")
		return
	}
	released := 0
	if v == 0 {
		released = wg.Waiters
	}
	s.emit(&Event{Kind: KindWaitGroup, Rule: RuleWGAdd, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.WG - 1),
		N: delta, N2: v, N3: int32(released), Op: op})
	wg.Counter = v
	if released == 0 {
		return
	}
	// The state word goes to zero at once; the semaphore's releases
	// follow, each readying one waiter.
	wg.Waiters = 0
	granted := make([]GID, released)
	for i := range granted {
		granted[i] = wg.Sema.grant().G
	}
	wg.returning = append(wg.returning, granted...)
	pp := s.p(m.P)
	for _, w := range granted {
		s.ready(m, pp, s.g(w), Event{Rule: RuleReadyWG, G2: g.ID, Obj: int32(op.WG - 1)})
	}
}

// wgWait is WaitGroup.Wait. A released waiter runs it again on its way
// out, to look at the state word.
func (s *Machine) wgWait(m *M, g *G, op *Op) {
	wg := &s.wgs[op.WG-1]
	obj := int32(op.WG - 1)
	for i, r := range wg.returning {
		if r != g.ID {
			continue
		}
		wg.returning = append(wg.returning[:i], wg.returning[i+1:]...)
		if wg.Counter != 0 || wg.Waiters != 0 {
			s.gopanic(g, "sync: WaitGroup is reused before previous Wait has returned")
			return
		}
		s.continueAfter(m, 0)
		return
	}
	parks := wg.Counter != 0
	s.emit(&Event{Kind: KindWaitGroup, Rule: RuleWGWait, G: g.ID, P: m.P, M: m.ID, Obj: obj,
		N: wg.Waiters + boolInt(parks), N2: wg.Counter, Flag: parks, Op: op})
	if !parks {
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	wg.Waiters++
	wg.Sema.push(Sudog{G: g.ID, Since: s.now})
	s.gopark(m, g, ReasonWaitGroup, Loc{Kind: LocWaitGroup, ID: obj}, 0, wg.Counter)
	s.unreadOp(g, op) // it runs Wait again when released
	s.enterScheduler(m)
}

// wgPlace is a goroutine parked in Wait on a wait group's semaphore.
var wgPlace = waitPlace{
	loc: func(d *Describer, b []byte, id int32) []byte {
		return d.wgName(int(id)).appendTo(append(b, "wg:"...))
	},
	words: func(d *Describer, b []byte, id int32) []byte {
		return appendf(b, "wait group %s", d.wgName(int(id)))
	},
	reason: func(*Describer, int32) Reason { return ReasonWaitGroup },
	queue:  func(s *Machine, id int32) *WaitQ { return &s.wgs[id].Sema },
	state: func(s *Machine, b []byte, id int32) []byte {
		return appendf(b, "counter %d", s.wgs[id].Counter)
	},
	parked: func(_ *Describer, b []byte, e *Event) []byte {
		return appendf(b, " until its counter, %d, drops to zero", e.WaitArg())
	},
}

// waitGroup checks a wait group's books.
func (c *checker) waitGroup(i int) {
	wg := &c.s.wgs[i]
	where := "wait group " + wg.Decl.Name
	// Wait counts itself a waiter and then parks (queued).
	wg.Sema.check(c, Loc{Kind: LocWaitGroup, ID: int32(i)}, where, true)
	if wg.Counter < 0 {
		c.bad("%s: counter %d", where, wg.Counter)
	}
	if wg.Waiters != wg.Sema.Len() {
		c.bad("%s: the state counts %d waiters, %d are parked", where, wg.Waiters, wg.Sema.Len())
	}
	if wg.Counter == 0 && wg.Waiters != 0 {
		c.bad("%s: %d waiters with the counter at zero", where, wg.Waiters)
	}
}
