package gmp

import "time"

// The tracer's goroutines. A program that runtime/trace records runs a few
// goroutines of the runtime's own beside its own, and one of them wakes
// on its own: the reader of CPU-profile samples (runtime/tracecpu.go,
// traceStartReadCPU), which sleeps 100ms on a timer, reads, and sleeps
// again, for as long as the trace runs. Its timer sits in the heap of the
// P it last ran on, so every ~100ms an idle machine's netpoller or a
// spinning M runs it there: the goroutine takes that P for a few
// microseconds, readies through wakep, and its start is one sysmon sees.
// Real traces show what that does: in pingpong-table's, the M that wakes
// for the reader on P0 wakes another for P1, which then runs its own
// timer rather than having it stolen; sixty timer-woken 9ms bursts are
// preempted 4-6 times traced and 0-3 untraced.
//
// The other goroutine of the tracer that matters is its writer, the one
// runtime/trace.Start starts to carry the trace to its file: it waits in
// runtime.ReadTrace until a thread's trace buffer is full, and findRunnable
// runs it before anything else (traceReader) with a new time slice; it
// writes the buffer and waits again. A real trace of hog-pingpong shows it
// start every 11,544-11,547 of the scenario's events, 52 times in 100ms,
// for 25.7µs (median), 25.4µs of it the write: sysmon then never sees a
// slice reach 10ms, and the ping-pong pair is never preempted, where
// untraced (scripts/untraced) it is and the hog runs.
//
// schedlab verify compares the model with traced runs, so it turns both
// goroutines on (Config.Tracer); no other command does. They are the
// runtime's, as the real ones are: no go statement creates them, they are
// nobody's children, and TracerGs names them so that a reader of the
// model's events can leave them out as the real trace's reader leaves out
// the runtime's goroutines (their numbers follow main's, and the
// scenario's goroutines come after them). The reader's timer is pending
// for as long as the program runs, so a traced program that deadlocks is
// never reported, by the runtime or the model: it runs on, its reader
// waking every 100ms. The trace's advancer, which runs for a fraction of
// a microsecond at the start and then cuts a generation once a second, is
// not modelled.

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
)

// tracer is the state of Config.Tracer's goroutines.
type tracer struct {
	on             bool
	reader, writer GID
	// buf counts, by thread, the events in its trace buffer; full is how
	// many full buffers wait for the writer.
	buf  []int32
	full int
}

// startTracer makes the tracer's goroutines as runtime/trace.Start,
// which main runs on P0 just before the scenario's first action, leaves
// them. The reader is runnable in P0's ring, made by a go statement that
// nothing has run yet: it computes when its turn comes, then sleeps on
// the heap of the P it ran on. The writer waits for a full buffer. Real
// traces show them so (schedlab real NAME --emit DIR): in pingpong-table's,
// on 2 Ps, the reader runs on P0 after main first blocks, and its timer
// is P0's; in hog-pingpong's, on one P, the reader never runs in the
// 100ms: the ping-pong pair keeps the P through runnext, and the writer's
// new slices keep sysmon from preempting it. The writer's first run, the
// trace's header (a 20µs write), comes before the scenario's first action
// in a program whose run until stops (its main blocks at once, handing
// the stopping goroutine its channel, and the writer, the last goroutine
// made, runs first); in the others it waits in P0's ring, behind the
// reader, until its turn (runnext's real traces: after the first child).
// The model leaves that one write out: the time the runtime's goroutines
// hold the Ps is left out of the makespan and the P use on both sides.
// The go statements that made them woke an idle P's M, which New does
// with wakep once the machine is up (tracerWakep).
func (s *Machine) startTracer() error {
	rb, err := s.indexBodies([]Op{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
		{Kind: OpCPU, Dur: Fixed(tracerRead)},
		{Kind: OpSleep, Dur: Fixed(tracerPeriod)},
	}}})
	if err != nil {
		return err
	}
	wb, err := s.indexBodies([]Op{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
		{Kind: opTraceWrite},
		{Kind: opTraceWait},
	}}})
	if err != nil {
		return err
	}
	pp := &s.ps[0]
	r, _ := s.newproc1(pp, nil, rb)
	r.Status, r.M, r.Runnable = Grunnable, NoM, s.now
	s.runqputG(pp, r, false)
	w, _ := s.newproc1(pp, nil, wb)
	w.Status, w.WaitReason, w.Where, w.M = Gwaiting, ReasonTraceReader, Loc{Kind: LocTraceWait}, NoM
	s.tr = tracer{on: true, reader: r.ID, writer: w.ID}
	return nil
}

// tracerWakep is the wakep of the go statements that made the tracer's
// goroutines: an idle P's M spins to look for them.
func (s *Machine) tracerWakep() {
	if s.tr.on {
		s.wakep()
	}
}

// TracerGs are the tracer's goroutines (Config.Tracer), numbered after
// main: the first and how many, or NoG and 0.
func (s *Machine) TracerGs() (first GID, n int) {
	if !s.tr.on {
		return NoG, 0
	}
	return s.tr.reader, 2
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

// traceWrite is the writer's write of a full buffer to the trace's file: a
// system call of traceWriteDur, which keeps the P (a scenario's syscall
// action is a nanosleep in the real program, Costs.SyscallSlack; this is a
// write).
func (s *Machine) traceWrite(m *M, g *G) {
	s.entersyscall(m, g, traceWriteDur, false)
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
