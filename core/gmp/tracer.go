package gmp

import "time"

// The tracer's goroutines. runtime.StartTrace starts two goroutines of the
// runtime's own beside the program's, and runtime/trace.Start a third;
// all three wake on their own, and a scheduler that runs the program runs
// them too.
//
// The reader of CPU-profile samples (runtime/tracecpu.go,
// traceStartReadCPU) sleeps 100ms on a timer, reads, and sleeps again,
// for as long as the trace runs. Its timer sits in the heap of the P it
// last ran on, so every ~100ms an idle machine's netpoller or a spinning
// M runs it there: the goroutine takes that P for a few microseconds,
// readies through wakep, and its start is one sysmon sees. Real traces
// show what that does: in pingpong-table's, the M that wakes for the
// reader on P0 wakes another for P1, which then runs its own timer rather
// than having it stolen; sixty timer-woken 9ms bursts are preempted 4-6
// times traced and 0-3 untraced.
//
// The advancer (trace.go, traceAdvancerState.start) computes a moment when
// it first runs and then sleeps a second (debug.traceadvanceperiod), wakes
// to cut a generation (traceAdvance: every thread's buffer flushed, every
// goroutine's status written), which takes a P for about 270µs, hands the
// writer what it flushed, and sleeps again.
//
// The writer, the goroutine runtime/trace.Start starts to carry the trace
// to its file, first writes the trace's header (a write of about 25µs),
// then waits in runtime.ReadTrace until a thread's trace buffer is full,
// and findRunnable runs it before anything else (traceReader) with a new
// time slice; it writes the buffer and waits again. A real trace of
// hog-pingpong shows it start every 11,544-11,547 of the scenario's
// events, 52 times in 100ms, for 25.7µs (median), 25.4µs of it the write:
// sysmon then never sees a slice reach 10ms, and the ping-pong pair is
// never preempted, where untraced (scripts/untraced) it is and the hog
// runs.
//
// At the start the three take a P for 30-60µs, on P0 after the scenario's
// first goroutine or on a P an idle M brings up for them: an M that blocks
// in netpoll after running them blocks that much later (timer-2p's first
// sleep fires ~110µs late in the real runs, the later ones ~70µs), and a P
// busy with them is no P for the scenario's goroutines.
//
// They come before the scenario: main makes runtime/trace.Start's go
// statements, and the first one's wakep wakes an idle thread for an idle
// P, some tens of microseconds before main's first act in the scenario
// (rtrace.Summary.TracerLead reads it from a real trace). The model
// starts them with the scenario, at 0, and Config.TracerLead says how far
// along that thread's wake-up is by then.
//
// schedlab verify compares the model with traced runs, so it turns the
// three on (Config.Tracer); no other command does. They are the
// runtime's, as the real ones are: no go statement of the scenario's
// creates them, they are nobody's children, and TracerGs names them so
// that a reader of the model's events can leave them out as the real
// trace's reader leaves out the runtime's goroutines (their numbers follow
// main's, and the scenario's goroutines come after them). The timers of
// the reader and the advancer are pending for as long as the program
// runs, so a traced program that deadlocks is never reported, by the
// runtime or the model: it runs on, its reader waking every 100ms.

