package gmp

import (
	"slices"

	"github.com/schedlab/schedlab/core/sim"
)

// select, as runtime/select.go's selectgo runs it (R8.7).
//
// The compiler hands selectgo the cases, and selectgo works in passes:
//
//   - the poll order: a random permutation of the cases, drawn with
//     cheaprandn as it goes through them (an inside-out shuffle). The model
//     draws it from the run's seeded source, so a run stays reproducible
//     and another seed may take another of two ready cases. The compiler
//     lays the cases out sends first; the shuffle is uniform, so the model
//     shuffles them in the order written, which changes no probability;
//   - the lock order: the cases sorted by the address of their channel
//     (hchan.sortkey), ties in poll order. The model has no addresses: it
//     sorts by the channel's index in the program, and puts the channels
//     time.After makes after the declared ones, in the order written;
//   - pass 1: in poll order, the first case that can go on at once takes
//     effect: a receive finds a parked sender, a buffered value or a
//     closed channel; a send finds a parked receiver or room in the
//     buffer (a closed channel makes it panic); a time.After whose timer
//     has expired has a value in its channel (maybeRunChan);
//   - with a default and nothing ready, the default runs;
//   - pass 2: a sudog on every channel's queue, in lock order, each
//     knowing its case (Sudog.sel), and the timers of the time.After cases
//     into the heap of the P it runs on (blockTimerChan: since Go 1.23 a
//     timer channel's timer is in a heap only while someone waits on it).
//     Then it parks (waitReasonSelect);
//   - a partner that dequeues one of those sudogs (waitq.dequeue) claims
//     the whole select with a CAS on selectDone and readies it with that
//     case; the sudogs left in the other queues are stale from then on,
//     and a partner that finds one drops it and looks at the next waiter;
//   - pass 3, when the woken goroutine runs again: it takes its sudogs off
//     every other queue (dequeueSudoG) and lets go of its timers
//     (unblockTimerChan makes them zombies, which stay in the heap until
//     a check or an add takes them out, zombies.go; a timer that fires
//     between the claim and pass 3 sends into its channel's buffer,
//     which nobody reads).
//
// The compiler does not call selectgo for every select (walkSelectCases):
// select {} is block(), parked for ever (waitReasonSelectNoCases); one
// channel case and no default is the channel operation itself, parking as
// "chan send" or "chan receive"; one case and a default is a non-blocking
// send or receive (selectnbsend, selectnbrecv), which pass 1 with one
// case models exactly. A lone time.After case is a receive on the timer's
// channel: it parks as "chan receive", with its timer in the heap.

// SelectReady says why pass 1 found a case ready.
type SelectReady uint8

const (
	ReadyPartner SelectReady = iota + 1 // a goroutine parked on the other side
	ReadyBuffer                         // a buffered value to receive, or room to send one
	ReadyClosed                         // a closed channel: a receive returns, a send panics
	ReadyTimer                          // time.After's timer had already expired
)

// selWait is a goroutine parked in a select, or woken from one and not
// yet through pass 3: what the runtime keeps as gp.waiting (its sudogs,
// one per case) and gp.selectDone.
type selWait struct {
	g GID
	// won is the case that woke it, an index into its op's Cases, or -1
	// while it waits: selectDone, set by the waker that claims it.
	won int16
	// closed says that a close woke it (sudog.success false): a send
	// case then panics in pass 3.
	closed bool
	// parking is set from pass 2's first sudog until gopark: the G is
	// still running while its sudogs wait in the queues, as in the
	// runtime.
	parking bool
	// readying is set from the claim until the waker has readied the G:
	// the runtime's waker dequeues (and claims) before it calls goready,
	// so for that moment the select is won and its G still parked.
	readying bool
	// timerP is the P whose heap holds its time.After timers: the one it
	// ran on when it parked.
	timerP PID
}

