package gmp

// sync.Cond as Go 1.26 builds it (sync/cond.go over runtime/sema.go's
// notifyList). Wait takes a ticket (notifyListAdd: the list's wait
// counter, incremented), unlocks L, then notifyListWait: if its ticket
// was notified while it unlocked it returns at once, else it queues a
// sudog with the ticket and parks (waitReasonSyncCondWait, printed
// "sync.Cond.Wait"); once readied it locks L again. Signal
// (notifyListNotifyOne) does nothing when every ticket handed out was
// notified; else it notifies the next ticket and readies the waiter
// holding it if that one has parked (one that has not yet will find its
// ticket notified). Broadcast (notifyListNotifyAll) notifies every ticket
// and readies every parked waiter, each into the notifier's runnext.
//
// An Obj of this kind: A is notifyList.wait (the next ticket), B is
// notifyList.notify (the next ticket to notify), Q the parked waiters
// (Sudog.N their ticket), Taken those holding a ticket that have not
// reached notifyListWait.

// The verbs of a cond, by index (Op.Verb).
const (
	condWait      = iota // Wait, the action: its body is the four below
	condSignal           // Signal
	condBroadcast        // Broadcast
	condAdd              // notifyListAdd, the first step of Wait
	condPark             // notifyListWait, the third
)

var condKind = ObjKind{
	Key: "conds", Noun: "cond", GoType: "sync.Cond", Ref: "mutex", GoNew: "sync.NewCond(&%s)",
	Reason: ReasonCondWait,
	Verbs: []Verb{
		condWait: {Name: "cwait", Doc: "`cwait: C` (sync.Cond.Wait: unlock its mutex, park until signalled, lock it again)", Go: "%s.Wait()",
			body: func(op *Op, d ObjDecl) []Op {
				return []Op{
					{Kind: OpObj, Obj: op.Obj, Verb: condAdd, Pos: op.Pos},
					{Kind: OpUnlock, Mutex: d.Ref, Pos: op.Pos},
					{Kind: OpObj, Obj: op.Obj, Verb: condPark, Pos: op.Pos},
					{Kind: OpLock, Mutex: d.Ref, Pos: op.Pos},
				}
			}},
		condSignal:    {Name: "signal", Doc: "`signal: C` (sync.Cond.Signal)", Go: "%s.Signal()", run: (*Machine).condNotify},
		condBroadcast: {Name: "broadcast", Doc: "`broadcast: C` (sync.Cond.Broadcast)", Go: "%s.Broadcast()", run: (*Machine).condNotify},
		condAdd:       {run: (*Machine).condAdd},
		condPark:      {run: (*Machine).condPark},
	},
	words: condWords,
	state: func(b []byte, o *Obj) []byte {
		b = appendf(b, "%d waiting", o.Q.Len())
		if n := len(o.Taken); n > 0 {
			b = appendf(b, ", %d unlocking to wait", n)
		}
		return b
	},
	check: func(c *checker, o *Obj, where string) {
		if o.B > o.A {
			c.bad("%s: ticket %d notified, only %d handed out", where, o.B, o.A)
		}
		for _, w := range o.Q.All() {
			if w.N < o.B {
				c.bad("%s: %v waits with ticket %d, already notified (next %d)", where, w.G, w.N, o.B)
			}
		}
		for _, w := range o.Taken {
			if g := c.s.g(w.G); g == nil || g.Status == Gwaiting && g.Where.Kind == LocObj {
				c.bad("%s: %v holds ticket %d but is not on its way to wait", where, w.G, w.N)
			}
		}
	},
}

// condAdd is notifyListAdd: g takes the next ticket, which it keeps while
// Wait unlocks L.
func (s *Machine) condAdd(m *M, g *G, op *Op) {
	o := &s.objs[op.Obj]
	s.emit(&Event{Kind: KindCond, Rule: RuleCondAdd, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.Obj), N: o.A, Op: op})
	o.Taken = append(o.Taken, Sudog{G: g.ID, N: o.A, Since: s.now})
	o.A++
	s.continueAfter(m, s.objCost())
}

