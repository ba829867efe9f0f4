package gmp

// sync.RWMutex as Go 1.26 builds it (sync/rwmutex.go): a Mutex w that
// writers take first, two semaphores, and two counts. RLock adds one to
// readerCount and is in unless the count is negative, which means a
// writer holds the lock or waits for it: then the reader parks on
// readerSem (runtime_SemacquireRWMutexR). Lock takes w (all of sync.Mutex:
// spinning, queueing, starvation), then subtracts rwmutexMaxReaders from
// readerCount, which shuts new readers out, and waits on writerSem for the
// readers still inside (readerWait of them). RUnlock takes one from
// readerCount; with a writer waiting it takes one from readerWait too, and
// the last reader out wakes the writer. Unlock adds rwmutexMaxReaders
// back, wakes every reader that queued behind the writer, then unlocks w.
// So a waiting writer blocks new readers, and readers that arrived while
// it held the lock go before the next writer.
//
// The rwmutex is a Mutex of the model (mutex.go) whose reader fields are
// in use: the Mutex is rw.w.

// rwmutexMaxReaders is sync/rwmutex.go's.
const rwmutexMaxReaders = 1 << 30

// rlock is RWMutex.RLock.
func (s *Machine) rlock(m *M, g *G, op *Op) {
	mu := &s.mutexes[op.Mutex]
	obj := int32(op.Mutex)
	c := mu.ReaderCount + 1
	if c >= 0 {
		s.emit(&Event{Kind: KindMutexLock, Rule: RuleRWRLock, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: c, Op: op})
		mu.ReaderCount = c
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	pos := mu.ReaderSem.Len() + 1
	s.emit(&Event{Kind: KindMutexLock, Rule: RuleRWRLockWait, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: pos, G2: mu.Holder, Op: op})
	mu.ReaderCount = c
	mu.ReaderSem.push(Sudog{G: g.ID, Since: s.now})
	mu.Stats.Queued++
	s.gopark(m, g, ReasonRWMutexRLock, Loc{Kind: LocRWReader, ID: obj}, 0, pos)
	s.enterScheduler(m)
}

// runlock is RWMutex.RUnlock and rUnlockSlow.
func (s *Machine) runlock(m *M, g *G, op *Op) {
	mu := &s.mutexes[op.Mutex]
	obj := int32(op.Mutex)
	r := mu.ReaderCount - 1
	if r >= 0 {
		s.emit(&Event{Kind: KindMutexUnlock, Rule: RuleRWRUnlock, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: r, Op: op})
		mu.ReaderCount = r
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	if r+1 == 0 || r+1 == -rwmutexMaxReaders {
		s.fatal(g, "sync: RUnlock of unlocked RWMutex")
		return
	}
	// A writer waits for the readers inside: this one is leaving.
	last := mu.ReaderWait == 1
	s.emit(&Event{Kind: KindMutexUnlock, Rule: RuleRWRUnlock, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: mu.ReaderWait - 1, Flag: last, Op: op})
	mu.ReaderCount = r
	mu.ReaderWait--
	if last {
		w := mu.WriterSem.grant()
		s.ready(m, s.p(m.P), s.g(w.G), Event{Rule: RuleReadyRWWriter, G2: g.ID, Obj: obj})
	}
	s.continueAfter(m, s.cfg.Costs.ChanOp)
}

// rwLockReaders is the rest of RWMutex.Lock once the writer holds w:
// announce the writer, and wait for the readers inside to leave.
func (s *Machine) rwLockReaders(m *M, g *G, op *Op) {
	mu := &s.mutexes[op.Mutex]
	obj := int32(op.Mutex)
	r := mu.ReaderCount
	s.emit(&Event{Kind: KindMutexLock, Rule: RuleRWLock, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: r, Flag: r != 0, Op: op})
	mu.ReaderCount -= rwmutexMaxReaders
	if r == 0 {
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	mu.ReaderWait += r
	mu.WriterSem.push(Sudog{G: g.ID, Since: s.now})
	mu.Stats.Queued++
	s.gopark(m, g, ReasonRWMutexLock, Loc{Kind: LocRWWriter, ID: obj}, 0, r)
	s.enterScheduler(m)
}

// rwUnlock is RWMutex.Unlock: let the queued readers in, then unlock w.
func (s *Machine) rwUnlock(m *M, g *G, op *Op, mu *Mutex) {
	obj := int32(op.Mutex)
	r := mu.ReaderCount + rwmutexMaxReaders
	if r >= rwmutexMaxReaders {
		s.fatal(g, "sync: Unlock of unlocked RWMutex")
		return
	}
	s.emit(&Event{Kind: KindMutexUnlock, Rule: RuleRWUnlock, G: g.ID, P: m.P, M: m.ID, Obj: obj, N: r, Op: op})
	mu.ReaderCount = r
	pp := s.p(m.P)
	for range r {
		w := mu.ReaderSem.grant()
		s.ready(m, pp, s.g(w.G), Event{Rule: RuleReadyRWReader, G2: g.ID, Obj: obj})
	}
	s.mutexUnlock(m, g, op, mu)
}

// rwReaderPlace is a reader parked in RLock behind a writer, on
// readerSem.
var rwReaderPlace = waitPlace{
	loc: func(d *Describer, b []byte, id int32) []byte {
		return append(d.mutexName(int(id)).appendTo(append(b, "rwmutex:"...)), ".readers"...)
	},
	words:  rwWords,
	reason: func(*Describer, int32) Reason { return ReasonRWMutexRLock },
	queue:  func(s *Machine, id int32) *WaitQ { return &s.mutexes[id].ReaderSem },
	state: func(s *Machine, b []byte, id int32) []byte {
		return appendf(b, "%s holds it or waits for it", writer(s.mutexes[id].Holder))
	},
	parked: inLine,
}

// rwWriterPlace is a writer parked in Lock, on writerSem, until the
// readers inside leave.
var rwWriterPlace = waitPlace{
	loc: func(d *Describer, b []byte, id int32) []byte {
		return append(d.mutexName(int(id)).appendTo(append(b, "rwmutex:"...)), ".writer"...)
	},
	words:  rwWords,
	reason: func(*Describer, int32) Reason { return ReasonRWMutexLock },
	queue:  func(s *Machine, id int32) *WaitQ { return &s.mutexes[id].WriterSem },
	state: func(s *Machine, b []byte, id int32) []byte {
		return appendf(b, "for %s to leave", plural(s.mutexes[id].ReaderWait, "reader", "readers"))
	},
	parked: func(_ *Describer, b []byte, e *Event) []byte {
		return appendf(b, " until the %s inside %s", plural(e.WaitArg(), "reader", "readers"), leave(e.WaitArg()))
	},
}

// rwWords names an RWMutex's reader or writer semaphore in a sentence.
func rwWords(d *Describer, b []byte, id int32) []byte {
	return appendf(b, "rwmutex %s", d.mutexName(int(id)))
}

// leave is the verb after "the N readers inside".
func leave(n int) string {
	if n == 1 {
		return "leaves"
	}
	return "leave"
}

// rwmutex checks an RWMutex's reader side: the counts against the
// readers and the writer parked on its semaphores.
func (c *checker) rwmutex(i int) {
	mu := &c.s.mutexes[i]
	where := "rwmutex " + mu.Decl.Name
	mu.ReaderSem.check(c, Loc{Kind: LocRWReader, ID: int32(i)}, where+" readerSem", true)
	mu.WriterSem.check(c, Loc{Kind: LocRWWriter, ID: int32(i)}, where+" writerSem", true)
	if mu.ReaderCount >= 0 {
		if mu.ReaderWait != 0 || mu.ReaderSem.Len() != 0 || mu.WriterSem.Len() != 0 {
			c.bad("%s: no writer, yet %d readers awaited, %d readers and %d writers parked", where, mu.ReaderWait, mu.ReaderSem.Len(), mu.WriterSem.Len())
		}
		return
	}
	if !mu.Locked {
		c.bad("%s: readers are shut out but no writer holds w", where)
	}
	if pending := mu.ReaderCount + rwmutexMaxReaders; pending != mu.ReaderWait+mu.ReaderSem.Len() {
		c.bad("%s: readerCount says %d readers, but %d are inside and %d queued", where, pending, mu.ReaderWait, mu.ReaderSem.Len())
	}
	if (mu.ReaderWait > 0) != (mu.WriterSem.Len() == 1) || mu.WriterSem.Len() > 1 {
		c.bad("%s: the writer waits for %d readers, and %d writers are parked", where, mu.ReaderWait, mu.WriterSem.Len())
	}
}