// selectOf returns g's select wait, or nil.
func (s *Machine) selectOf(g GID) *selWait {
	for i := range s.selects {
		if s.selects[i].g == g {
			return &s.selects[i]
		}
	}
	return nil
}

// claimed reports whether w is a select's sudog whose select another
// case has already won: a stale sudog, left until its owner's pass 3.
func (s *Machine) claimed(w *Sudog) bool {
	if w.sel == 0 {
		return false
	}
	sw := s.selectOf(w.G)
	return sw != nil && sw.won >= 0
}

// detachSel takes g's sudog for case sel (plus one) out of q; it reports
// whether it was there. A select may have several cases on one channel,
// so its sudogs there are told apart by their case.
func (q *WaitQ) detachSel(g GID, sel uint16) bool {
	for i, w := range q.q {
		if w.G == g && w.sel == sel {
			q.q = append(q.q[:i], q.q[i+1:]...)
			return true
		}
	}
	return false
}

// holdsSel reports whether g's sudog for case sel (plus one) is in q.
func (q *WaitQ) holdsSel(g GID, sel uint16) bool {
	for _, w := range q.q {
		if w.G == g && w.sel == sel {
			return true
		}
	}
	return false
}

// holdsSel reports whether g's live timer for case sel (plus one) is in
// h: a zombie with the same case is left from an earlier select of g's.
func (h *timerHeap) holdsSel(g GID, sel int32) bool {
	for _, t := range h.items {
		if t.G == g && t.sel == sel && !t.Zombie {
			return true
		}
	}
	return false
}

// removeSel deletes g's live timer for case sel (plus one), if it has
// one.
func (h *timerHeap) removeSel(g GID, sel int32) bool {
	for i := range h.items {
		if t := &h.items[i]; t.G == g && t.sel == sel && !t.Zombie {
			h.removeAt(i)
			return true
		}
	}
	return false
}

// dropClaimed drops the stale sudogs at the head of q, as waitq.dequeue
// does when selectDone's CAS fails, so that the head, if any, is a
// goroutine that can be woken. partner is the goroutine that looks.
func (s *Machine) dropClaimed(m *M, partner GID, q *WaitQ) {
	for q.Len() > 0 && s.claimed(q.first()) {
		w := *q.first()
		s.emit(&Event{Kind: KindSelect, Rule: RuleSelectSkip, G: w.G, P: m.P, M: m.ID, G2: partner,
			N: int(w.sel - 1), Op: s.OpOf(s.g(w.G))})
		q.detachSel(w.G, w.sel)
	}
}

// handOff wakes the waiter at the head of q, the partner of g's send or
// receive on channel ci; reason is what the woken goroutine waits in. A
// plain waiter is granted and readied; a select's sudog is taken off the
// queue and claims its select for its case (selectDone), then its
// goroutine is readied. The head must be live (dropClaimed).
func (s *Machine) handOff(m *M, g *G, q *WaitQ, ci int, reason Reason) {
	w := *q.first()
	if w.sel == 0 {
		r := q.grant().G // ready takes it off the queue
		s.ready(m, s.p(m.P), s.g(r), Event{Rule: RuleReadyChan, G2: g.ID, Reason: reason, N: ci})
		return
	}
	q.detachSel(w.G, w.sel)
	s.claim(w.G, int(w.sel-1), false)
	s.ready(m, s.p(m.P), s.g(w.G), Event{Rule: RuleReadySelect, G2: g.ID, Reason: reason, N: ci, N2: int(w.sel - 1)})
	s.selectOf(w.G).readying = false
}

// claim is selectDone's CAS won by case k of g's select: the waker
// readies g next (readying until it has). closed says a close woke it.
func (s *Machine) claim(g GID, k int, closed bool) {
	sw := s.selectOf(g)
	sw.won, sw.closed, sw.readying = int16(k), closed, true
}

