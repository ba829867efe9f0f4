package gmp

import (
	"fmt"
	"time"
)

// This file runs goroutine programs: each action of a scenario is user
// code that ends up in one runtime entry point (newproc, gopark,
// entersyscall, chansend, …). The kinds of action are listed here, beside
// the switch that runs them, so that a new one is added in one file of
// the model (docs/extending.md).

// OpKind is the kind of a goroutine action.
type OpKind uint8

const (
	OpCPU     OpKind = iota + 1 // compute for a duration
	OpSyscall                   // a blocking system call
	OpSleep                     // time.Sleep
	OpNet                       // a network read that becomes ready after a duration
	OpGosched                   // runtime.Gosched
	OpGo                        // go statement(s)
	OpLoop                      // repeat a body
	OpSend                      // channel send
	OpRecv                      // channel receive
	OpClose                     // close a channel
	OpWait                      // wait until every goroutine this one started, and every task it submitted, has finished; or sync.WaitGroup.Wait
	OpExit                      // runtime.Goexit
	OpSubmit                    // submit tasks to a pool (pool.Submit)
	OpAcquire                   // acquire a weighted semaphore (semaphore.Weighted.Acquire)
	OpRelease                   // release a weighted semaphore
	OpGroup                     // errgroup: SetLimit, Go count times, Wait
	OpLock                      // sync.Mutex.Lock, or sync.RWMutex.Lock
	OpUnlock                    // sync.Mutex.Unlock, or sync.RWMutex.Unlock
	OpRLock                     // sync.RWMutex.RLock
	OpRUnlock                   // sync.RWMutex.RUnlock
	OpAdd                       // sync.WaitGroup.Add
	OpDone                      // sync.WaitGroup.Done
	OpSelect                    // a select statement (select.go)
	OpPrint                     // fmt.Println of a line: its formatting, then a write system call
	OpSet                       // set a shared flag (an atomic.Bool's Store(true))
	OpObj                       // an action on a declared object of a registered kind (objkinds.go): Op.Verb of Op.Obj

	// Actions New makes up: the code of the libraries a scenario uses,
	// run by the goroutines that call into them.
	opPoolWorker   // a pool worker's loop around the tasks it runs
	opPoolPurge    // the pool's purge, run by the goroutine its timer starts
	opGroupSend    // errgroup.Go's first half: send a token on the group's limit channel
	opGroupGo      // errgroup.Go's second half: wg.Add(1) and the go statement
	opGroupDone    // the end of an errgroup goroutine: free its slot, wg.Done
	opGroupWait    // errgroup.Wait
	opTraceWrite   // runtime/trace's writer writing a full buffer (tracer.go)
	opTraceWait    // runtime/trace's writer back in ReadTrace (tracer.go)
	opTraceAdvance // the trace's advancer handing the writer a generation (tracer.go)
)

var opNames = [...]string{
	OpCPU: "cpu", OpSyscall: "syscall", OpSleep: "sleep", OpNet: "net", OpGosched: "gosched",
	OpGo: "go", OpLoop: "loop", OpSend: "send", OpRecv: "recv", OpClose: "close",
	OpWait: "wait", OpExit: "exit", OpSubmit: "submit", OpAcquire: "acquire", OpRelease: "release",
	OpGroup: "group", OpLock: "lock", OpUnlock: "unlock", OpRLock: "rlock", OpRUnlock: "runlock", OpAdd: "add", OpDone: "done", OpSelect: "select",
	OpPrint: "print", OpSet: "set", OpObj: "object action",
	opPoolWorker: "pool worker", opPoolPurge: "pool purge", opGroupSend: "errgroup.Go", opGroupGo: "errgroup.Go",
	opGroupDone: "errgroup done", opGroupWait: "errgroup.Wait", opTraceWrite: "trace write", opTraceWait: "trace reader",
	opTraceAdvance: "trace advance",
}

// Actions lists the kinds of action a scenario can write, in declaration
// order: those declared before the ones New makes up for the libraries.
// Tests hold the scenario parser's table, the soak generator and the
// micro-programs to this list, so a new action cannot be left out of one.
func Actions() []OpKind {
	out := make([]OpKind, 0, opPoolWorker-OpCPU)
	for k := OpCPU; k < opPoolWorker; k++ {
		out = append(out, k)
	}
	return out
}

