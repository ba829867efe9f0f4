package gmp

// Weighted semaphores as golang.org/x/sync/semaphore implements them:
// Acquire takes n at once if that much is free and nobody waits, else it
// queues (FIFO) and parks in a select on its ready channel; Release gives
// n back and then wakes waiters from the front, in order, for as long as
// the next one fits. A large waiter at the front holds back smaller ones
// behind it, so it is never starved. A waiter is woken by closing its
// ready channel, which readies it into the releaser's runnext.

// Sem is a simulated weighted semaphore.
type Sem struct {
	Decl SemDecl
	Cur  int // taken
	// Waiters are the goroutines waiting in Acquire, each with its
	// weight (Sudog.N). Those a release lets through stay in the queue,
	// granted, until it readies them (x/sync takes them off its list and
	// then closes their ready channels).
	Waiters WaitQ
	// Stuck are goroutines that asked for more than the semaphore holds:
	// they wait for a context that never ends, outside the line.
	Stuck WaitQ
	Stats SemStats
}

// SemStats counts a semaphore's acquisitions.
type SemStats struct {
	Acquired, Waited, PeakWaiters int
}

func (sm *Sem) clone() Sem {
	c := *sm
	c.Waiters = sm.Waiters.clone()
	c.Stuck = sm.Stuck.clone()
	return c
}

// semAcquire is Weighted.Acquire(ctx, n) with a context that is never
// done.
func (s *Machine) semAcquire(m *M, g *G, op *Op) {
	sm := &s.sems[op.Sem]
	pp := s.p(m.P)
	n := op.N
	if sm.Decl.Size-sm.Cur >= n && sm.Waiters.Len() == 0 {
		s.emit(&Event{Kind: KindSemAcquire, Rule: RuleSemAcquire, G: g.ID, P: pp.ID, M: m.ID,
			N: n, N2: sm.Cur + n, Obj: int32(op.Sem), Op: op})
		sm.Cur += n
		sm.Stats.Acquired++
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	// It waits: not enough is free, or others wait already. Asking for
	// more than the semaphore holds waits for the context, which never
	// ends here.
	never := n > sm.Decl.Size
	rule, queued := RuleSemWait, sm.Waiters.Len()+1
	if never {
		rule, queued = RuleSemNever, sm.Waiters.Len()
	}
	s.emit(&Event{Kind: KindSemAcquire, Rule: rule, G: g.ID, P: pp.ID, M: m.ID,
		N: n, N2: sm.Cur, N3: int32(queued), Obj: int32(op.Sem), Op: op})
	s.gopark(m, g, ReasonSelect, Loc{Kind: LocSem, ID: int32(op.Sem)}, 0, n)
	w := Sudog{G: g.ID, N: n, Since: s.now}
	if never {
		sm.Stuck.push(w)
	} else {
		sm.Waiters.push(w)
		sm.Stats.Waited++
		sm.Stats.PeakWaiters = max(sm.Stats.PeakWaiters, sm.Waiters.Len())
	}
	s.enterScheduler(m)
}

// semRelease is Weighted.Release(n): it wakes the waiters that now fit,
// front first.
func (s *Machine) semRelease(m *M, g *G, op *Op) {
	sm := &s.sems[op.Sem]
	pp := s.p(m.P)
	n := op.N
	if sm.Cur < n {
		s.gopanic(g, "semaphore: released more than held")
		return
	}
	// Count the waiters this release lets through, for the event.
	cur, woken := sm.Cur-n, 0
	for _, w := range sm.Waiters.All() {
		if sm.Decl.Size-cur < w.N {
			break
		}
		cur += w.N
		woken++
	}
	ev := Event{Kind: KindSemRelease, Rule: RuleSemRelease, G: g.ID, P: pp.ID, M: m.ID,
		N: n, N2: cur, N3: int32(woken), Obj: int32(op.Sem), Op: op}
	if woken < sm.Waiters.Len() {
		ev.Flag = true // the next waiter does not fit
		ev.G2 = sm.Waiters.At(woken).G
	}
	s.emit(&ev)
	sm.Cur -= n
	granted := make([]Sudog, woken)
	for i := range granted {
		w := sm.Waiters.grant()
		sm.Cur += w.N
		sm.Stats.Acquired++
		granted[i] = w
	}
	for _, w := range granted {
		// close(w.ready): the waiter wakes into this P's runnext. ready
		// takes it off the granted list.
		s.ready(m, pp, s.g(w.G), Event{Rule: RuleReadySem, G2: g.ID, N: w.N, Obj: int32(op.Sem)})
	}
	s.continueAfter(m, s.cfg.Costs.ChanOp)
}