// selectgo runs a select statement whose channel locks are taken (its
// ChanOp cost is paid).
func (s *Machine) selectgo(m *M, g *G, op *Op) {
	cases := op.Cases
	def, polled := -1, 0
	for i := range cases {
		if cases[i].Dir == SelectDefault {
			def = i
		} else {
			polled++
		}
	}
	switch {
	case polled == 0 && def < 0:
		// select {}: block().
		s.selects = append(s.selects, selWait{g: g.ID, won: -1, timerP: NoP, parking: true})
		s.gopark(m, g, ReasonSelectNoCases, Loc{Kind: LocSelect}, 0, 0)
		s.selectOf(g.ID).parking = false
		s.enterScheduler(m)
		return
	case polled == 1 && def < 0:
		if i := firstPolled(cases); cases[i].Dir != SelectAfter {
			// One channel case: the compiler writes the operation
			// itself. The case's body runs once it returns.
			if !s.enterCase(g, op, i) {
				return
			}
			if cases[i].Dir == SelectSend {
				s.chansend(m, g, cases[i].Chan)
			} else {
				s.chanrecv(m, g, cases[i].Chan)
			}
			return
		}
	}

	// The time.After calls are evaluated with the statement, before
	// selectgo: a ChanOp ago, when the G came to the select.
	start := s.now.Add(-s.cfg.Costs.ChanOp)
	var when [MaxSelectCases]sim.Time
	for i := range cases {
		if cases[i].Dir == SelectAfter {
			when[i] = start.Add(s.draw(cases[i].Dur))
		}
	}
	// The poll order: cheaprandn(n+1) for the n-th case, an inside-out
	// shuffle. cheaprandn(1) is always 0, so nothing is drawn for the
	// first case.
	var orderBuf [MaxSelectCases]int
	order := orderBuf[:0]
	for i := range cases {
		if cases[i].Dir == SelectDefault {
			continue
		}
		n := len(order)
		j := 0
		if n > 0 {
			j = int(s.rng.Int63n(int64(n + 1)))
		}
		order = append(order, 0)
		order[n] = order[j]
		order[j] = i
	}
	enc := packOrder(order)

	// Pass 1.
	for _, i := range order {
		how, partner := s.pollCase(m, g, &cases[i], when[i])
		if how == 0 {
			continue
		}
		s.emit(&Event{Kind: KindSelect, Rule: RuleSelectPick, G: g.ID, P: m.P, M: m.ID, N: i, N2: enc, N3: int32(len(order)),
			Obj: int32(how), G2: partner, Op: op})
		c := &cases[i]
		switch {
		case c.Dir == SelectSend && how == ReadyClosed:
			s.gopanic(g, "send on closed channel "+s.chans[c.Chan].Name)
			return
		case how == ReadyPartner && c.Dir == SelectSend:
			s.handOff(m, g, &s.chans[c.Chan].RecvQ, c.Chan, ReasonChanRecv)
		case how == ReadyPartner:
			s.handOff(m, g, &s.chans[c.Chan].SendQ, c.Chan, ReasonChanSend)
		case how == ReadyBuffer && c.Dir == SelectSend:
			s.chans[c.Chan].Buf++
		case how == ReadyBuffer:
			s.chans[c.Chan].Buf--
		}
		if s.enterCase(g, op, i) {
			s.continueAfter(m, 0)
		}
		return
	}
	if def >= 0 {
		s.emit(&Event{Kind: KindSelect, Rule: RuleSelectDefault, G: g.ID, P: m.P, M: m.ID, N: def, N2: enc, N3: int32(len(order)), Op: op})
		if s.enterCase(g, op, def) {
			s.continueAfter(m, 0)
		}
		return
	}

	// Pass 2: a sudog on every channel, in lock order; the timers into
	// this P's heap.
	pp := s.p(m.P)
	s.selects = append(s.selects, selWait{g: g.ID, won: -1, timerP: NoP, parking: true})
	sw := &s.selects[len(s.selects)-1] // nothing below adds a select
	for _, i := range s.lockOrder(cases, order) {
		c := &cases[i]
		w := Sudog{G: g.ID, Since: s.now, sel: uint16(i + 1)}
		switch c.Dir {
		case SelectRecv:
			s.chans[c.Chan].RecvQ.push(w)
		case SelectSend:
			s.chans[c.Chan].SendQ.push(w)
		case SelectAfter:
			sw.timerP = pp.ID
			s.addTimer(pp, Timer{When: when[i], G: g.ID, sel: int32(i + 1)})
		}
	}
	reason := ReasonSelect
	if len(order) == 1 {
		reason = ReasonChanRecv // a lone time.After: <-ch on its channel
	}
	s.gopark(m, g, reason, Loc{Kind: LocSelect}, 0, len(order))
	sw.parking = false
	s.enterScheduler(m)
}

