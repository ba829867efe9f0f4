package gmp

import (
	"fmt"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Machine is a running simulation of the Go scheduler executing one
// program. It is a single-threaded state machine: Step advances it by one
// wake-up of one actor and reports what happened through the event sink.
// Clone copies all of it.
type Machine struct {
	prog *Program
	// bodies are the program's action lists, numbered for frames;
	// childBody gives, for each action in ops, the body a go, loop,
	// submit or group action starts. Both are built by New and never
	// change, so clones share them.
	bodies    [][]Op
	childBody []uint16
	// caseBody gives the body of each case of each select: a select's
	// childBody is where its cases' entries start.
	caseBody []uint16
	// ops lists every action, body by body; body b's actions start at
	// bodyStart[b]. A G names its current action by index (G.op).
	ops       []*Op
	bodyStart []int32
	// bodyLoop gives, for each body, the loop action that repeats it
	// (an index into ops plus one), or 0.
	bodyLoop []int32

	now    sim.Time
	rng    sim.Rand
	agenda sim.Agenda[wake]

	gs    gtable // indexed by GID; G0 is unused
	ps    []P
	ms    []*M
	sched Sched
	chans []Chan
	net   netpoller
	mon   Sysmon
	pools []Pool
	sems  []Sem
	// mutexes are the program's sync.Mutexes and RWMutexes, wgs its
	// WaitGroups, in declaration order.
	mutexes []Mutex
	wgs     []WaitGroup
	// objs are the declared objects of registered kinds (objkinds.go).
	objs []Obj
	// groups are the errgroups in use; freeChans the channels groups
	// made and gave back, for the next group to reuse.
	groups    []group
	freeChans []int32
	// selects are the goroutines parked in a select, or woken from one
	// and not yet through its pass 3 (select.go).
	selects []selWait
	// flags are the program's shared flags (Program.Flags).
	flags []bool
	// out is what the program printed (print.go).
	out output
	// poolBody and purgeBody are the bodies New makes up for each pool:
	// a worker's loop and the purge goroutine's work.
	poolBody, purgeBody []uint16

	stealOrder randomOrder
	live       int // goroutines not dead
	peakLive   int // the most goroutines alive at once
	// idleWhileRunnable is the work-conservation measure (workcons.go).
	idleWhileRunnable time.Duration
	ntimers           int // timers pending over all Ps
	work              workSet
	stealSteps        []int32 // scratch for victimsAhead

	// cpu is the kernel's scheduler under the Ms (cpus.go), nil when
	// every M that can run runs.
	cpu *cpuModel

	// Things a thread holds in its hands for a moment inside one step,
	// between two events: a P taken from its M and not yet handed to
	// another (takeP or entersyscallblock, then handoffp), and the G
	// kicked out of runnext on its way through runqputslow. Between steps
	// both are empty.
	held   PID
	kicked GID

	// tr is the tracer's goroutines, with Config.Tracer (tracer.go).
	tr tracer
	// wakeLead is how far along the wake-up startm makes now already is
	// (Config.TracerLead, tracerWakep); 0 but in the run's first wakep.
	wakeLead time.Duration
	// freshGs counts the fresh descriptors go statements have made, for
	// Costs.FreshSpans (malg.go).
	freshGs int

	emitted int
	steps   uint64
	// stopAt is the latest time a wake-up may run at (the horizon, or
	// Until when it is earlier) and stepLimit the most steps a run may
	// take: Step's bounds, computed once in New. A step ends in afterStep
	// once steps reaches slowAt (stepLimit, or 0 when every step may
	// sweep the invariants, Config.Check) or emitted lastEvent (one
	// event before MaxEvents, for the event that says the run stops).
	stopAt    sim.Time
	stepLimit uint64
	slowAt    uint64
	lastEvent int
	// sinceCheck counts the steps since the last invariant sweep (Check).
	sinceCheck int
	// lastOp is the action the last step ran, named when the step limit
	// ends a run that emits nothing.
	lastOp *Op
	// blocked are the goroutines a deadlock left waiting (checkdead).
	blocked []Blocked
	// causes says which event caused each event (cause.go).
	causes causes
	sink   func(Event)
	// sinkRef is a sink that takes each event by pointer, to cur
	// (SetEventSink): an event handed over by value was copied twice
	// more on its way to a writer, once into the call and once out of
	// a method value's wrapper, 112 bytes each time.
	sinkRef func(*Event)
	cur     Event
	// pending holds the events New emits (main starting) until the first
	// sink is set, so that a sink sees every event Emitted counts.
	pending  []Event
	starting bool
	// quiet says that nothing reads the events: no sink, no causes, and
	// New's start (whose events wait in pending) is over. Then emitting
	// is counting, and the hottest emitters count without building the
	// event (counted): with --format none and in the benchmarks, the
	// events of a step, made and handed over only to be dropped, were a
	// twentieth of the model's instructions. setQuiet keeps it.
	quiet bool
	// acting is the M whose step is running (NoM for sysmon, a signal or
	// a timer of nobody's), and lateMs counts the Ms woken late behind a
	// running thread (idlewake.go).
	acting MID
	// wakeCalls is what the acting M's step has spent waking parked Ms
	// (Costs.WakeCall): its next step comes that much later (startm,
	// payWakeCalls).
	wakeCalls time.Duration
	lateMs    int
	trace     func(string) // schedtrace lines

	ended bool
	end   End
	// endMarked says main has done the end mark's work (Costs.EndMark).
	endMarked bool
	// cfg is last: a field added to Config moves no other field of
	// the Machine, whose hot ones share cache lines as they are laid out
	// (a Costs field made the 64-P JSON lines 7% slower by moving them).
	cfg Config
}

// End says how a run ended.
type End struct {
	Reason EndReason
	Err    error // nil when the program ended normally
}

// EndReason classifies the end of a run.
type EndReason uint8

const (
	Running      EndReason = iota // not ended
	MainReturned                  // main's program finished: the program exits
	UntilReached                  // the configured Until time was reached
	Deadlock                      // every goroutine is blocked for good
	Panicked                      // a goroutine panicked (close of closed channel, …)
	EventLimit                    // MaxEvents reached without an end
	Invariant                     // Check found a broken invariant (a model bug)
	CenturyLimit                  // the clock reached Config.Horizon (MaxSimTime) without an end
)

// endReasonWords is how a run's end reads in the trace's end line, the
// JSONL end record (docs/jsonl.md lists them) and every summary.
var endReasonWords = [...]string{
	Running:      "running",
	MainReturned: "main returned",
	UntilReached: "until reached",
	Deadlock:     "deadlock",
	Panicked:     "panic",
	EventLimit:   "event limit",
	Invariant:    "invariant violated",
	CenturyLimit: "century limit",
}

// EndReasons lists every reason a run can end with, Running excluded.
func EndReasons() []EndReason {
	rs := make([]EndReason, 0, len(endReasonWords)-1)
	for r := MainReturned; int(r) < len(endReasonWords); r++ {
		rs = append(rs, r)
	}
	return rs
}

func (r EndReason) String() string {
	if int(r) < len(endReasonWords) {
		return endReasonWords[r]
	}
	return fmt.Sprintf("EndReason(%d)", uint8(r))
}

// mStep is what an M does when its pending wake fires.
type mStep uint8

const (
	stepNone          mStep = iota
	stepRunG                // continue the current G's program
	stepCPUDone             // the G's compute stretch is over
	stepChanWorkDone        // a channel operation's work is done: it takes effect
	stepGoCreate            // a go statement's new descriptor is allocated: go-create
	stepSchedule            // schedule(): find the next G
	stepSyscallDone         // the system call returns
	stepStealResume         // the usleep(3) in runqgrab is over
	stepNetpollDone         // blocking netpoll returns
	stepStart               // woken by startm, or a new thread starts: take nextp
	stepWrite               // a print's formatting is done: the write system call
	stepGoyield             // a handoff's wake-up calls are made: the releaser yields
	stepGoexit              // an ending goroutine's wake-up calls are made: it ends
	stepPoolAfterTask       // a task's wake-up calls are made: its worker goes on
)

type wakeKind uint8

const (
	wakeM        wakeKind = iota + 1 // an M continues
	wakeSysmon                       // sysmon's sleep ends
	wakeSignal                       // a preemption signal reaches its thread
	wakeNetReady                     // a network wait's fd becomes ready
	wakeCPU                          // a CPU's scheduler tick (m holds the CPU's number; cpus.go)
)

// wake is an agenda entry. gen makes it void once its target has moved on.
type wake struct {
	kind wakeKind
	m    MID
	g    GID
	gen  uint32
}

// New builds a machine for prog. The run starts with main (G1) running on
// P0 and M0, sysmon on M1, and the other Ps idle.
func New(cfg Config, prog *Program) (*Machine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxEvents == 0 {
		cfg.MaxEvents = DefaultMaxEvents
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = MaxSimTime
	}
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	s := &Machine{
		cfg:        cfg,
		stopAt:     sim.Time(cfg.Horizon),
		stepLimit:  uint64(cfg.MaxEvents) * stepsPerEvent,
		lastEvent:  cfg.MaxEvents - 1,
		prog:       prog,
		rng:        sim.NewRand(cfg.Seed),
		stealOrder: newRandomOrder(cfg.Procs),
		work:       newWorkSet(cfg.Procs),
	}
	if len(prog.Chans) > maxChans {
		return nil, fmt.Errorf("the program declares %d channels; the model allows %d", len(prog.Chans), maxChans)
	}
	if cfg.Until > 0 && cfg.Until < cfg.Horizon {
		s.stopAt = sim.Time(cfg.Until)
	}
	if !cfg.Check {
		s.slowAt = s.stepLimit
	}
	if _, err := s.indexBodies(prog.Main); err != nil {
		return nil, err
	}
	for pi, d := range prog.Pools {
		s.pools = append(s.pools, newPool(d))
		wb, err := s.indexBodies([]Op{{Kind: opPoolWorker, Pool: pi, Pos: d.Pos}})
		if err != nil {
			return nil, err
		}
		pb, err := s.indexBodies([]Op{{Kind: opPoolPurge, Pool: pi, Pos: d.Pos}})
		if err != nil {
			return nil, err
		}
		s.poolBody = append(s.poolBody, wb)
		s.purgeBody = append(s.purgeBody, pb)
	}
	for _, d := range prog.Sems {
		s.sems = append(s.sems, Sem{Decl: d})
	}
	for _, d := range prog.Mutexes {
		s.mutexes = append(s.mutexes, Mutex{Decl: d})
	}
	for _, d := range prog.WaitGroups {
		s.wgs = append(s.wgs, WaitGroup{Decl: d})
	}
	for _, d := range prog.Objects {
		s.objs = append(s.objs, Obj{Decl: d})
	}
	s.flags = make([]bool, len(prog.Flags))
	s.starting = true
	defer func() {
		s.starting = false
		s.setQuiet()
	}()
	// G0, main, and the goroutines the program says it starts.
	ids := 2 + goroutinesIn(prog.Main, maxPresizedIDs)
	s.gs.reserveIDs(ids)
	s.gs.reserveG0()
	if !cfg.NoCauses {
		s.causes.on = true
		s.gs.trackCauses()
	}
	for _, c := range prog.Chans {
		s.chans = append(s.chans, Chan{Name: c.Name, Cap: c.Cap})
	}
	s.sched.NetpollBlocked = NoM
	s.held = NoP
	s.acting = NoM
	for i := range cfg.Procs {
		s.ps = append(s.ps, P{ID: PID(i), Status: Pidle, M: NoM})
	}
	m0 := s.newM(MRunning)
	s.mon.M = s.newM(MSysmon).ID
	if cfg.WarmStart {
		s.warmStart()
	}
	// procresize makes every P but the caller's idle, pushing them in
	// ascending order, so the highest-numbered P is at the head (R11.4).
	for i := 1; i < cfg.Procs; i++ {
		s.pidleput(&s.ps[i])
	}
	s.acquirepSilently(m0, &s.ps[0])

	main, _ := s.allocG(NoG, s.gs.newDesc())
	main.pushFrame(frame{body: 0}) // depth 1 of MaxLoopDepth+1: cannot fail
	s.live++
	s.peakLive = 1
	if cfg.Tracer {
		if err := s.startTracer(); err != nil {
			return nil, err
		}
	}
	s.execute(m0, pick{g: main.ID, rule: RuleMainStart}, main)

	s.startSysmon()
	if cfg.CPUs > 0 || cfg.Load > 0 {
		s.startCPUs()
	}
	s.tracerWakep()
	return s, nil
}

// SetSink sets the function that receives every event. The first sink
// set on a new machine also receives the events of its start.
func (s *Machine) SetSink(f func(Event)) {
	s.sink, s.sinkRef = f, nil
	s.setQuiet()
	if f != nil {
		for _, e := range s.pending {
			f(e)
		}
		s.pending = nil
	}
}

// SetEventSink is SetSink for a sink that takes each event by pointer:
// the pointer is to the machine's own copy, which the next event
// overwrites, so f must not keep it or change what it points to. It
// replaces a sink set by SetSink, and SetSink replaces it.
func (s *Machine) SetEventSink(f func(*Event)) {
	s.sink, s.sinkRef = nil, f
	s.setQuiet()
	if f != nil {
		for i := range s.pending {
			f(&s.pending[i])
		}
		s.pending = nil
	}
}

// SetSchedTraceSink sets the function that receives schedtrace lines
// (Config.SchedTrace).
func (s *Machine) SetSchedTraceSink(f func(string)) { s.trace = f }

// Step advances the simulation by one wake-up and reports whether the run
// goes on. A step emits zero or more events.
//
// Step runs once a wake-up, millions of times a run, so what it tests
// on every step is folded into comparisons against bounds New computes
// once (stopAt, lastEvent, slowAt); the rare cases (a stop, a limit,
// invariant sweeps) go to stopBefore and afterStep, which make the same
// decisions in the same order as one long list of tests would.
func (s *Machine) Step() bool {
	if s.ended {
		return false
	}
	at, w, ok := s.agenda.PopBy(s.stopAt)
	if !ok {
		return s.stopBefore()
	}
	s.steps++
	if s.cfg.MeasureIdle && at > s.now {
		s.accountIdle(at)
	}
	s.now = at
	switch w.kind {
	case wakeM:
		m := s.ms[w.m]
		// With CPUs modelled, a thread without one waits (cpus.go).
		if w.gen == m.gen && s.cpuAdmit(m) {
			next := m.next
			m.next = stepNone
			s.acting = m.ID
			s.runM(m, next)
			s.acting = NoM
			s.payWakeCalls(m)
			s.cpuSettle(m)
		}
	case wakeSysmon:
		if w.gen == s.mon.gen && s.cpuAdmit(s.ms[s.mon.M]) {
			s.sysmon()
			s.cpuSettle(s.ms[s.mon.M])
		}
	case wakeSignal:
		if s.cpuAdmitSignal(w) {
			s.preemptSignal(w.m, w.g, w.gen)
			s.cpuSettle(s.ms[w.m])
		}
	case wakeNetReady:
		s.netReady(w.g)
	case wakeCPU:
		s.cpuTick(int32(w.m), w.gen)
	}
	if s.ended || s.emitted >= s.lastEvent || s.steps >= s.slowAt {
		return s.afterStep()
	}
	s.checkdead()
	return !s.ended
}

// stopBefore is Step when the first wake-up is not due by stopAt: the
// agenda is empty (sysmon always has a wake pending, so this is a model
// bug), or the wake-up lies past the horizon or the Until time.
func (s *Machine) stopBefore() bool {
	at, _, ok := s.agenda.Peek()
	switch {
	case !ok:
		s.fail(Invariant, fmt.Errorf("nothing left on the agenda at %v", s.now))
	case at > sim.Time(s.cfg.Horizon):
		s.finish(CenturyLimit, s.horizonError(), RuleUntil)
	default: // at > Until
		s.now = sim.Time(s.cfg.Until)
		s.finish(UntilReached, nil, RuleUntil)
	}
	return false
}

// afterStep is the end of a step that may end the run or sweeps the
// invariants: the dead-lock check, the sweep, the limits on events and
// steps, and the sweep of the last state, in that order.
func (s *Machine) afterStep() bool {
	if !s.ended {
		s.checkdead()
	}
	if !s.ended && s.cfg.Check && s.checkDue() {
		if err := s.CheckInvariants(); err != nil {
			s.fail(Invariant, err)
		}
	}
	// The event that says the run stops is one of its MaxEvents, so that
	// the limit, the count of events and the message give one number.
	if !s.ended && s.emitted+1 >= s.cfg.MaxEvents {
		s.finish(EventLimit, fmt.Errorf("stopped after %d events at %v without an end%s: raise the limit with --max-events or max_events: in the file, or stop the run earlier with --until", s.emitted+1, s.now, s.spinNote()), RuleUntil)
	}
	if !s.ended && s.steps >= s.stepLimit {
		s.finish(EventLimit, s.stepLimitError(), RuleUntil)
	}
	if s.ended && s.cfg.Check && s.end.Reason != Invariant {
		// The last state is always swept, whatever the spacing.
		if err := s.CheckInvariants(); err != nil {
			s.end = End{Reason: Invariant, Err: err}
		}
	}
	return !s.ended
}

// Run steps until the run ends and returns how it ended.
func (s *Machine) Run() End {
	for s.Step() {
	}
	return s.end
}

func (s *Machine) runM(m *M, next mStep) {
	switch next {
	case stepRunG:
		s.runG(m)
	case stepCPUDone:
		g := m.g
		g.inCPU = false
		g.CPULeft = 0
		s.runG(m)
	case stepChanWorkDone:
		// A request that came during the work waits for the next call's
		// prologue, or is lost if the operation parks (chan.go).
		g := s.g(m.CurG)
		s.chanop(m, g, s.OpOf(g))
	case stepGoCreate:
		s.goCreate(m)
	case stepSchedule:
		s.schedule(m)
	case stepSyscallDone:
		s.exitsyscall(m)
	case stepStealResume:
		m.Backoff = false
		s.schedule(m)
	case stepNetpollDone:
		s.schedule(m)
	case stepStart:
		s.mstart(m)
	case stepWrite:
		s.write(m)
	case stepGoyield:
		s.goyield(m, s.g(m.CurG))
	case stepGoexit:
		s.gdestroy(m, s.g(m.CurG))
	case stepPoolAfterTask:
		g := s.g(m.CurG)
		s.poolAfterTask(m, g, s.OpOf(g))
	}
}

// wakeMAt makes m continue with next at time at, voiding any earlier
// pending wake of m.
func (s *Machine) wakeMAt(m *M, at sim.Time, next mStep) {
	m.gen++
	m.next = next
	m.wakeAt = at
	s.agenda.Push(at, wake{kind: wakeM, m: m.ID, gen: m.gen})
	s.cpuNoteWake(m)
}

func (s *Machine) after(d time.Duration) sim.Time { return s.now.Add(d) }

// usleep is how long a usleep(d) that m begins now really lasts: the
// kernel's timer slack lengthens every sleep, by more for a long one and
// by less for a long one beside work (sleepslack.go), and with noise the
// thread's wake-up after the timer fires comes on top (Costs.UsleepWake).
func (s *Machine) usleep(m MID, d time.Duration) time.Duration {
	return s.sleepFor(d, s.longBesideWork(m, d))
}

// sleepFor is how long a sleep of d really lasts, beside work (busy) or
// not.
func (s *Machine) sleepFor(d time.Duration, busy bool) time.Duration {
	k := &s.cfg.Costs
	if !s.cfg.Noise {
		return d + k.sleepSlack(d, busy)
	}
	return s.late(d+k.sleepSlack(d, busy)+k.UsleepWake, k.UsleepJitter)
}

// setQuiet sets quiet from what reads the events. The tracer's
// buffers read them too (tracer.go).
func (s *Machine) setQuiet() {
	s.quiet = s.sink == nil && s.sinkRef == nil && !s.starting && !s.causes.on && !s.tr.on
}

// counted is emit for a machine whose events nobody reads: it counts the
// event and reports true, and the caller builds no event. Otherwise it
// reports false, and the caller emits. The arguments of an event a
// caller skips this way must have no effect of their own.
func (s *Machine) counted() bool {
	if s.quiet {
		s.emitted++
		return true
	}
	return false
}

// emit stamps e with the time and its cause and hands it to what reads
// the events. It takes the caller's event by pointer, and stamps it there:
// an event is over a hundred bytes, and passed by value it was copied
// once more on each of a run's million events (BenchmarkRunParts: the
// events part 90 -> 85 ns/event). The caller's event does not escape;
// sinkRef gets the machine's own copy.
func (s *Machine) emit(e *Event) {
	e.T = s.now
	e.Cause = noCause
	if s.causes.on {
		e.Cause = s.causes.causeOf(&s.gs, e, int32(s.emitted))
	}
	s.emitted++
	if s.tr.on {
		s.traceEvent(e)
	}
	switch {
	case s.sinkRef != nil:
		s.cur = *e
		s.sinkRef(&s.cur)
	case s.sink != nil:
		s.sink(*e)
	case s.starting:
		s.pending = append(s.pending, *e)
	}
}

// finish ends the run. err is nil for a normal end.
func (s *Machine) finish(r EndReason, err error, rule Rule) {
	if s.ended {
		return
	}
	s.ended = true
	s.end = End{Reason: r, Err: err}
	if rule != RuleNone {
		s.emit(&Event{Kind: KindProgram, Rule: rule, P: NoP, M: NoM, N: s.live})
	}
}

func (s *Machine) fail(r EndReason, err error) {
	rule := RuleDeadlock
	switch r {
	case Panicked:
		rule = RulePanic
	case Invariant, EventLimit, CenturyLimit:
		rule = RuleUntil
	}
	s.finish(r, err, rule)
}

func (s *Machine) newM(state MState) *M {
	m := &M{ID: MID(len(s.ms)), State: state, P: NoP, NextP: NoP, OldP: NoP, beside: NoM, takesCPUOf: NoM}
	s.ms = append(s.ms, m)
	return m
}

// allocG makes a goroutine on descriptor desc and returns it with the
// goroutine that used the descriptor before (NoG for a fresh one).
func (s *Machine) allocG(parent GID, desc int32) (*G, GID) {
	return s.gs.add(G{Parent: parent, M: NoM, Desc: desc, Runnable: s.now}, s.now)
}

func (s *Machine) g(id GID) *G { return s.gs.at(id) }
func (s *Machine) p(id PID) *P { return &s.ps[id] }
func (s *Machine) m(id MID) *M { return s.ms[id] }

// draw returns a duration, drawing it from the seed if it is random.
func (s *Machine) draw(d Dur) time.Duration {
	switch d.Kind {
	case DurUniform:
		if d.B <= d.A {
			return d.A
		}
		return d.A + time.Duration(s.rng.Int63n(int64(d.B-d.A)+1))
	case DurExp:
		v := float64(s.rng.ExpFloat64()) * float64(d.A)
		return time.Duration(v + 0.5)
	}
	return d.A
}

// Clone returns an independent copy of the whole simulation. The copy has
// no sinks: events it produces go nowhere until SetSink is called.
func (s *Machine) Clone() *Machine {
	c := *s
	c.sink, c.sinkRef = nil, nil
	c.setQuiet()
	c.trace = nil
	c.pending = nil
	c.agenda = s.agenda.Clone()
	c.gs = s.gs.clone()
	c.work = s.work.clone()
	c.stealSteps = nil // scratch: sharing it would tie the copies together
	c.ps = make([]P, len(s.ps))
	copy(c.ps, s.ps)
	for i := range c.ps {
		c.ps[i].GFree = append([]int32(nil), s.ps[i].GFree...)
		c.ps[i].timers = s.ps[i].timers.clone()
	}
	c.ms = make([]*M, len(s.ms))
	for i, m := range s.ms {
		cm := *m
		if cm.g != nil {
			cm.g = c.gs.at(cm.CurG) // the clone's own slot
		}
		c.ms[i] = &cm
	}
	c.sched.Midle = append([]MID(nil), s.sched.Midle...)
	c.sched.Pidle = append([]PID(nil), s.sched.Pidle...)
	c.sched.runq = s.sched.runq.clone()
	c.sched.GFree = append([]int32(nil), s.sched.GFree...)
	c.chans = make([]Chan, len(s.chans))
	for i, ch := range s.chans {
		ch.RecvQ = ch.RecvQ.clone()
		ch.SendQ = ch.SendQ.clone()
		c.chans[i] = ch
	}
	c.net = s.net.clone()
	c.pools = cloneEach(s.pools)
	c.sems = cloneEach(s.sems)
	c.mutexes = cloneEach(s.mutexes)
	c.wgs = cloneEach(s.wgs)
	c.objs = cloneEach(s.objs)
	c.groups = append([]group(nil), s.groups...)
	for i := range c.groups {
		c.groups[i].wait = s.groups[i].wait.clone()
	}
	c.flags = append([]bool(nil), s.flags...)
	c.out = s.out.clone()
	c.freeChans = append([]int32(nil), s.freeChans...)
	c.selects = append([]selWait(nil), s.selects...)
	c.cpu = s.cpu.clone()
	return &c
}

// Weight is the cost of a Clone in units of one step's replay, for the
// spacing of checkpoints (sim.Weigher). A clone copies every descriptor,
// and copying one costs about as much as replaying a step.
func (s *Machine) Weight() int { return int(s.gs.ndesc) + 64*len(s.ps) }

// Steps is the number of steps taken. Events emitted by one Step share a
// step number; those New emits belong to step 0.
func (s *Machine) Steps() uint64 { return s.steps }

// Emitted is the number of events emitted since the start of the run.
func (s *Machine) Emitted() int { return s.emitted }

// Now is the current simulated time.
func (s *Machine) Now() sim.Time { return s.now }

// Config returns the configuration the machine runs with.
func (s *Machine) Config() Config { return s.cfg }

// OpOf returns the action g is executing or parked in (nil before its
// first action).
func (s *Machine) OpOf(g *G) *Op {
	if g.op == 0 {
		return nil
	}
	return s.ops[g.op-1]
}

// Program returns the program being run.
func (s *Machine) Program() *Program { return s.prog }

// Ended reports whether the run is over, and End how it ended.
func (s *Machine) Ended() bool { return s.ended }
func (s *Machine) End() End    { return s.end }

// Procs is GOMAXPROCS.
func (s *Machine) Procs() int { return len(s.ps) }

// P returns P id. The result must be treated as read-only.
func (s *Machine) P(id PID) *P { return &s.ps[id] }

// NumM is the number of threads ever created (sysmon included).
func (s *Machine) NumM() int { return len(s.ms) }

// M returns M id (read-only).
func (s *Machine) M(id MID) *M { return s.ms[id] }

// NumG is one more than the highest goroutine id.
func (s *Machine) NumG() int { return s.gs.len() }

// G returns goroutine id (read-only). A goroutine that exited long ago,
// whose descriptor another goroutine now uses, comes back as a dead G
// that keeps only its parent and creation time.
func (s *Machine) G(id GID) *G {
	if g := s.gs.current(id); g != nil {
		return g
	}
	return s.gs.ghost(id)
}

// PeakLive is the most goroutines that were alive at once.
func (s *Machine) PeakLive() int { return s.peakLive }

// PeakRunq is the most Gs any P's ring held at once.
func (s *Machine) PeakRunq() int {
	peak := 0
	for i := range s.ps {
		peak = max(peak, int(s.ps[i].runq.peak))
	}
	return peak
}

// PeakGlobal is the most Gs the global run queue held at once.
func (s *Machine) PeakGlobal() int { return s.sched.runq.peak }

// Created is when goroutine id was created.
func (s *Machine) Created(id GID) sim.Time { return s.gs.rec(id).created() }

// Live is the number of goroutines that have not exited.
func (s *Machine) Live() int { return s.live }

// Descriptors is the number of g descriptors allocated (the runtime's
// allgs): live goroutines plus the dead ones cached on free lists.
func (s *Machine) Descriptors() int { return int(s.gs.ndesc) }

// Sched returns the global scheduler state (read-only).
func (s *Machine) Sched() *Sched { return &s.sched }

// Chans returns the channels (read-only): those the program declares,
// then those errgroups made.
func (s *Machine) Chans() []Chan { return s.chans }

// Pools returns the pools (read-only), in declaration order.
func (s *Machine) Pools() []Pool { return s.pools }

// Sems returns the semaphores (read-only), in declaration order.
func (s *Machine) Sems() []Sem { return s.sems }

// Mutexes returns the mutexes and rwmutexes (read-only), in declaration
// order.
func (s *Machine) Mutexes() []Mutex { return s.mutexes }

// WaitGroups returns the wait groups (read-only), in declaration order.
func (s *Machine) WaitGroups() []WaitGroup { return s.wgs }

// SysmonState returns sysmon's state (read-only).
func (s *Machine) SysmonState() *Sysmon { return &s.mon }

// NetWaiters returns the goroutines parked on the network, with when their
// fd becomes (or became) ready, in the order they parked.
func (s *Machine) NetWaiters() []NetWait { return append([]NetWait(nil), s.net.waiting...) }

// cloneEach copies a slice of the declared objects, each by its own clone
// (its wait queue and whatever else it must not share with the original).
func cloneEach[T any, PT interface {
	*T
	clone() T
}](objs []T) []T {
	out := make([]T, len(objs))
	for i := range objs {
		out[i] = PT(&objs[i]).clone()
	}
	return out
}
