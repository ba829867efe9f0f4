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
//   - at most one M is blocked in netpoll, and it is the one sched names.
//
// It returns every violation found, joined.
func (s *Machine) CheckInvariants() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	seen := make([]uint8, s.gs.len())
	place := func(g GID, want Loc, where string) {
		if g <= 0 || int(g) >= len(seen) {
			bad("%s holds invalid goroutine %d", where, g)
			return
		}
		seen[g]++
		if seen[g] > 1 {
			bad("%v found a second time, in %s", g, where)
		}
		if s.gs.current(g) == nil {
			bad("%s holds %v, which exited and whose descriptor went to %v", where, g, s.g(g).ID)
			return
		}
		if got := s.g(g).Where; got != want {
			bad("%v is in %s but its Where says %+v", g, where, got)
		}
	}
	runnable := func(g GID, where string) {
		if g <= 0 || int(g) >= len(seen) || s.gs.current(g) == nil {
			return // place reported it
		}
		if st := s.g(g).Status; st != Grunnable {
			bad("%v is queued in %s but %v", g, where, st)
		}
	}

	for i := range s.ps {
		pp := &s.ps[i]
		if n := pp.runq.len(); n < 0 || n > runqSize {
			bad("%v ring holds %d Gs", pp.ID, n)
		}
		if pp.Runnext != NoG {
			place(pp.Runnext, at(LocRunnext, pp.ID), pp.ID.String()+".runnext")
			runnable(pp.Runnext, pp.ID.String()+".runnext")
		}
		for j := range pp.runq.len() {
			g := pp.runq.at(j)
			place(g, at(LocRunq, pp.ID), pp.ID.String()+".runq")
			runnable(g, pp.ID.String()+".runq")
		}
		for _, t := range pp.timers.items {
			if t.Purge != 0 {
				if pl := &s.pools[t.Purge-1]; !pl.PurgeArmed || pl.PurgeAt != t.When {
					bad("%v holds a purge timer for pool %s at %v, but the pool's purge is armed=%v at %v",
						pp.ID, pl.Decl.Name, t.When, pl.PurgeArmed, pl.PurgeAt)
				}
				continue
			}
			place(t.G, at(LocTimer, pp.ID), pp.ID.String()+" timers")
		}
		// P <-> M agreement.
		if pp.M != NoM {
			if pp.Status != Prunning {
				bad("%v is attached to %v but %v", pp.ID, pp.M, pp.Status)
			}
			if s.m(pp.M).P != pp.ID {
				bad("%v says its M is %v, but %v holds %v", pp.ID, pp.M, pp.M, s.m(pp.M).P)
			}
		} else if pp.Status == Prunning {
			bad("%v is running without an M", pp.ID)
		}
		if pp.Idle {
			if pp.M != NoM || pp.Status != Pidle {
				bad("idle %v is %v with M %v", pp.ID, pp.Status, pp.M)
			}
			if pp.runq.len() > 0 || pp.Runnext != NoG {
				bad("idle %v has queued Gs", pp.ID)
			}
		}
	}
	for i := range s.sched.runq.len() {
		g := s.sched.runq.at(i)
		place(g, Loc{Kind: LocGlobal}, "the global queue")
		runnable(g, "the global queue")
	}
	for ci := range s.chans {
		c := &s.chans[ci]
		for _, g := range c.RecvQ {
			place(g, Loc{Kind: LocChanRecv, ID: int32(ci)}, "recvq of "+c.Name)
		}
		for _, g := range c.SendQ {
			place(g, Loc{Kind: LocChanSend, ID: int32(ci)}, "sendq of "+c.Name)
		}
		if c.Buf < 0 || c.Buf > c.Cap {
			bad("channel %s holds %d of %d", c.Name, c.Buf, c.Cap)
		}
	}
	for _, w := range s.net.waiting {
		place(w.G, Loc{Kind: LocNetpoll}, "the netpoller")
	}
	// A goroutine joins a pool's, or a semaphore's, line under the
	// library's lock and parks after unlocking, as package pool and
	// x/sync do: between the decision and the park it is in the line and
	// still running, where the M's check counts it.
	queued := func(g GID, want Loc, where string) {
		if c := s.gs.current(g); c != nil && c.Where != want && c.Status == Grunning {
			return
		}
		place(g, want, where)
	}
	for pi := range s.pools {
		s.checkPool(pi, place, queued, bad)
	}
	for si := range s.sems {
		sm := &s.sems[si]
		where := "semaphore " + sm.Decl.Name
		for _, w := range sm.Waiters {
			queued(w.G, Loc{Kind: LocSem, ID: int32(si)}, where)
		}
		for _, g := range sm.Stuck {
			queued(g, Loc{Kind: LocSem, ID: int32(si)}, where)
		}
		for _, g := range sm.Granted {
			place(g, Loc{Kind: LocSem, ID: int32(si)}, where+" (granted, not yet readied)")
		}
		if sm.Cur < 0 || sm.Cur > sm.Decl.Size {
			bad("%s holds %d of %d", where, sm.Cur, sm.Decl.Size)
		}
		if len(sm.Waiters) > 0 && sm.Decl.Size-sm.Cur >= sm.Waiters[0].N {
			bad("%s has room for its first waiter (%d of %d taken, it wants %d) but leaves it waiting", where, sm.Cur, sm.Decl.Size, sm.Waiters[0].N)
		}
	}
	for _, gr := range s.groups {
		if g := s.gs.current(gr.owner); g == nil || g.Status == Gdead {
			bad("an errgroup outlives its owner %v", gr.owner)
		}
		if gr.pending < 0 {
			bad("the errgroup of %v counts %d goroutines", gr.owner, gr.pending)
		}
	}
	if len(s.net.waiting) != s.sched.NetpollWaiters {
		bad("netpollWaiters is %d but %d Gs wait on the network", s.sched.NetpollWaiters, len(s.net.waiting))
	}

	// Ms.
	spinning, inNetpoll := 0, 0
	idleOnList := make([]bool, len(s.ms))
	for _, id := range s.sched.Midle {
		if idleOnList[id] {
			bad("%v is on the idle M list twice", id)
		}
		idleOnList[id] = true
	}
	pendingP := make([]bool, len(s.ps))
	for _, m := range s.ms {
		if m.Spinning {
			spinning++
		}
		if m.State == MNetpoll {
			inNetpoll++
			if s.sched.NetpollBlocked != m.ID {
				bad("%v is blocked in netpoll but sched names %v", m.ID, s.sched.NetpollBlocked)
			}
		}
		if (m.State == MIdle) != idleOnList[m.ID] {
			bad("%v is %v but on the idle list: %v", m.ID, m.State, idleOnList[m.ID])
		}
		if m.P != NoP && s.p(m.P).M != m.ID {
			bad("%v holds %v, whose M is %v", m.ID, m.P, s.p(m.P).M)
		}
		if m.NextP != NoP {
			if m.State != MStarting {
				bad("%v has nextp %v but is %v", m.ID, m.NextP, m.State)
			}
			np := s.p(m.NextP)
			if np.Idle || np.M != NoM || pendingP[m.NextP] {
				bad("%v was handed %v, which is not free for it", m.ID, m.NextP)
			}
			pendingP[m.NextP] = true
		}
		switch m.State {
		case MRunning, MSyscall:
			if m.CurG == NoG {
				bad("%v is %v with no G", m.ID, m.State)
				break
			}
			g := s.g(m.CurG)
			want := Grunning
			if m.State == MSyscall {
				want = Gsyscall
				place(m.CurG, Loc{Kind: LocSyscall}, m.ID.String()+" in a syscall")
			} else {
				place(m.CurG, at(LocRunning, m.P), m.ID.String())
				if m.P == NoP {
					bad("%v runs %v without a P", m.ID, m.CurG)
				}
			}
			if g.Status != want || g.M != m.ID {
				bad("%v runs %v, which is %v on %v", m.ID, m.CurG, g.Status, g.M)
			}
		case MIdle, MNetpoll, MStarting:
			if m.P != NoP || m.CurG != NoG {
				bad("%v is %v but holds %v and %v", m.ID, m.State, m.P, m.CurG)
			}
		case MScheduler:
			// findRunnable drops its P before parking or blocking in
			// netpoll, so an M in the scheduler may hold none.
			if m.CurG != NoG {
				bad("%v is in the scheduler with %v", m.ID, m.CurG)
			}
		}
		if m.Picked != NoG {
			place(m.Picked, Loc{Kind: LocPicked, ID: int32(m.ID)}, m.ID.String()+"'s picked G")
			runnable(m.Picked, m.ID.String()+"'s picked G")
		}
	}
	for i := range s.ps {
		pp := &s.ps[i]
		if !pp.Idle && pp.M == NoM && !pendingP[i] && s.held != pp.ID {
			bad("%v is neither idle, attached, handed to a starting M nor being handed off", pp.ID)
		}
	}
	if inNetpoll > 1 {
		bad("%d Ms are blocked in netpoll", inNetpoll)
	}
	if inNetpoll == 0 && s.sched.NetpollBlocked != NoM {
		bad("sched says %v is in netpoll, but no M is", s.sched.NetpollBlocked)
	}
	if s.sched.Npidle != len(s.sched.Pidle) {
		bad("npidle is %d but the idle list holds %d", s.sched.Npidle, len(s.sched.Pidle))
	}
	for _, id := range s.sched.Pidle {
		if !s.p(id).Idle {
			bad("%v is on the idle list but not marked idle", id)
		}
	}
	if s.sched.Nmidle != len(s.sched.Midle) {
		bad("nmidle is %d but the idle list holds %d", s.sched.Nmidle, len(s.sched.Midle))
	}
	if s.sched.Nmspinning != spinning {
		bad("nmspinning is %d but %d Ms are spinning", s.sched.Nmspinning, spinning)
	}

	// Every live G accounted for exactly once; dead ones nowhere.
	live := 0
	for id := GID(1); int(id) < s.gs.len(); id++ {
		g := s.gs.current(id)
		if g == nil || g.Status == Gdead {
			if seen[id] != 0 {
				bad("dead %v is still queued", id)
			}
			continue
		}
		switch g.Status {
		case Gwaiting:
			if g.Where.Kind == LocWait || g.Where.Kind == LocGroupWait {
				seen[id]++ // waits on its children, in no queue
			}
		case Gidle, Grunnable:
			if g.Status == Gidle || id == s.kicked {
				seen[id]++ // being created, or between two queues
			}
		}
		live++
		if seen[id] != 1 {
			bad("%v (%v, %+v) is in %d places", id, g.Status, g.Where, seen[id])
		}
	}
	if live != s.live && !(s.ended && s.end.Reason == MainReturned) {
		bad("%d goroutines are live but the count says %d", live, s.live)
	}
	descs := len(s.sched.GFree)
	for i := range s.ps {
		descs += len(s.ps[i].GFree)
	}
	if descs+live != int(s.gs.ndesc) {
		bad("%d descriptors allocated, but %d live Gs and %d free ones", s.gs.ndesc, live, descs)
	}
	// Each descriptor is owned by one goroutine id, which maps back to it.
	for d := int32(0); d < s.gs.ndesc; d++ {
		if owner := s.gs.slot(d).ID; owner <= 0 || int(owner) >= s.gs.len() || s.gs.desc(owner) != d {
			bad("descriptor %d holds %v, whose id maps elsewhere", d, owner)
		}
	}
	return errors.Join(errs...)
}