// firstPolled returns the index of the first case that is not the
// default.
func firstPolled(cases []SelectCase) int {
	for i := range cases {
		if cases[i].Dir != SelectDefault {
			return i
		}
	}
	return -1
}

// pollCase is pass 1's look at one case: whether it can go on now, and
// with which partner. Stale sudogs at the head of the queue it looks at
// are dropped on the way, as waitq.dequeue drops them.
func (s *Machine) pollCase(m *M, g *G, c *SelectCase, when sim.Time) (SelectReady, GID) {
	switch c.Dir {
	case SelectRecv:
		ch := &s.chans[c.Chan]
		s.dropClaimed(m, g.ID, &ch.SendQ)
		switch {
		case ch.SendQ.Len() > 0:
			return ReadyPartner, ch.SendQ.first().G
		case ch.Buf > 0:
			return ReadyBuffer, NoG
		case ch.Closed:
			return ReadyClosed, NoG
		}
	case SelectSend:
		ch := &s.chans[c.Chan]
		if ch.Closed {
			return ReadyClosed, NoG
		}
		s.dropClaimed(m, g.ID, &ch.RecvQ)
		switch {
		case ch.RecvQ.Len() > 0:
			return ReadyPartner, ch.RecvQ.first().G
		case ch.Buf < ch.Cap:
			return ReadyBuffer, NoG
		}
	case SelectAfter:
		if when <= s.now {
			return ReadyTimer, NoG
		}
	}
	return 0, NoG
}

// lockOrder returns the cases of poll in the order selectgo locks their
// channels: by channel (the model's stand-in for hchan's address), the
// channels time.After made after the declared ones in the order
// written, and cases on one channel in poll order.
func (s *Machine) lockOrder(cases []SelectCase, poll []int) []int {
	out := slices.Clone(poll)
	key := func(i int) int {
		if cases[i].Dir == SelectAfter {
			return len(s.chans) + i
		}
		return cases[i].Chan
	}
	slices.SortStableFunc(out, func(a, b int) int { return key(a) - key(b) })
	return out
}

// packOrder packs a poll order into an int, four bits a case, the first
// polled lowest, for the events that report it (UnpackPollOrder).
func packOrder(order []int) int {
	var enc uint64
	for k, i := range order {
		enc |= uint64(i) << (4 * k)
	}
	return int(enc)
}

// UnpackPollOrder returns the poll order an event packed: the indexes of
// the n cases polled, first polled first.
func UnpackPollOrder(enc, n int) []int {
	out := make([]int, 0, n)
	for k := range min(n, MaxSelectCases) {
		out = append(out, polledAt(enc, k))
	}
	return out
}

// polledAt returns the case polled k-th in a packed poll order.
func polledAt(enc, k int) int { return int(uint64(enc) >> (4 * k) & 0xf) }