const (
	// tracerPeriod is the reader's sleep (trace.cpuSleep.sleep(100e6)).
	tracerPeriod = 100 * time.Millisecond
	// tracerRead is what one wake-up of the reader computes, from its
	// start to its block: in real traces of pingpong-table (schedlab real
	// pingpong-table --runs 10 --emit DIR, load average about 4), 103
	// wake-ups, median 4.9µs (p10 2.7µs, p90 15.8µs), one every 100.25ms
	// (median; p10-p90 100.19-100.51ms), as the model's sleep, timer
	// lateness and read make it.
	tracerRead = 5 * time.Microsecond
	// traceBufEvents is how many of the scenario's scheduler events fill
	// one thread's trace buffer (64KiB), and traceWriteDur what the writer
	// takes to write one: schedlab real hog-pingpong --emit DIR, a
	// ping-pong's events, the writer starting every 11,544-11,547 of
	// them, its write 25.4µs (median of 52).
	traceBufEvents = 11545
	traceWriteDur  = 25 * time.Microsecond
	// advancerStart is what the advancer computes before each sleep, and
	// advancerPeriod the sleep; traceAdvanceDur is its cut of a
	// generation and traceFlushDur the writer's write of it. From the
	// real traces (schedlab real NAME --emit DIR, then schedlab trace
	// FILE): the advancer's first run, 0.4-7.6µs (median 1.0µs, 24 runs
	// of runnext, select-fanin, print-order-2p, timer-2p and
	// starved-sleeper; 20-57µs twice on a P just brought up); its cut at
	// 1s, 253-373µs (median 269µs, 8 runs of timer-bursts and
	// pingpong-table), then the writer's write, 44-69µs (median 45.5µs),
	// then the advancer again for 1.2-2.4µs before it sleeps.
	advancerStart   = time.Microsecond
	advancerPeriod  = time.Second
	traceAdvanceDur = 270 * time.Microsecond
	traceFlushDur   = 45 * time.Microsecond
)

// tracer is the state of Config.Tracer's goroutines.
type tracer struct {
	on             bool
	reader, writer GID
	// buf counts, by thread, the events in its trace buffer; full is how
	// many full buffers wait for the writer, flush whether one of them is
	// a generation's cut (traceFlushDur).
	buf   []int32
	full  int
	flush bool
}

// startTracer makes the tracer's goroutines as runtime/trace.Start,
// which main runs on P0 just before the scenario's first action, leaves
// them: made by go statements in the order reader, advancer, writer, so
// the writer, the last, is in P0's runnext and the other two in its ring,
// and the scenario's first go statement sends the writer to the ring
// behind them. Real traces show them so (schedlab real NAME --emit DIR):
// in runnext's, on one P, the three run after the scenario's first child
// and before its others; in timer-2p's and select-fanin's, on 2 Ps, the
// M woken for the idle P runs them there. A program whose run until stops
// is the exception: its main blocks at once, handing the stopping
// goroutine its channel, so the writer runs first and its header is
// written before the scenario's first action; it starts waiting for a
// full buffer. There, on one P, the reader and the advancer may not run
// at all: in hog-pingpong's real runs the ping-pong pair keeps the P
// through runnext for the whole 100ms, and the writer's new slices keep
// sysmon from preempting it. The go statements woke an idle P's M, which
// New does with wakep once the machine is up (tracerWakep).
func (s *Machine) startTracer() error {
	bodies := [3][]Op{
		{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
			{Kind: OpCPU, Dur: Fixed(tracerRead)},
			{Kind: OpSleep, Dur: Fixed(tracerPeriod)},
		}}},
		{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
			{Kind: OpCPU, Dur: Fixed(advancerStart)},
			{Kind: OpSleep, Dur: Fixed(advancerPeriod)},
			{Kind: OpCPU, Dur: Fixed(traceAdvanceDur)},
			{Kind: opTraceAdvance},
		}}},
		{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
			{Kind: opTraceWrite},
			{Kind: opTraceWait},
		}}},
	}
	var ids [3]GID
	pp := &s.ps[0]
	for i, ops := range bodies {
		body, err := s.indexBodies(ops)
		if err != nil {
			return err
		}
		g, _ := s.newproc1(pp, nil, body)
		ids[i] = g.ID
		writer := i == len(bodies)-1
		if writer && s.cfg.Until > 0 {
			g.Status, g.WaitReason, g.Where, g.M = Gwaiting, ReasonTraceReader, Loc{Kind: LocTraceWait}, NoM
			break
		}
		g.Status, g.M, g.Runnable = Grunnable, NoM, s.now
		s.runqputG(pp, g, writer) // the last made is in runnext
	}
	s.tr = tracer{on: true, reader: ids[0], writer: ids[2]}
	return nil
}

