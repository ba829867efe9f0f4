package gmp

import (
	"errors"
	"fmt"
)

// CheckInvariants verifies what must hold between any two steps:
//   - every live G is in exactly one place, and that place agrees with its
//     status and with G.Where;
//   - no ring holds more than 256 Gs;
//   - Ps and Ms agree about who is attached to whom, and P states match;
//   - npidle, nmidle and nmspinning match the lists and flags they count;
//   - at most one M is blocked in netpoll, and it is the one sched names;
//   - each channel, pool, semaphore, errgroup, mutex and wait group keeps
//     its books.
//
// Each runtime structure has its own check below; every place a G can be
// counts it, and the last check accounts for every live G exactly once.
// It returns every violation found, joined.
func (s *Machine) CheckInvariants() error {
	c := &checker{s: s, seen: make([]uint8, s.gs.len())}
	pendingP := c.threads()
	for i := range s.ps {
		c.proc(&s.ps[i], pendingP[i])
	}
	c.workSet()
	c.globalRunq()
	for ci := range s.chans {
		c.channel(ci)
	}
	c.selects()
	c.netpoller()
	for pi := range s.pools {
		c.pool(pi)
	}
	for si := range s.sems {
		c.sem(si)
	}
	for i := range s.mutexes {
		c.mutex(i)
	}
	for i := range s.wgs {
		c.waitGroup(i)
	}
	for i := range s.objs {
		c.checkObj(i)
	}
	c.errgroups()
	c.idleLists()
	c.goroutines()
	c.cpus()
	return errors.Join(c.errs...)
}

// checker gathers violations, and counts where each G was found.
type checker struct {
	s    *Machine
	errs []error
	seen []uint8 // by goroutine id: the places that hold it
	// selSudogs counts, by goroutine, the sudogs of selects still waiting
	// that the channels' queues hold (select.go).
	selSudogs map[GID]int
}