// enterCase makes g run case i's body next, after the select. It reports
// false when the body would nest deeper than a goroutine allows, which
// ends the run.
func (s *Machine) enterCase(g *G, op *Op, i int) bool {
	if len(op.Cases[i].Body) == 0 {
		return true
	}
	body := s.caseBody[int(s.childBody[g.op-1])+i]
	if !g.pushFrame(frame{body: body}) {
		s.fail(Panicked, &Error{Pos: op.Cases[i].Pos, Msg: "a select case's body nests more than the model's limit of loops in " + g.ID.String(),
			Hint: "flatten the loops around the select, or start a goroutine for it"})
		return false
	}
	return true
}

// fireSelectTimer runs a time.After timer of a select, taken from tp's
// heap by runner's M (timers.check): its send wakes the select with that
// case, unless another case has already won it.
func (s *Machine) fireSelectTimer(m *M, runner, tp *P, t Timer) {
	if s.selectOf(t.G).won >= 0 {
		s.emit(&Event{Kind: KindSelect, Rule: RuleSelectSkip, G: t.G, P: runner.ID, M: m.ID, N: int(t.sel - 1), Flag: true,
			Op: s.OpOf(s.g(t.G))})
		tp.timers.pop()
		s.ntimers--
		s.noteTimers(tp)
		return
	}
	s.claim(t.G, int(t.sel-1), false)
	s.ready(m, runner, s.g(t.G), Event{Rule: RuleReadySelectTimer, P2: tp.ID, D: s.now.Sub(t.When), N2: int(t.sel - 1)})
	// The timer leaves the heap after the event, as a sleep's does
	// (detach).
	s.selectOf(t.G).readying = false
	if tp.timers.removeSel(t.G, t.sel) {
		s.ntimers--
		s.noteTimers(tp)
	}
}

// selectResume is pass 3, run when a goroutine woken from a select runs
// again, before anything else it does: it takes its other sudogs off
// their queues and lets go of its timers, then goes on with the case that
// woke it. It reports false for a goroutine that is not coming back from
// a select.
func (s *Machine) selectResume(m *M, g *G) bool {
	sw := s.selectOf(g.ID)
	if sw == nil || sw.won < 0 {
		return false
	}
	won, closed, timerP := int(sw.won), sw.closed, sw.timerP
	op := s.OpOf(g)
	// What pass 3 finds left: counted before its event, taken after.
	dequeued, stopped, polled := 0, 0, 0
	for i := range op.Cases {
		c := &op.Cases[i]
		if c.Dir != SelectDefault {
			polled++
		}
		if i == won {
			continue
		}
		sel := uint16(i + 1)
		switch c.Dir {
		case SelectRecv:
			dequeued += boolInt(s.chans[c.Chan].RecvQ.holdsSel(g.ID, sel))
		case SelectSend:
			dequeued += boolInt(s.chans[c.Chan].SendQ.holdsSel(g.ID, sel))
		case SelectAfter:
			stopped += boolInt(timerP != NoP && s.p(timerP).timers.holdsSel(g.ID, int32(sel)))
		}
	}
	c := &op.Cases[won]
	if polled > 1 {
		ev := Event{Kind: KindSelect, Rule: RuleSelectResume, G: g.ID, P: m.P, M: m.ID, N: won, N2: dequeued, N3: int32(stopped),
			Flag: closed && c.Dir == SelectSend, Op: op}
		if stopped > 0 {
			ev.P2 = timerP
		}
		s.emit(&ev)
	}
	for i := range op.Cases {
		sel := uint16(i + 1)
		switch cs := &op.Cases[i]; {
		case i == won:
		case cs.Dir == SelectRecv:
			s.chans[cs.Chan].RecvQ.detachSel(g.ID, sel)
		case cs.Dir == SelectSend:
			s.chans[cs.Chan].SendQ.detachSel(g.ID, sel)
		case cs.Dir == SelectAfter && timerP != NoP:
			s.unblockTimerChan(s.p(timerP), g.ID, int32(sel))
		}
	}
	s.selects = slices.DeleteFunc(s.selects, func(w selWait) bool { return w.g == g.ID })
	if closed && c.Dir == SelectSend {
		s.gopanic(g, "send on closed channel "+s.chans[c.Chan].Name)
		return true
	}
	if s.enterCase(g, op, won) {
		cost := s.cfg.Costs.ChanOp // sellock again, for pass 3
		if polled == 1 {
			cost = 0 // a lone time.After was a plain receive
		}
		s.continueAfter(m, cost)
	}
	return true
}