// condPark is notifyListWait: return at once if g's ticket was notified
// while it unlocked, else queue and park.
func (s *Machine) condPark(m *M, g *G, op *Op) {
	o := &s.objs[op.Obj]
	i := 0
	for i < len(o.Taken) && o.Taken[i].G != g.ID {
		i++
	}
	if i == len(o.Taken) {
		s.gopanic(g, "sync.Cond.Wait: no ticket") // a program built in code skipped notifyListAdd
		return
	}
	w := o.Taken[i]
	parks := w.N >= o.B
	s.emit(&Event{Kind: KindCond, Rule: RuleCondPark, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.Obj), N: w.N, Flag: parks, Op: op})
	o.Taken = append(o.Taken[:i], o.Taken[i+1:]...)
	if !parks {
		s.continueAfter(m, s.objCost())
		return
	}
	w.Since = s.now
	o.Q.push(w)
	s.gopark(m, g, ReasonCondWait, Loc{Kind: LocObj, ID: int32(op.Obj)}, 0, w.N)
	s.enterScheduler(m)
}

// condNotify is Signal (notifyListNotifyOne) and Broadcast
// (notifyListNotifyAll).
func (s *Machine) condNotify(m *M, g *G, op *Op) {
	o := &s.objs[op.Obj]
	all := op.Verb == condBroadcast
	rule := RuleCondSignal
	if all {
		rule = RuleCondBroadcast
	}
	// Who is readied: the parked waiter holding the next ticket, or
	// every parked waiter.
	var wake []int
	ticket := -1
	if o.A != o.B {
		ticket = o.B
		for i, w := range o.Q.All() {
			if all || w.N == ticket {
				wake = append(wake, i)
			}
		}
	}
	s.emit(&Event{Kind: KindCond, Rule: rule, G: g.ID, P: m.P, M: m.ID, Obj: int32(op.Obj), N: len(wake), N2: ticket, Op: op})
	if ticket >= 0 {
		if all {
			o.B = o.A
		} else {
			o.B++
		}
	}
	granted := make([]GID, 0, len(wake))
	for k := len(wake) - 1; k >= 0; k-- {
		granted = append(granted, o.Q.grantAt(wake[k]).G)
	}
	pp := s.p(m.P)
	for k := len(granted) - 1; k >= 0; k-- { // first waiter first
		s.ready(m, pp, s.g(granted[k]), Event{Rule: RuleReadyCond, G2: g.ID, Obj: int32(op.Obj)})
	}
	s.continueAfter(m, s.objCost())
}

// condWords tells of sync.Cond.
var condWords = words{
	RuleCondAdd: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v calls Wait on cond %s: it takes ticket %d on the notify list, then unlocks the cond's mutex", e.G, d.objName(e.Cond()), e.Ticket())
	},
	RuleCondPark: func(d *Describer, b []byte, e *Event) []byte {
		if e.Parks() {
			return appendf(b, "%v queues with ticket %d on cond %s's notify list and parks until a Signal or Broadcast reaches it", e.G, e.Ticket(), d.objName(e.Cond()))
		}
		return appendf(b, "%v's ticket %d on cond %s was notified while it unlocked: Wait does not park, and locks again", e.G, e.Ticket(), d.objName(e.Cond()))
	},
	RuleCondSignal: func(d *Describer, b []byte, e *Event) []byte {
		switch {
		case e.Notified() < 0:
			return appendf(b, "%v signals cond %s: every ticket is notified, so Signal does nothing", e.G, d.objName(e.Cond()))
		case e.Woken() == 0:
			return appendf(b, "%v signals cond %s: it notifies ticket %d, whose waiter has not parked yet and will not", e.G, d.objName(e.Cond()), e.Notified())
		}
		return appendf(b, "%v signals cond %s: it notifies ticket %d and readies its waiter", e.G, d.objName(e.Cond()), e.Notified())
	},
	RuleCondBroadcast: func(d *Describer, b []byte, e *Event) []byte {
		if e.Notified() < 0 {
			return appendf(b, "%v broadcasts on cond %s: every ticket is notified, so Broadcast does nothing", e.G, d.objName(e.Cond()))
		}
		return appendf(b, "%v broadcasts on cond %s: it notifies every ticket from %d and readies %s", e.G, d.objName(e.Cond()), e.Notified(), plural(e.Woken(), "parked waiter", "parked waiters"))
	},
	RuleReadyCond: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v notifies cond %s: %v leaves the notify list and goes %s%s, to lock the mutex again", e.Waker(), d.objName(e.Cond()), e.G, d.into(e), kicked(e))
	},
}