func (c *checker) bad(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// place counts g, found in where, which it must believe it is in (want).
func (c *checker) place(g GID, want Loc, where string) {
	s := c.s
	if g <= 0 || int(g) >= len(c.seen) {
		c.bad("%s holds invalid goroutine %d", where, g)
		return
	}
	c.seen[g]++
	if c.seen[g] > 1 {
		c.bad("%v found a second time, in %s", g, where)
	}
	if s.gs.current(g) == nil {
		c.bad("%s holds %v, which exited and whose descriptor went to %v", where, g, s.g(g).ID)
		return
	}
	if got := s.g(g).Where; got != want {
		c.bad("%v is in %s but its Where says %+v", g, where, got)
	}
}

// runnable checks that g, found in a run queue, is runnable.
func (c *checker) runnable(g GID, where string) {
	s := c.s
	if g <= 0 || int(g) >= len(c.seen) || s.gs.current(g) == nil {
		return // place reported it
	}
	if st := s.g(g).Status; st != Grunnable {
		c.bad("%v is queued in %s but %v", g, where, st)
	}
}

// queued is place for a library's line. A goroutine joins a pool's, or a
// semaphore's, line under the library's lock and parks after unlocking,
// as package pool and x/sync do: between the decision and the park it is
// in the line and still running, where the M's check counts it.
func (c *checker) queued(g GID, want Loc, where string) {
	if cur := c.s.gs.current(g); cur != nil && cur.Where != want && cur.Status == Grunning {
		return
	}
	c.place(g, want, where)
}

// workSet checks the work set against the Ps it counts.
func (c *checker) workSet() {
	s := c.s
	queued, timed, timers := 0, 0, 0
	for i := range s.ps {
		pp := &s.ps[i]
		timers += pp.timers.len()
		q, t := pp.Runnext != NoG || pp.runq.len() > 0, pp.timers.len() > 0
		qb := i>>6 < len(s.work.queuedBits) && s.work.queuedBits[i>>6]&(1<<(i&63)) != 0
		tb := i>>6 < len(s.work.timedBits) && s.work.timedBits[i>>6]&(1<<(i&63)) != 0
		if q != pp.queued || t != pp.timed || qb != q || tb != t {
			c.bad("%v: the work set has queued=%v (bit %v) timed=%v (bit %v), the P queued=%v timed=%v",
				pp.ID, pp.queued, qb, pp.timed, tb, q, t)
		}
		if i < len(s.work.wake) && s.work.wake[i] != pp.timers.wakeTime() {
			c.bad("%v: the work set has its earliest timer at %v, the heap at %v", pp.ID, s.work.wake[i], pp.timers.wakeTime())
		}
		if q {
			queued++
		}
		if t {
			timed++
		}
	}
	if timers != s.ntimers {
		c.bad("the machine counts %d pending timers; the Ps' heaps hold %d", s.ntimers, timers)
	}
	if queued != s.work.queued || timed != s.work.timed {
		c.bad("the work set counts %d Ps with queued Gs and %d with timers; there are %d and %d",
			s.work.queued, s.work.timed, queued, timed)
	}
}

// proc checks a P: its runnext, ring and timers, and its M. pending says
// a starting M was handed it (threads found which).
func (c *checker) proc(pp *P, pending bool) {
	s := c.s
	if n := pp.runq.len(); n < 0 || n > runqSize {
		c.bad("%v ring holds %d Gs", pp.ID, n)
	}
	if pp.Runnext != NoG {
		c.place(pp.Runnext, at(LocRunnext, pp.ID), pp.ID.String()+".runnext")
		c.runnable(pp.Runnext, pp.ID.String()+".runnext")
	}
	for j := range pp.runq.len() {
		g := pp.runq.at(j)
		c.place(g, at(LocRunq, pp.ID), pp.ID.String()+".runq")
		c.runnable(g, pp.ID.String()+".runq")
	}
	zombies := 0
	for _, t := range pp.timers.items {
		if t.Zombie {
			zombies++
			if t.sel == 0 {
				c.bad("%v holds a zombie timer that is no select's", pp.ID)
			}
		}
		if t.sel != 0 {
			c.selectTimer(pp, t)
			continue
		}
		if t.Purge != 0 {
			if pl := &s.pools[t.Purge-1]; !pl.PurgeArmed || pl.PurgeAt != t.When {
				c.bad("%v holds a purge timer for pool %s at %v, but the pool's purge is armed=%v at %v",
					pp.ID, pl.Decl.Name, t.When, pl.PurgeArmed, pl.PurgeAt)
			}
			continue
		}
		c.place(t.G, at(LocTimer, pp.ID), pp.ID.String()+" timers")
	}
	if zombies != pp.timers.zombies {
		c.bad("%v counts %d zombie timers and holds %d", pp.ID, pp.timers.zombies, zombies)
	}
	// P <-> M agreement.
	if pp.M != NoM {
		if pp.Status != Prunning {
			c.bad("%v is attached to %v but %v", pp.ID, pp.M, pp.Status)
		}
		if s.m(pp.M).P != pp.ID {
			c.bad("%v says its M is %v, but %v holds %v", pp.ID, pp.M, pp.M, s.m(pp.M).P)
		}
	} else if pp.Status == Prunning {
		c.bad("%v is running without an M", pp.ID)
	}
	if pp.M == NoM && !pp.Idle && !pending && s.held != pp.ID {
		c.bad("%v is neither idle, attached, handed to a starting M nor being handed off", pp.ID)
	}
	if pp.Idle {
		if pp.M != NoM || pp.Status != Pidle {
			c.bad("idle %v is %v with M %v", pp.ID, pp.Status, pp.M)
		}
		if pp.runq.len() > 0 || pp.Runnext != NoG {
			c.bad("idle %v has queued Gs", pp.ID)
		}
	}
}

func (c *checker) globalRunq() {
	q := &c.s.sched.runq
	for i := range q.len() {
		g := q.at(i)
		c.place(g, Loc{Kind: LocGlobal}, "the global queue")
		c.runnable(g, "the global queue")
	}
}

func (c *checker) channel(ci int) {
	ch := &c.s.chans[ci]
	ch.RecvQ.check(c, Loc{Kind: LocChanRecv, ID: int32(ci)}, "recvq of "+ch.Name, false)
	ch.SendQ.check(c, Loc{Kind: LocChanSend, ID: int32(ci)}, "sendq of "+ch.Name, false)
	if ch.Buf < 0 || ch.Buf > ch.Cap {
		c.bad("channel %s holds %d of %d", ch.Name, ch.Buf, ch.Cap)
	}
}

func (c *checker) netpoller() {
	s := c.s
	for _, w := range s.net.waiting {
		c.place(w.G, Loc{Kind: LocNetpoll}, "the netpoller")
	}
	if len(s.net.waiting) != s.sched.NetpollWaiters {
		c.bad("netpollWaiters is %d but %d Gs wait on the network", s.sched.NetpollWaiters, len(s.net.waiting))
	}
}

func (c *checker) sem(si int) {
	sm := &c.s.sems[si]
	where := "semaphore " + sm.Decl.Name
	sm.Waiters.check(c, Loc{Kind: LocSem, ID: int32(si)}, where, true)
	sm.Stuck.check(c, Loc{Kind: LocSem, ID: int32(si)}, where, true)
	if sm.Cur < 0 || sm.Cur > sm.Decl.Size {
		c.bad("%s holds %d of %d", where, sm.Cur, sm.Decl.Size)
	}
	if sm.Waiters.Len() > 0 && sm.Decl.Size-sm.Cur >= sm.Waiters.At(0).N {
		c.bad("%s has room for its first waiter (%d of %d taken, it wants %d) but leaves it waiting", where, sm.Cur, sm.Decl.Size, sm.Waiters.At(0).N)
	}
}

func (c *checker) errgroups() {
	s := c.s
	for _, gr := range s.groups {
		if g := s.gs.current(gr.owner); g == nil || g.Status == Gdead {
			c.bad("an errgroup outlives its owner %v", gr.owner)
		}
		if gr.pending < 0 {
			c.bad("the errgroup of %v counts %d goroutines", gr.owner, gr.pending)
		}
		gr.wait.check(c, Loc{Kind: LocGroupWait}, "errgroup.Wait of "+gr.owner.String(), false)
	}
}

// threads checks the Ms: their states against their P and G, the idle
// list, spinning and netpoll counts. It returns which Ps are handed to a
// starting M.
func (c *checker) threads() (pendingP []bool) {
	s := c.s
	spinning, inNetpoll := 0, 0
	idleOnList := make([]bool, len(s.ms))
	for _, id := range s.sched.Midle {
		if idleOnList[id] {
			c.bad("%v is on the idle M list twice", id)
		}
		idleOnList[id] = true
	}
	pendingP = make([]bool, len(s.ps))
	for _, m := range s.ms {
		if m.Spinning {
			spinning++
		}
		if m.State == MNetpoll {
			inNetpoll++
			if s.sched.NetpollBlocked != m.ID {
				c.bad("%v is blocked in netpoll but sched names %v", m.ID, s.sched.NetpollBlocked)
			}
		}
		if (m.State == MIdle) != idleOnList[m.ID] {
			c.bad("%v is %v but on the idle list: %v", m.ID, m.State, idleOnList[m.ID])
		}
		if m.P != NoP && s.p(m.P).M != m.ID {
			c.bad("%v holds %v, whose M is %v", m.ID, m.P, s.p(m.P).M)
		}
		if m.NextP != NoP {
			if m.State != MStarting {
				c.bad("%v has nextp %v but is %v", m.ID, m.NextP, m.State)
			}
			np := s.p(m.NextP)
			if np.Idle || np.M != NoM || pendingP[m.NextP] {
				c.bad("%v was handed %v, which is not free for it", m.ID, m.NextP)
			}
			pendingP[m.NextP] = true
		}
		if m.beside != NoM {
			// Two threads share a CPU while both are awake (wakepreempt.go).
			if w := s.m(m.beside); w.beside != m.ID || m.State.asleep() {
				c.bad("%v shares its CPU with %v, which shares %v's, while %v", m.ID, m.beside, w.beside, m.State)
			}
		}
		c.thread(m)
	}
	if inNetpoll > 1 {
		c.bad("%d Ms are blocked in netpoll", inNetpoll)
	}
	if inNetpoll == 0 && s.sched.NetpollBlocked != NoM {
		c.bad("sched says %v is in netpoll, but no M is", s.sched.NetpollBlocked)
	}
	if s.sched.Nmspinning != spinning {
		c.bad("nmspinning is %d but %d Ms are spinning", s.sched.Nmspinning, spinning)
	}
	return pendingP
}

// thread checks what an M holds against its state.
func (c *checker) thread(m *M) {
	s := c.s
	if (m.CurG == NoG) != (m.g == nil) || m.g != nil && m.g != s.g(m.CurG) {
		c.bad("%v's G slot does not match its %v", m.ID, m.CurG)
	}
	switch m.State {
	case MRunning, MSyscall:
		if m.CurG == NoG {
			c.bad("%v is %v with no G", m.ID, m.State)
			break
		}
		g := s.g(m.CurG)
		want := Grunning
		if m.State == MSyscall {
			want = Gsyscall
			c.place(m.CurG, Loc{Kind: LocSyscall}, m.ID.String()+" in a syscall")
		} else {
			c.place(m.CurG, at(LocRunning, m.P), m.ID.String())
			if m.P == NoP {
				c.bad("%v runs %v without a P", m.ID, m.CurG)
			}
		}
		if g.Status != want || g.M != m.ID {
			c.bad("%v runs %v, which is %v on %v", m.ID, m.CurG, g.Status, g.M)
		}
	case MIdle, MNetpoll, MStarting: // asleep
		if m.P != NoP || m.CurG != NoG {
			c.bad("%v is %v but holds %v and %v", m.ID, m.State, m.P, m.CurG)
		}
	case MScheduler:
		// findRunnable drops its P before parking or blocking in
		// netpoll, so an M in the scheduler may hold none.
		if m.CurG != NoG {
			c.bad("%v is in the scheduler with %v", m.ID, m.CurG)
		}
	}
	if m.Picked != NoG {
		c.place(m.Picked, Loc{Kind: LocPicked, ID: int32(m.ID)}, m.ID.String()+"'s picked G")
		c.runnable(m.Picked, m.ID.String()+"'s picked G")
	}
}

// idleLists checks sched's idle P and M counts against the lists.
func (c *checker) idleLists() {
	s := c.s
	if s.sched.Npidle != len(s.sched.Pidle) {
		c.bad("npidle is %d but the idle list holds %d", s.sched.Npidle, len(s.sched.Pidle))
	}
	for _, id := range s.sched.Pidle {
		if !s.p(id).Idle {
			c.bad("%v is on the idle list but not marked idle", id)
		}
	}
	if s.sched.Nmidle != len(s.sched.Midle) {
		c.bad("nmidle is %d but the idle list holds %d", s.sched.Nmidle, len(s.sched.Midle))
	}
}

// goroutines accounts for every live G exactly once, dead ones nowhere,
// and every descriptor.
func (c *checker) goroutines() {
	s := c.s
	live := 0
	for id := GID(1); int(id) < s.gs.len(); id++ {
		g := s.gs.current(id)
		if g == nil || g.Status == Gdead {
			if c.seen[id] != 0 {
				c.bad("dead %v is still queued", id)
			}
			continue
		}
		switch g.Status {
		case Gwaiting:
			if g.Where.Kind == LocWait || g.Where.Kind == LocTraceWait {
				c.seen[id]++ // waits on its children, or for a full trace buffer: in no queue
			}
		case Gidle, Grunnable:
			if g.Status == Gidle || id == s.kicked {
				c.seen[id]++ // being created, or between two queues
			}
		}
		live++
		if c.seen[id] != 1 {
			c.bad("%v (%v, %+v) is in %d places", id, g.Status, g.Where, c.seen[id])
		}
	}
	if live != s.live && !(s.ended && s.end.Reason == MainReturned) {
		c.bad("%d goroutines are live but the count says %d", live, s.live)
	}
	descs := len(s.sched.GFree)
	for i := range s.ps {
		descs += len(s.ps[i].GFree)
	}
	if descs+live != int(s.gs.ndesc) {
		c.bad("%d descriptors allocated, but %d live Gs and %d free ones", s.gs.ndesc, live, descs)
	}
	// Each descriptor is owned by one goroutine id, which maps back to it.
	for d := int32(0); d < s.gs.ndesc; d++ {
		if owner := s.gs.slot(d).ID; owner <= 0 || int(owner) >= s.gs.len() || s.gs.desc(owner) != d {
			c.bad("descriptor %d holds %v, whose id maps elsewhere", d, owner)
		}
	}
}

// pool verifies a pool's books: every worker counted in Running is
// busy or idle, the idle list holds exactly the idle workers in the order
// they went idle, Running never exceeds Cap, and nobody waits while a
// worker is idle.
func (c *checker) pool(pi int) {
	s := c.s
	pl := &s.pools[pi]
	name := "pool " + pl.Decl.Name
	running, idle := 0, 0
	for i := range pl.Workers {
		w := &pl.Workers[i]
		if w.ID != i+1 {
			c.bad("%s: worker %d has id %d", name, i+1, w.ID)
		}
		if i > 0 && w.G <= pl.Workers[i-1].G {
			c.bad("%s: workers are not in goroutine order at w%d", name, w.ID)
		}
		switch w.State {
		case WorkerBusy:
			running++
			if g := s.gs.current(w.G); g == nil || g.Status == Gdead {
				c.bad("%s: busy worker w%d's %v is gone", name, w.ID, w.G)
			}
		case WorkerIdle:
			running++
			idle++
		}
	}
	if running != pl.Running {
		c.bad("%s: Running is %d but %d workers are busy or idle", name, pl.Running, running)
	}
	if pl.Cap >= 0 && pl.Running > pl.Cap {
		c.bad("%s: %d workers run, more than its capacity %d", name, pl.Running, pl.Cap)
	}
	ids := pl.idle[pl.idleHead:]
	if len(ids) != idle {
		c.bad("%s: %d workers are idle but the idle list holds %d", name, idle, len(ids))
	}
	for i, wi := range ids {
		w := &pl.Workers[wi]
		if w.State != WorkerIdle {
			c.bad("%s: w%d is on the idle list but not idle", name, w.ID)
		}
		if i > 0 && w.LastUsed < pl.Workers[ids[i-1]].LastUsed {
			c.bad("%s: the idle list is out of last-used order at w%d", name, w.ID)
		}
		if g := s.gs.current(w.G); g == nil || g.Status != Gwaiting && g.Status != Grunning {
			c.bad("%s: idle worker w%d's %v is neither parked nor about to park", name, w.ID, w.G)
		}
	}
	// A worker parked on its task channel: idle, or just handed a task or
	// told to stop by a submitter or the purge that has yet to ready it.
	for i := range pl.Workers {
		w := &pl.Workers[i]
		if g := s.gs.current(w.G); g != nil && g.Where == (Loc{Kind: LocPoolIdle, ID: int32(pi)}) {
			c.place(w.G, g.Where, name+"'s parked workers")
		}
	}
	if pl.Waiters.Len() > 0 && len(ids) > 0 {
		c.bad("%s: %d submitters wait while %d workers are idle", name, pl.Waiters.Len(), len(ids))
	}
	ws := pl.Waiters.All()
	for i, wt := range ws {
		if i > 0 && wt.N <= ws[i-1].N {
			c.bad("%s: waiters out of FIFO order at #%d", name, wt.N)
		}
	}
	pl.Waiters.check(c, Loc{Kind: LocPoolWait, ID: int32(pi)}, name+"'s waiters", true)
	if len(pl.Queued) > 0 && len(ids) > 0 {
		c.bad("%s: %d tasks are queued while %d workers are idle", name, len(pl.Queued), len(ids))
	}
	if len(pl.Queued) > pl.Decl.Queue {
		c.bad("%s: %d tasks are queued, past its queue of %d", name, len(pl.Queued), pl.Decl.Queue)
	}
	for i, qt := range pl.Queued {
		if i > 0 && qt.Task <= pl.Queued[i-1].Task {
			c.bad("%s: the queue is out of FIFO order at task %d", name, qt.Task)
		}
	}
	if pl.IdleLen() > 0 && !pl.PurgeArmed {
		c.bad("%s: %d workers are idle but no purge is pending", name, pl.IdleLen())
	}
}