// selects holds every select wait against the goroutine it belongs to:
// one still waiting is parked in its select, counted there, with a sudog
// in the queue of each of its channel cases (the queue checks counted
// them); one woken has left it. It runs after the channels' checks.
func (c *checker) selects() {
	s := c.s
	for _, sw := range s.selects {
		g := s.gs.current(sw.g)
		if g == nil {
			c.bad("a select wait outlives its goroutine %v", sw.g)
			continue
		}
		parked := g.Status == Gwaiting && g.Where.Kind == LocSelect
		switch {
		case sw.parking:
			// Pass 2 between its first sudog and gopark: the G runs,
			// and the M's check counts it.
			continue
		case sw.won >= 0 && parked && !sw.readying:
			c.bad("%v's select was won by case %d but it is still parked in it: a lost wake-up", sw.g, sw.won)
		case sw.won >= 0 && !parked:
			continue // woken; pass 3 will take its sudogs off
		}
		c.place(sw.g, Loc{Kind: LocSelect}, "select of "+sw.g.String())
		if sw.won >= 0 {
			continue // claimed: its waker readies it next
		}
		op := s.OpOf(g)
		want := 0
		if op != nil && op.Kind == OpSelect && g.WaitReason != ReasonSelectNoCases {
			for _, cs := range op.Cases {
				if cs.Dir == SelectRecv || cs.Dir == SelectSend {
					want++
				}
			}
		}
		if c.selSudogs[sw.g] != want {
			c.bad("%v waits in a select with %d channel cases but %d sudogs are queued for it", sw.g, want, c.selSudogs[sw.g])
		}
	}
}

// selectSudog checks a select's sudog found in a channel's queue at l: it
// belongs to a select wait, and its case is a wait on that channel, that
// way. It is not a place of the goroutine's: the select is (selects).
func (c *checker) selectSudog(w Sudog, l Loc, where string) {
	s := c.s
	sw := s.selectOf(w.G)
	if sw == nil {
		c.bad("%s holds a select sudog of %v, which waits in no select", where, w.G)
		return
	}
	if sw.won < 0 {
		if c.selSudogs == nil {
			c.selSudogs = map[GID]int{}
		}
		c.selSudogs[w.G]++
	}
	g := s.gs.current(w.G)
	if g == nil {
		return // selects reports it
	}
	op := s.OpOf(g)
	k := int(w.sel) - 1
	if op == nil || op.Kind != OpSelect || k >= len(op.Cases) {
		c.bad("%s holds %v's sudog for case %d, which its action does not have", where, w.G, k)
		return
	}
	cs := op.Cases[k]
	dir := map[LocKind]SelectDir{LocChanRecv: SelectRecv, LocChanSend: SelectSend}[l.Kind]
	if cs.Dir != dir || int32(cs.Chan) != l.ID {
		c.bad("%s holds %v's sudog for case %d (%v on channel %d)", where, w.G, k, cs.Dir, cs.Chan)
	}
}

// selectTimer checks a time.After timer of a select in pp's heap: a
// zombie's select is over, a live one's waits.
func (c *checker) selectTimer(pp *P, t Timer) {
	if t.Zombie {
		return
	}
	sw := c.s.selectOf(t.G)
	switch {
	case sw == nil:
		c.bad("%v holds a select timer of %v, which waits in no select", pp.ID, t.G)
	case sw.timerP != pp.ID:
		c.bad("%v holds a select timer of %v, whose select put its timers on %v", pp.ID, t.G, sw.timerP)
	}
}