// checkPool verifies a pool's books: every worker counted in Running is
// busy or idle, the idle list holds exactly the idle workers in the order
// they went idle, Running never exceeds Cap, and nobody waits while a
// worker is idle.
//
// place counts a goroutine that must be where the books say; queued one
// that may also still be running on its way to park there.
func (s *Machine) checkPool(pi int, place, queued func(GID, Loc, string), bad func(string, ...any)) {
	pl := &s.pools[pi]
	name := "pool " + pl.Decl.Name
	running, idle := 0, 0
	for i := range pl.Workers {
		w := &pl.Workers[i]
		if w.ID != i+1 {
			bad("%s: worker %d has id %d", name, i+1, w.ID)
		}
		if i > 0 && w.G <= pl.Workers[i-1].G {
			bad("%s: workers are not in goroutine order at w%d", name, w.ID)
		}
		switch w.State {
		case WorkerBusy:
			running++
			if g := s.gs.current(w.G); g == nil || g.Status == Gdead {
				bad("%s: busy worker w%d's %v is gone", name, w.ID, w.G)
			}
		case WorkerIdle:
			running++
			idle++
		}
	}
	if running != pl.Running {
		bad("%s: Running is %d but %d workers are busy or idle", name, pl.Running, running)
	}
	if pl.Cap >= 0 && pl.Running > pl.Cap {
		bad("%s: %d workers run, more than its capacity %d", name, pl.Running, pl.Cap)
	}
	ids := pl.idle[pl.idleHead:]
	if len(ids) != idle {
		bad("%s: %d workers are idle but the idle list holds %d", name, idle, len(ids))
	}
	for i, wi := range ids {
		w := &pl.Workers[wi]
		if w.State != WorkerIdle {
			bad("%s: w%d is on the idle list but not idle", name, w.ID)
		}
		if i > 0 && w.LastUsed < pl.Workers[ids[i-1]].LastUsed {
			bad("%s: the idle list is out of last-used order at w%d", name, w.ID)
		}
		if g := s.gs.current(w.G); g == nil || g.Status != Gwaiting && g.Status != Grunning {
			bad("%s: idle worker w%d's %v is neither parked nor about to park", name, w.ID, w.G)
		}
	}
	// A worker parked on its task channel: idle, or just handed a task or
	// told to stop by a submitter or the purge that has yet to ready it.
	for i := range pl.Workers {
		w := &pl.Workers[i]
		if g := s.gs.current(w.G); g != nil && g.Where == (Loc{Kind: LocPoolIdle, ID: int32(pi)}) {
			place(w.G, g.Where, name+"'s parked workers")
		}
	}
	if len(pl.Waiters) > 0 && len(ids) > 0 {
		bad("%s: %d submitters wait while %d workers are idle", name, len(pl.Waiters), len(ids))
	}
	for i, wt := range pl.Waiters {
		if i > 0 && wt.Seq <= pl.Waiters[i-1].Seq {
			bad("%s: waiters out of FIFO order at #%d", name, wt.Seq)
		}
		queued(wt.G, Loc{Kind: LocPoolWait, ID: int32(pi)}, name+"'s waiters")
	}
	for _, g := range pl.Served {
		place(g, Loc{Kind: LocPoolWait, ID: int32(pi)}, name+"'s served waiters")
	}
	if pl.IdleLen() > 0 && !pl.PurgeArmed {
		bad("%s: %d workers are idle but no purge is pending", name, pl.IdleLen())
	}
}
