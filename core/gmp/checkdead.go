package gmp

import (
	"fmt"
	"strings"
)

// checkdead reports a deadlock the way the runtime does: when every thread
// is parked and nothing can wake one (no timer, no network wait, no
// syscall in flight), no goroutine can ever run again. It runs after
// every step, so the test that nearly always says no is apart from the
// sweep, small enough for the compiler to inline into Step.
func (s *Machine) checkdead() {
	if s.sched.Nmidle == len(s.ms)-1 && s.ntimers <= 0 && s.sched.NetpollWaiters <= 0 {
		s.checkdeadSweep()
	}
}

// checkdeadSweep is checkdead once every thread is parked with nothing
// pending: it looks for goroutines that could still run or wait forever.
func (s *Machine) checkdeadSweep() {
	var blocked []*G
	runnable := 0
	for id := GID(1); int(id) < s.gs.len(); id++ {
		g := s.gs.current(id)
		if g == nil {
			continue // exited; its descriptor is another G's now
		}
		switch g.Status {
		case Gwaiting:
			blocked = append(blocked, g)
		case Grunnable, Grunning, Gsyscall:
			runnable++
		}
	}
	if runnable > 0 {
		s.fail(Invariant, fmt.Errorf("every M is parked at %v but %d goroutines can run: a lost wake-up in the model", s.now, runnable))
		return
	}
	if len(blocked) == 0 {
		return
	}
	s.blocked = nil
	for _, g := range blocked {
		b := Blocked{G: g.ID, Why: s.blockedOn(g)}
		if op := s.OpOf(g); op != nil {
			b.Pos = op.Pos
		}
		s.blocked = append(s.blocked, b)
	}
	first := blocked[0] // main if it is blocked: it has the lowest id
	err := &Error{Msg: "fatal error: all goroutines are asleep - deadlock! " + s.blockedOn(first)}
	if op := s.OpOf(first); op != nil {
		err.Pos = op.Pos
	}
	var others []string
	for _, g := range blocked[1:] {
		if len(others) == 4 {
			others = append(others, fmt.Sprintf("and %d more", len(blocked)-5))
			break
		}
		where := s.blockedOn(g)
		if op := s.OpOf(g); op != nil {
			where += " at " + op.Pos.String()
		}
		others = append(others, where)
	}
	if len(others) > 0 {
		err.Hint = "also blocked: " + strings.Join(others, "; ")
	} else {
		err.Hint = "nothing else can run, so nothing can ever wake it"
	}
	s.fail(Deadlock, err)
}

// Blocked is a goroutine a deadlock left waiting: what it waits for, in
// words, and the scenario line it waits at.
type Blocked struct {
	G   GID
	Why string
	Pos Pos
}

// waitState appends, in brackets, what the object a goroutine waits on at
// l holds now: for a deadlock report.
func (s *Machine) waitState(b []byte, l Loc) []byte {
	if wp := placeOf(l.Kind); wp != nil {
		return append(wp.state(s, append(b, " ("...), l.ID), ')')
	}
	return b
}

// BlockedAtEnd lists the goroutines a deadlock left waiting, in goroutine
// order; nil unless the run ended in a deadlock.
func (s *Machine) BlockedAtEnd() []Blocked {
	if !s.ended || s.end.Reason != Deadlock {
		return nil
	}
	return s.blocked
}

// blockedOn says in words what a waiting goroutine waits for: in the
// words of the describer's park sentence (waitsOn), and what the object
// it waits on holds now. The semaphore's and the pool's sentences, and a
// wait for children, are older than that sentence; golden files hold
// their wording.
func (s *Machine) blockedOn(g *G) string {
	if placeOf(g.Where.Kind) != nil {
		b := NewDescriber(s.prog).quoted().waitsOn(appendf(nil, "%v is blocked ", g.ID), g.Where)
		return string(s.waitState(b, g.Where))
	}
	switch g.Where.Kind {
	case LocWait:
		if len(s.pools) > 0 {
			return fmt.Sprintf("%v is waiting for %d children (goroutines it started, pool tasks it submitted) to finish", g.ID, g.Children)
		}
		return fmt.Sprintf("%v is waiting for %d children to exit", g.ID, g.Children)
	case LocPoolWait:
		pl := &s.pools[g.Where.ID]
		return fmt.Sprintf("%v is waiting in Submit for a worker of pool %q (%d of %d busy, none idle)", g.ID, pl.Decl.Name, pl.Running, pl.Cap)
	case LocPoolIdle:
		return fmt.Sprintf("%v is an idle worker of pool %q waiting for a task", g.ID, s.pools[g.Where.ID].Decl.Name)
	case LocSem:
		sm := &s.sems[g.Where.ID]
		return fmt.Sprintf("%v is waiting to acquire semaphore %q (%d of %d taken)", g.ID, sm.Decl.Name, sm.Cur, sm.Decl.Size)
	case LocChanRecv, LocChanSend, LocGroupWait:
		return string(NewDescriber(s.prog).quoted().waitsOn(appendf(nil, "%v is blocked ", g.ID), g.Where))
	case LocSelect:
		// As the park sentence says it, then the wait reason Go's
		// traceback prints in the goroutine's header: [select].
		b := NewDescriber(s.prog).quoted().waitsOnSelect(appendf(nil, "%v is blocked ", g.ID), s.OpOf(g))
		return string(append(append(append(b, " ["...), g.WaitReason.String()...), ']'))
	}
	return fmt.Sprintf("%v is blocked (%v)", g.ID, g.WaitReason)
}
