package gmp

import "fmt"

// Loops that end when a flag is set, or never (for !done { … }, for { … }),
// and the shared flags they read. A flag is an atomic.Bool: set: is its
// Store(true), which is no call into the runtime, and a loop reads it with
// Load, which the compiler makes a plain load. So the loop for !done {}
// calls no function at all, and the compiler puts no preemption check in
// it: the only thing that can stop the goroutine running it is sysmon's
// signal (asynchronous preemption, Go 1.14), and under the cooperative
// policy nothing can. A loop whose body calls a function (any other
// action: cpu: is a call to the work's function) checks at each call.

// unboundedLoop marks the frame of a loop that has no count
// (frame.left): it goes round until its flag is set, or for ever.
const unboundedLoop = -1

// enterLoop starts an unbounded loop op, the action g's top frame is at:
// a loop until a flag that is already set ends at once; otherwise its body
// gets a frame of its own. It reports false when the nesting is too deep,
// which ends the run.
func (s *Machine) enterLoop(g *G, op *Op) bool {
	f := g.top()
	f.pc++
	if op.Loop == LoopUntil && s.flags[op.Flag] {
		return true
	}
	if !g.pushFrame(frame{body: s.childBody[g.op-1], left: unboundedLoop}) {
		s.fail(Panicked, &Error{Pos: op.Pos, Msg: fmt.Sprintf("loops nested more than %d deep in %v", MaxLoopDepth, g.ID),
			Hint: "flatten the loops, or start a goroutine for the inner ones"})
		return false
	}
	return true
}

// loopDone reports whether the unbounded loop whose body is body has
// ended: its flag is set. A loop for ever never ends.
func (s *Machine) loopDone(body uint16) bool {
	op := s.ops[s.bodyLoop[body]-1]
	return op.Loop == LoopUntil && s.flags[op.Flag]
}

// spinAt leaves the body of the unbounded loop on g's top frame, which
// made a whole pass without an action, and returns the loop itself: g
// spins there (runG's case OpLoop). When it runs again it starts the
// loop afresh, which ends it if its flag is set by then.
func (s *Machine) spinAt(g *G) *Op {
	g.popFrame()
	f := g.top()
	f.pc--
	g.op = s.bodyStart[f.body] + int32(f.pc) + 1
	return s.ops[g.op-1]
}

// spin runs a loop that calls nothing: g computes, at an asynchronous
// safe point, with no end of its own. Its M has no wake: the G stops when
// a preemption signal lands (preemptSignal) or when a store to the flag
// it reads reaches it (storeFlag).
func (s *Machine) spin(m *M, g *G, op *Op) {
	g.inCPU = true
	g.CPULeft = 0
	m.gen++ // void any pending wake of m
	m.next = stepNone
}

// spinning reports whether g is running a loop that calls nothing.
func (s *Machine) spinning(g *G) bool {
	if !g.inCPU {
		return false
	}
	op := s.OpOf(g)
	return op != nil && op.Kind == OpLoop
}

// storeFlag is set: a store to a shared flag. A goroutine spinning on the
// flag on another thread sees it once the cache line reaches that CPU
// (about as long as a channel operation's lock), and leaves its loop; one
// that is not running sees it when it runs again.
func (s *Machine) storeFlag(m *M, g *G, op *Op) {
	s.flags[op.Flag] = true
	for _, om := range s.ms {
		if om.CurG == NoG || om.State != MRunning {
			continue
		}
		og := s.g(om.CurG)
		if og.Status != Grunning || !s.spinning(og) {
			continue
		}
		if lop := s.OpOf(og); lop.Loop == LoopUntil && lop.Flag == op.Flag {
			og.inCPU = false
			s.wakeMAt(om, s.after(s.cfg.Costs.ChanOp), stepRunG)
		}
	}
	s.continueAfter(m, 0)
}

// Flags returns the shared flags' values, in Program.Flags' order
// (read-only).
func (s *Machine) Flags() []bool { return s.flags }

// spinNote says, for a run stopped by a limit, which goroutine spins in
// a loop that calls nothing, the usual reason a run never ends: "" if
// none does.
func (s *Machine) spinNote() string {
	for _, m := range s.ms {
		if m.CurG == NoG {
			continue
		}
		g := s.g(m.CurG)
		if g.Status != Grunning || !s.spinning(g) {
			continue
		}
		op := s.OpOf(g)
		what := "for {}"
		if op.Loop == LoopUntil {
			what = "for !" + s.prog.Flags[op.Flag] + " {}"
		}
		note := fmt.Sprintf("; %v spins in the loop at %v (%s), which calls no function", g.ID, op.Pos, what)
		if s.cfg.Policy.Cooperative {
			note += ": without asynchronous preemption (what-if cooperative) nothing stops it, which is why Go 1.14 added the signal"
		}
		return note
	}
	return ""
}