// tracerWakep is the wakep of the go statements that made the tracer's
// goroutines: an idle P's M spins to look for them.
func (s *Machine) tracerWakep() {
	if s.tr.on {
		s.wakeLead = s.cfg.TracerLead
		s.wakep()
		s.wakeLead = 0
	}
}

// MaxTracerLead bounds Config.TracerLead: a real program's main begins its
// scenario some tens of microseconds after runtime/trace.Start's go
// statements; a lead of more than a millisecond is a mistake.
const MaxTracerLead = time.Millisecond

// TracerGs are the tracer's goroutines (Config.Tracer), numbered after
// main: the first and how many, or NoG and 0. They are, in order, the
// CPU-sample reader, the advancer and the writer.
func (s *Machine) TracerGs() (first GID, n int) {
	if !s.tr.on {
		return NoG, 0
	}
	return s.tr.reader, 3
}

// traceEvent counts e in its thread's trace buffer if the real trace
// records such an event, and marks the buffer full when it is.
func (s *Machine) traceEvent(e *Event) {
	switch e.Kind {
	case KindGoCreate, KindGoStart, KindGoStop, KindGoBlock, KindGoUnblock, KindGoExit,
		KindSyscallEnter, KindSyscallExit, KindProcStart, KindProcStop, KindProcSteal:
	default:
		return
	}
	if e.M < 0 || e.G == s.tr.writer {
		return
	}
	for int(e.M) >= len(s.tr.buf) {
		s.tr.buf = append(s.tr.buf, 0)
	}
	if s.tr.buf[e.M]++; s.tr.buf[e.M] >= traceBufEvents {
		s.tr.buf[e.M] = 0
		s.tr.full++
	}
}

// traceReader is findRunnable's first choice when a trace buffer is full
// and the writer waits for one: the writer, with a new time slice.
func (s *Machine) traceReader(m *M) (pick, bool) {
	if s.tr.full == 0 {
		return pick{}, false
	}
	g := s.g(s.tr.writer)
	if g.Status != Gwaiting || g.Where.Kind != LocTraceWait {
		return pick{}, false // writing one already: it takes the next itself
	}
	s.tr.full--
	// findRunnable returns it with tryWakeP, and schedule calls wakep
	// before running it (R3.3 step 3, R3.1).
	defer s.wakep()
	s.emit(&Event{Kind: KindGoUnblock, Rule: RuleTraceReader, G: g.ID, P: m.P, M: m.ID, From: g.Where,
		To: Loc{Kind: LocPicked, ID: int32(m.ID)}})
	g.Status = Grunnable
	g.WaitReason = NoReason
	g.Runnable = s.now
	return pick{g: g.ID, rule: RuleTraceReader, from: Loc{Kind: LocTraceWait}}, true
}

// traceWrite is the writer's write to the trace's file: the header on its
// first run, then a full buffer, or a generation the advancer cut
// (traceFlushDur). A system call that keeps the P (a scenario's syscall
// action is a nanosleep in the real program, Costs.SyscallSlack; this is a
// write).
func (s *Machine) traceWrite(m *M, g *G) {
	d := traceWriteDur
	if s.tr.flush {
		d, s.tr.flush = traceFlushDur, false
	}
	s.entersyscall(m, g, d, false)
}

// traceAdvance is the end of the advancer's cut of a generation: every
// thread's buffer, full or not, is flushed, and what it flushed waits for
// the writer as a full buffer does, so the writer runs first at the next
// schedule (traceReader). The real advancer waits for that write before
// its last moment of work and its sleep; the model's goes on at once, its
// P time the same.
func (s *Machine) traceAdvance(m *M) {
	clear(s.tr.buf)
	s.tr.full++
	s.tr.flush = true
	s.continueAfter(m, 0)
}

// traceWait is the writer back in ReadTrace after a write: another full
// buffer is written at once, else it waits for one.
func (s *Machine) traceWait(m *M, g *G) {
	if s.tr.full > 0 {
		s.tr.full--
		s.continueAfter(m, 0)
		return
	}
	s.gopark(m, g, ReasonTraceReader, Loc{Kind: LocTraceWait}, 0, 0)
	s.enterScheduler(m)
}