func (k OpKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// nextOp moves g to its next action and returns it, or nil when the
// program is over. Loops are unrolled here, so they cost nothing.
func (s *Machine) nextOp(g *G) *Op {
	wraps := 0 // passes of unbounded loops made in this call
	for g.depth > 0 {
		f := g.top()
		ops := s.bodies[f.body]
		if int(f.pc) >= len(ops) {
			switch {
			case f.left > 0:
				f.left--
				f.pc = 0
				continue
			case f.left == unboundedLoop && !s.loopDone(f.body):
				// for { … } and for !flag { … } go round again.
				wraps++
				if wraps > 1 {
					// A whole pass ran no action: the loop's body
					// calls nothing (for {}, for !done {}), and
					// the G spins at the loop (spin).
					return s.spinAt(g)
				}
				f.pc = 0
				continue
			}
			g.popFrame()
			continue
		}
		op := &ops[f.pc]
		g.op = s.bodyStart[f.body] + int32(f.pc) + 1
		switch op.Kind {
		case OpLoop:
			if op.Unbounded() {
				if !s.enterLoop(g, op) {
					return nil
				}
				continue
			}
			f.pc++
			if op.Count > 0 && len(op.Body) > 0 && !g.pushFrame(frame{body: s.childBody[g.op-1], left: int32(op.Count - 1)}) {
				s.fail(Panicked, &Error{Pos: op.Pos, Msg: fmt.Sprintf("loops nested more than %d deep in %v", MaxLoopDepth, g.ID),
					Hint: "flatten the loops, or start a goroutine for the inner ones"})
				return nil
			}
			continue
		case OpGo, OpSubmit:
			if op.Count <= 0 {
				f.pc++ // count: 0 starts or submits nothing
				continue
			}
			g.goRep++
			if int(g.goRep) >= op.Count {
				g.goRep = 0
				f.pc++
			}
			return op
		case opPoolWorker:
			// The top of a worker's loop: it stays here until the
			// worker stops.
			return op
		default:
			f.pc++
			return op
		}
	}
	return nil
}

// indexBodies numbers every list of actions in the program (main's, and
// each go or loop body), so that frames can name them with a small int,
// and records for each go or loop action the body it starts. It fails
// when the program is too big for a frame's 16-bit fields.
func (s *Machine) indexBodies(ops []Op) (uint16, error) {
	if len(s.bodies) >= maxBodies {
		return 0, &Error{Pos: posOf(ops), Msg: fmt.Sprintf("the program has more than %d go and loop bodies", maxBodies),
			Hint: "a scenario this big cannot be simulated; use count: and times: rather than repeating actions"}
	}
	if len(ops) > maxBodyOps {
		return 0, &Error{Pos: posOf(ops), Msg: fmt.Sprintf("a list of %d actions is longer than the %d the model allows", len(ops), maxBodyOps),
			Hint: "wrap repeated actions in a loop"}
	}
	id := uint16(len(s.bodies))
	s.bodies = append(s.bodies, ops)
	s.bodyLoop = append(s.bodyLoop, 0)
	first := len(s.ops)
	s.bodyStart = append(s.bodyStart, int32(first))
	for i := range ops {
		s.ops = append(s.ops, &ops[i])
		s.childBody = append(s.childBody, 0)
	}
	for i := range ops {
		op := &ops[i]
		if err := s.checkRefs(op); err != nil {
			return 0, err
		}
		var body []Op
		switch op.Kind {
		case OpGo:
			body = op.Body
			if op.WG > 0 {
				body = wgGoBody(op)
			}
		case OpLoop, OpSubmit:
			body = op.Body
		case OpObj:
			if body = s.objBody(op); body == nil {
				continue
			}
		case opGroupGo:
			body = groupTaskBody(op)
		case OpGroup:
			body = groupBody(op)
		case OpSelect:
			// Each case's body, numbered from childBody's entry in
			// caseBody (below maxBodies entries: one per body).
			start := len(s.caseBody)
			s.caseBody = append(s.caseBody, make([]uint16, len(op.Cases))...)
			for k := range op.Cases {
				b, err := s.indexBodies(op.Cases[k].Body)
				if err != nil {
					return 0, err
				}
				s.caseBody[start+k] = b
			}
			s.childBody[first+i] = uint16(start)
			continue
		default:
			continue
		}
		b, err := s.indexBodies(body)
		if err != nil {
			return 0, err
		}
		s.childBody[first+i] = b
		if op.Kind == OpLoop {
			s.bodyLoop[b] = int32(first + i + 1)
		}
	}
	return id, nil
}

// checkRefs rejects an action that names a channel, pool or semaphore the
// program does not declare. The scenario parser never builds one; a
// program built in code might.
func (s *Machine) checkRefs(op *Op) error {
	bad := func(what string, i, n int) error {
		return &Error{Pos: op.Pos, Msg: fmt.Sprintf("%s names %s %d, but the program declares %d", op.Kind, what, i, n)}
	}
	switch op.Kind {
	case OpSend, OpRecv, OpClose:
		if op.Chan < 0 || op.Chan >= len(s.prog.Chans) {
			return bad("channel", op.Chan, len(s.prog.Chans))
		}
	case OpObj:
		if err := s.checkObjRef(op); err != nil {
			return err
		}
	case OpSet:
		if op.Flag < 0 || op.Flag >= len(s.prog.Flags) {
			return bad("flag", op.Flag, len(s.prog.Flags))
		}
	case OpLoop:
		if op.Loop == LoopUntil && (op.Flag < 0 || op.Flag >= len(s.prog.Flags)) {
			return bad("flag", op.Flag, len(s.prog.Flags))
		}
		if op.Loop > LoopUntil {
			return &Error{Pos: op.Pos, Msg: fmt.Sprintf("loop of kind %d: want times, forever or until", op.Loop)}
		}
	case OpPrint:
		if len(op.Text) > MaxPrintText {
			return &Error{Pos: op.Pos, Msg: fmt.Sprintf("print of %d bytes: the model prints lines of at most %d", len(op.Text), MaxPrintText)}
		}
	case OpSubmit:
		if op.Pool < 0 || op.Pool >= len(s.prog.Pools) {
			return bad("pool", op.Pool, len(s.prog.Pools))
		}
	case OpAcquire, OpRelease:
		if op.Sem < 0 || op.Sem >= len(s.prog.Sems) {
			return bad("semaphore", op.Sem, len(s.prog.Sems))
		}
		if op.N < 1 {
			return &Error{Pos: op.Pos, Msg: fmt.Sprintf("%s of %d: the weight must be at least 1", op.Kind, op.N)}
		}
	case OpLock, OpUnlock, OpRLock, OpRUnlock:
		if op.Mutex < 0 || op.Mutex >= len(s.prog.Mutexes) {
			return bad("mutex", op.Mutex, len(s.prog.Mutexes))
		}
		if (op.Kind == OpRLock || op.Kind == OpRUnlock) && !s.prog.Mutexes[op.Mutex].RW {
			return &Error{Pos: op.Pos, Msg: fmt.Sprintf("%s names %s, a sync.Mutex: only an RWMutex has readers", op.Kind, s.prog.Mutexes[op.Mutex].Name)}
		}
	case OpAdd, OpDone, OpWait, OpGo:
		if op.WG < 0 || op.WG > len(s.prog.WaitGroups) || (op.WG == 0 && (op.Kind == OpAdd || op.Kind == OpDone)) {
			return bad("wait group", op.WG-1, len(s.prog.WaitGroups))
		}
	case OpSelect:
		return s.checkSelect(op)
	}
	return nil
}

// checkSelect rejects a select the model cannot run: too many cases, two
// defaults, a case of no kind or on a channel the program does not
// declare.
func (s *Machine) checkSelect(op *Op) error {
	if len(op.Cases) > MaxSelectCases {
		return &Error{Pos: op.Pos, Msg: fmt.Sprintf("a select of %d cases: the model allows %d, default included", len(op.Cases), MaxSelectCases)}
	}
	defaults := 0
	for _, c := range op.Cases {
		switch c.Dir {
		case SelectRecv, SelectSend:
			if c.Chan < 0 || c.Chan >= len(s.prog.Chans) {
				return &Error{Pos: c.Pos, Msg: fmt.Sprintf("a select case names channel %d, but the program declares %d", c.Chan, len(s.prog.Chans))}
			}
		case SelectAfter:
		case SelectDefault:
			if defaults++; defaults > 1 {
				return &Error{Pos: c.Pos, Msg: "a select has two defaults"}
			}
		default:
			return &Error{Pos: c.Pos, Msg: fmt.Sprintf("a select case of kind %d", c.Dir)}
		}
	}
	return nil
}

// groupBody is what a group action runs: errgroup.Go Count times, then
// Wait. Go is a token send on the group's limit channel and a go
// statement.
func groupBody(op *Op) []Op {
	goOne := []Op{
		{Kind: opGroupGo, Body: op.Body, Limit: op.Limit, Pos: op.Pos},
	}
	if op.Limit >= 0 {
		goOne = append([]Op{{Kind: opGroupSend, Limit: op.Limit, Pos: op.Pos}}, goOne...)
	}
	return []Op{
		{Kind: OpLoop, Count: op.Count, Body: goOne, Pos: op.Pos},
		{Kind: opGroupWait, Pos: op.Pos},
	}
}

// groupTaskBody is what a group's goroutine runs: the task, then done.
func groupTaskBody(op *Op) []Op {
	body := make([]Op, 0, len(op.Body)+1)
	body = append(body, op.Body...)
	// errgroup.Go defers done, so Goexit in the task still runs it.
	return append(body, Op{Kind: opGroupDone, Pos: op.Pos, Defer: true})
}

func posOf(ops []Op) Pos {
	if len(ops) > 0 {
		return ops[0].Pos
	}
	return Pos{}
}

// runG executes the running G's next action on m.
func (s *Machine) runG(m *M) {
	g := m.g
	if g.closedOn != 0 {
		s.gopanic(g, "send on closed channel "+s.chans[int(g.closedOn)-1].Name)
		return
	}
	if len(s.selects) > 0 && s.selectResume(m, g) {
		return // pass 3 of a select it was woken from
	}
	if g.CPULeft > 0 {
		s.runCPU(m, g)
		return
	}
	op := s.nextOp(g)
	if s.ended {
		return
	}
	s.lastOp = op
	if op != nil && g.Preempt && op.Kind.entersRuntime() {
		// A pending request is honoured at the prologue of the runtime
		// call the action makes (R7.2): the action runs when the G is
		// scheduled again.
		s.unreadOp(g, op)
		s.goschedImpl(m, g, RulePreemptSync)
		return
	}
	if op == nil {
		s.goexit(m, g, true)
		return
	}
	switch op.Kind {
	case OpCPU:
		d := s.draw(op.Dur)
		if d <= 0 {
			s.wakeMAt(m, s.now, stepRunG)
			return
		}
		// On a real machine a computation's wall time stretches a
		// little, and interrupts stall it now and then (noise.go).
		g.CPULeft = s.compute(d)
		s.runCPU(m, g)
	case OpSyscall:
		// A syscall action is what schedlab real makes a nanosleep
		// (Costs.SyscallSlack); a printed line's write and the tracer's
		// are writes, which the timer slack does not lengthen.
		d := s.draw(op.Dur)
		s.entersyscall(m, g, d+s.syscallSlack(m.ID, d), op.Block)
	case OpSleep:
		s.timeSleep(m, g, s.draw(op.Dur))
	case OpNet:
		s.netpollblock(m, g, s.draw(op.Dur))
	case OpGosched:
		s.goschedImpl(m, g, RuleGosched)
	case OpGo:
		if op.WG > 0 {
			s.wgAdd(m, g, op, 1) // wg.Go: Add(1), then the go statement
			if s.ended {
				return
			}
		}
		s.newproc(m, g, op)
	case OpSend, OpRecv, OpClose, OpSelect:
		// The channel's lock and the work under it come before the
		// operation's effect (chan.go); a select's, before its passes.
		s.wakeMAt(m, s.after(s.cfg.Costs.ChanOp), stepChanWorkDone)
	case OpWait:
		if op.WG > 0 {
			s.wgWait(m, g, op)
			return
		}
		s.waitChildren(m, g)
	case OpExit:
		s.goexit(m, g, false)
	case OpSubmit:
		s.poolSubmit(m, g, op)
	case OpAcquire:
		s.semAcquire(m, g, op)
	case OpRelease:
		s.semRelease(m, g, op)
	case OpGroup:
		s.groupStart(m, g, op)
	case OpLock:
		s.lock(m, g, op)
	case OpUnlock:
		s.unlock(m, g, op)
	case OpRLock:
		s.rlock(m, g, op)
	case OpRUnlock:
		s.runlock(m, g, op)
	case OpAdd, OpDone:
		delta := op.N
		if op.Kind == OpDone {
			delta = -1
		}
		if s.wgAdd(m, g, op, delta); !s.ended {
			s.continueAfter(m, s.cfg.Costs.ChanOp)
		}
	case OpPrint:
		s.fmtPrintln(m, g)
	case OpSet:
		s.storeFlag(m, g, op)
	case OpObj:
		s.objOp(m, g, op)
	case OpLoop:
		s.spin(m, g, op)
	case opGroupSend:
		s.groupSend(m, g)
	case opGroupGo:
		s.groupGo(m, g, op)
	case opGroupDone:
		s.groupDone(m, g)
	case opGroupWait:
		s.groupWait(m, g)
	case opPoolWorker:
		s.poolWorkerStep(m, g, op)
	case opPoolPurge:
		s.poolPurge(m, g, op)
	case opTraceWrite:
		s.traceWrite(m, g)
	case opTraceWait:
		s.traceWait(m, g)
	case opTraceAdvance:
		s.traceAdvance(m)
	default:
		s.gopanic(g, "unknown action "+op.Kind.String())
	}
}

// runCPU runs (or resumes) a compute action. Compute is user code, so the
// G is at a safe point: a pending preemption request takes effect before
// it starts (the synchronous path through the stack check, R7.2).
func (s *Machine) runCPU(m *M, g *G) {
	if g.Preempt {
		s.goschedImpl(m, g, RulePreemptSync)
		return
	}
	g.inCPU = true
	m.worked += g.CPULeft
	g.cpuEnd = s.now.Add(g.CPULeft)
	s.wakeMAt(m, g.cpuEnd, stepCPUDone)
}

// entersRuntime reports whether an action is a call into the runtime (or
// a library over it) whose function prologue checks for a pending
// preemption: newstack preempts there when the M holds no locks, which
// is before chansend or chanrecv lock the channel (stack.go newstack,
// proc.go gopreempt_m). Compute is user code, preempted asynchronously;
// gosched and exit leave the P anyway.
func (k OpKind) entersRuntime() bool {
	switch k {
	case OpSend, OpRecv, OpClose, OpGo, OpSleep, OpNet, OpSyscall, OpWait, OpSubmit, OpAcquire, OpRelease, OpGroup,
		OpLock, OpUnlock, OpRLock, OpRUnlock, OpAdd, OpDone, OpSelect, OpPrint, OpObj:
		return true
	}
	return false
}

// unreadOp puts back the action nextOp just returned, so that the next
// nextOp returns it again.
func (s *Machine) unreadOp(g *G, op *Op) {
	f := g.top()
	switch op.Kind {
	case OpGo, OpSubmit:
		if g.goRep == 0 {
			// nextOp finished the statement's repetitions and moved on.
			f.pc--
			g.goRep = int32(op.Count - 1)
		} else {
			g.goRep--
		}
	default:
		f.pc--
	}
}

// runDeferred is runtime.Goexit unwinding g's program: the deferred
// actions of its goroutine body (Op.Defer) still run, after which the
// goroutine ends. It reports whether there were any to run.
func (s *Machine) runDeferred(m *M, g *G) bool {
	if g.depth == 0 {
		return false
	}
	g.depth = 1 // the loops Goexit leaves
	f := g.top()
	ops := s.bodies[f.body]
	for i := int(f.pc); i < len(ops); i++ {
		if ops[i].Defer {
			f.pc, f.left = uint16(i), 0
			s.continueAfter(m, 0)
			return true
		}
	}
	return false
}

// continueAfter lets the running G go on with its next action once the
// runtime work of the current one (cost d) is done.
func (s *Machine) continueAfter(m *M, d time.Duration) {
	s.wakeMAt(m, s.after(d), stepRunG)
}

// enterScheduler is what follows a G parking: the M runs schedule(),
// whose decision comes after the context switch, longer after long user
// code (Costs.ParkGrowth).
func (s *Machine) enterScheduler(m *M) {
	s.enterSchedulerAfter(m, s.cfg.Costs.ParkGap(m.worked))
}

// enterSchedulerAfter is enterScheduler for a G that left its M in a way
// with a cost of its own (Costs.ScheduleExit, ScheduleYield): d, or
// Schedule where d is 0.
func (s *Machine) enterSchedulerAfter(m *M, d time.Duration) {
	if d == 0 {
		d = s.cfg.Costs.Schedule
	}
	m.worked = 0
	s.dropg(m)
	s.wakeMAt(m, s.after(d), stepSchedule)
}

// gopark parks g (R8.1): the caller has decided where it waits. The caller
// then does the park's unlock work and calls enterScheduler. d and n are
// details for the sentence: how long a sleep or read lasts, how many
// children a wait waits for, the worker or waiter number, the weight.
func (s *Machine) gopark(m *M, g *G, reason Reason, where Loc, d time.Duration, n int) {
	if !s.counted() {
		s.emit(&Event{Kind: KindGoBlock, Rule: RulePark, G: g.ID, P: m.P, M: m.ID,
			From: at(LocRunning, m.P), To: where, Reason: reason, Op: s.OpOf(g), Flag: g.Preempt, D: d, N: n})
	}
	g.Status = Gwaiting
	g.WaitReason = reason
	g.Where = where
	g.M = NoM
	g.inCPU = false
	s.dropg(m)
}

// ready makes a waiting g runnable in the runnext of runner, the P of the
// goroutine or M that wakes it (R8.2), and calls wakep. ev carries the
// rule and details; ready fills in the rest. g leaves the place it waits
// in (a timer heap, a channel's queue, the poller) after the event, like
// every change an event describes.
func (s *Machine) ready(m *M, runner *P, g *G, ev Event) {
	to := s.readyPlace(runner)
	if !s.counted() {
		ev.Kind = KindGoUnblock
		ev.G = g.ID
		ev.P = runner.ID
		ev.M = m.ID
		ev.From = g.Where
		ev.To = to
		if to.Kind == LocRunnext {
			ev.G3 = runner.Runnext
		}
		if ev.Op == nil {
			ev.Op = s.OpOf(g)
		}
		s.emit(&ev)
	}
	s.detach(g)
	g.Status = Grunnable
	g.WaitReason = NoReason
	g.Runnable = s.now
	s.putReady(runner, g, to)
	s.wakep()
}

// detach takes a waiting g out of the structure it waits in.
func (s *Machine) detach(g *G) {
	switch g.Where.Kind {
	case LocTimer:
		if tp := s.p(g.Where.P()); tp.timers.remove(g.ID) {
			s.ntimers--
			s.noteTimers(tp)
		}
	case LocNetpoll:
		s.netDetach(g.ID)
	default:
		s.unqueue(g.ID, g.Where)
	}
}

// without removes the first g from q, keeping the order of the rest.
func without(q []GID, g GID) []GID {
	for i, x := range q {
		if x == g {
			return append(q[:i], q[i+1:]...)
		}
	}
	return q
}

// gopanic ends the run: the program panicked. The position is the action
// of the goroutine that panicked.
func (s *Machine) gopanic(g *G, msg string) { s.die(g, "panic: "+msg) }

// fatal ends the run with an error no recover can catch: the runtime's
// fatal, which sync calls for an unlock of an unlocked mutex.
func (s *Machine) fatal(g *G, msg string) { s.die(g, "fatal error: "+msg) }

func (s *Machine) die(g *G, msg string) {
	var pos Pos
	if op := s.OpOf(g); op != nil {
		pos = op.Pos
	}
	s.fail(Panicked, &Error{Pos: pos, Msg: msg + " [" + g.ID.String() + "]"})
}

// waitChildren parks g until every goroutine it started has exited (a
// WaitGroup that each child marks done as its last act).
func (s *Machine) waitChildren(m *M, g *G) {
	if g.Children == 0 {
		s.continueAfter(m, s.cfg.Costs.ChanOp)
		return
	}
	s.gopark(m, g, ReasonWait, Loc{Kind: LocWait}, 0, int(g.Children))
	s.enterScheduler(m)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
