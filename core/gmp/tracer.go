package gmp

import "time"

// The tracer's goroutine. A program that runtime/trace records runs a few
// goroutines of the runtime's own beside its own, and one of them wakes
// on its own: the reader of CPU-profile samples (runtime/tracecpu.go,
// traceStartReadCPU), which sleeps 100ms on a timer, reads, and sleeps
// again, for as long as the trace runs. Its timer sits in the heap of the
// P it last ran on, so every ~100ms an idle machine's netpoller or a
// spinning M runs it there: the goroutine takes that P for a few
// microseconds, readies through wakep, and its start is one sysmon sees.
// Real traces show what that does: a ping-pong of 100ms sleeps on 2 Ps
// stays on one P because the M that wakes for the reader wakes another
// for the other P, which then runs its own timer rather than having it
// stolen; sixty timer-woken 9ms bursts are preempted 4-5 times traced and
// 0-3 untraced.
//
// schedlab verify compares the model with traced runs, so it turns this
// goroutine on (Config.Tracer); no other command does. It is a goroutine
// of the runtime, as the real one is: no go statement creates it, it is
// nobody's child, and a trace of the model names it by TracerG so that a
// reader can leave it out as the real trace's reader leaves out the
// runtime's goroutines. Its timer is pending for as long as the program
// runs, so a traced program that deadlocks is never reported, by the
// runtime or the model: it runs on, its reader waking every 100ms. The trace's other goroutines (its writer and the
// advancer that cuts a generation every second) wake only at the trace's
// start and once a second, and are not modelled.

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
)

// startTracer makes the reader, asleep from the start on P0's timer heap,
// where runtime/trace.Start, run by main on P0 before the scenario's
// first action, leaves it.
func (s *Machine) startTracer() error {
	body, err := s.indexBodies([]Op{{Kind: OpLoop, Loop: LoopForever, Body: []Op{
		{Kind: OpCPU, Dur: Fixed(tracerRead)},
		{Kind: OpSleep, Dur: Fixed(tracerPeriod)},
	}}})
	if err != nil {
		return err
	}
	pp := &s.ps[0]
	g, _ := s.newproc1(pp, nil, body)
	s.tracerG = g.ID
	g.Status = Gwaiting
	g.WaitReason = ReasonSleep
	g.Where = at(LocTimer, pp.ID)
	g.M = NoM
	s.addTimer(pp, Timer{When: s.after(tracerPeriod), G: g.ID})
	return nil
}

// TracerG is the tracer's reader goroutine (Config.Tracer), or NoG.
func (s *Machine) TracerG() GID { return s.tracerG }
