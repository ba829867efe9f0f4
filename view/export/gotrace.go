package export

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
)

// GoTrace writes a run of the model as a Go execution trace, the file
// runtime/trace writes (the format of Go 1.26, which go tool trace,
// gotraceui and golang.org/x/exp/trace read), so that a model's run opens
// in the tools a real one does.
//
// The format (the Go source's internal/trace/tracev2 documents it) is a
// header, then generations; a generation is batches of events, each
// batch one thread's (M's), in that thread's order, and the tables its
// events refer to: strings (the reasons a goroutine stops or blocks) and
// stacks (none here: the model has no call stacks). Events name their
// goroutine and P implicitly, by the M's current state, and carry
// sequence numbers where one thread acts on another's goroutine or P
// (GoStart, GoUnblock, ProcStart, ProcSteal, GoSyscallBegin), by which a
// reader orders the threads' streams. The model's run is one generation,
// from the start: every P's and main's status first, on M0.
//
// Where an event happens in the program, the format's stacks, is the
// scenario's line: a one-frame stack naming the action and its line ("go
// at line 7") in the scenario's file, so that go tool trace groups
// goroutines by the go statement that made them. What the format holds that the model does
// not is left out, not made up: no call stacks, no GC or STW, no user
// tasks; the model's events that
// have no trace event (steals, overflows, sysmon's requests, the pools'
// bookkeeping, M wake-ups and parks) are not written, and those that
// happen on no M (the run's end) neither. Timestamps are the model's
// nanoseconds, one tick a nanosecond, plus one (a reader takes 0 for no
// time); a reader reads the events one thread has at one instant a
// nanosecond apart, as a thread's times increase strictly in the format.
//
// The model's events map onto the runtime's one for one, as the model's
// kinds follow runtime/trace: go-create is GoCreate, go-start GoStart,
// go-stop GoStop and go-block GoBlock with the reason as a string,
// go-unblock GoUnblock on the waker's thread, go-exit GoDestroy,
// syscall-enter GoSyscallBegin, a syscall-exit that kept its P
// GoSyscallEnd and one whose P went GoSyscallEndBlocked (then GoStart if
// the thread got a P back), proc-start ProcStart, proc-stop ProcStop,
// proc-steal ProcSteal on the taking thread (sysmon's or the returning
// one's), naming the thread it takes from. The test reads every
// built-in's trace back with golang.org/x/exp/trace and finds each
// goroutine and P going through the model's states at the model's times.
type GoTrace struct {
	w   *bufio.Writer
	err error
	// Per M: the batch being filled.
	batches map[gmp.MID]*goBatch
	order   []gmp.MID // the Ms in the order they first act, to write their batches
	strings map[string]uint64
	strList []string
	// stacks are the scenario's lines the events happen at, as one-frame
	// stacks, by place; stackList in the order of their ids.
	stacks    map[gmp.Pos]uint64
	stackList []gmp.Op
	gseq      map[gmp.GID]uint64
	pseq      []uint64
	procs     int
	started   bool
}

// goBatch is an M's events not yet written.
type goBatch struct {
	base, last uint64 // the batch's first timestamp, and its last event's
	data       []byte
}

// Event types and statuses of the format (internal/trace/tracev2).
const (
	evEventBatch          = 1
	evStacks              = 2
	evStack               = 3
	evStrings             = 4
	evString              = 5
	evFrequency           = 8
	evProcStart           = 10
	evProcStop            = 11
	evProcSteal           = 12
	evProcStatus          = 13
	evGoCreate            = 14
	evGoStart             = 16
	evGoDestroy           = 17
	evGoStop              = 19
	evGoBlock             = 20
	evGoUnblock           = 21
	evGoSyscallBegin      = 22
	evGoSyscallEnd        = 23
	evGoSyscallEndBlocked = 24
	evGoStatus            = 25
	evSync                = 50
	evClockSnapshot       = 51
	evEndOfGeneration     = 52

	goRunnable  = 1 // GoStatus
	procRunning = 1
	procIdle    = 2

	goTraceMaxBatch = 64 << 10 // the format's largest batch
	noThread        = ^uint64(0)
	goTraceGen      = 1
	// Timestamps start at 1: 0 is no time to a reader.
	goTraceT0 = 1
)

// NewGoTrace starts a Go execution trace of m's run on w.
func NewGoTrace(w io.Writer, m *gmp.Machine) *GoTrace {
	t := &GoTrace{w: bufio.NewWriterSize(w, 256<<10), batches: map[gmp.MID]*goBatch{}, strings: map[string]uint64{}, stacks: map[gmp.Pos]uint64{},
		gseq: map[gmp.GID]uint64{}, pseq: make([]uint64, m.Procs()), procs: m.Procs()}
	fmt.Fprintf(t.w, "go 1.%d trace\x00\x00\x00", 26)
	// The sync batch: a tick is a nanosecond; the clocks' snapshot at the
	// start.
	var sync []byte
	sync = append(sync, evSync, evFrequency)
	sync = binary.AppendUvarint(sync, 1e9)
	sync = append(sync, evClockSnapshot)
	sync = binary.AppendUvarint(sync, 0) // at the batch's time
	sync = binary.AppendUvarint(sync, 0) // monotonic clock
	sync = binary.AppendUvarint(sync, 0) // wall clock: seconds
	sync = binary.AppendUvarint(sync, 0) // and nanoseconds
	t.writeBatch(noThread, goTraceT0, sync)
	return t
}

// writeBatch writes a batch of m's events at base.
func (t *GoTrace) writeBatch(m uint64, base uint64, data []byte) {
	if t.err != nil {
		return
	}
	b := []byte{evEventBatch}
	b = binary.AppendUvarint(b, goTraceGen)
	b = binary.AppendUvarint(b, m)
	b = binary.AppendUvarint(b, base)
	b = binary.AppendUvarint(b, uint64(len(data)))
	if _, err := t.w.Write(b); err != nil {
		t.err = err
		return
	}
	_, t.err = t.w.Write(data)
}

// event appends an event of type typ at ts to M m's batch, with its
// arguments.
func (t *GoTrace) event(m gmp.MID, ts uint64, typ byte, args ...uint64) {
	b := t.batches[m]
	if b == nil {
		b = &goBatch{base: ts, last: ts}
		t.batches[m] = b
		t.order = append(t.order, m)
	}
	if len(b.data) > goTraceMaxBatch-64 {
		t.writeBatch(uint64(m), b.base, b.data)
		b.data, b.base, b.last = b.data[:0], ts, ts
	}
	b.data = append(b.data, typ)
	b.data = binary.AppendUvarint(b.data, ts-b.last)
	b.last = ts
	for _, a := range args {
		b.data = binary.AppendUvarint(b.data, a)
	}
}

// str is the string table's id of s, from 1.
func (t *GoTrace) str(s string) uint64 {
	if id, ok := t.strings[s]; ok {
		return id
	}
	t.strList = append(t.strList, s)
	id := uint64(len(t.strList))
	t.strings[s] = id
	return id
}

// stack is the id of a one-frame stack at the scenario line of op, the
// action an event happens at, or 0 (no stack) for none. The frame is the
// action's kind, in the scenario's file at its line: where go tool
// trace shows a goroutine was created, or blocked, the line of the
// scenario says.
func (t *GoTrace) stack(op *gmp.Op) uint64 {
	if op == nil || op.Pos.Line <= 0 {
		return 0
	}
	if id, ok := t.stacks[op.Pos]; ok {
		return id
	}
	t.stackList = append(t.stackList, *op)
	id := uint64(len(t.stackList))
	t.stacks[op.Pos] = id
	return id
}

func (t *GoTrace) nextG(g gmp.GID) uint64 {
	t.gseq[g]++
	return t.gseq[g]
}

func (t *GoTrace) nextP(p gmp.PID) uint64 {
	t.pseq[p]++
	return t.pseq[p]
}

// Event adds the run's next event.
func (t *GoTrace) Event(e gmp.Event) {
	ts := goTraceT0 + uint64(e.T)
	if !t.started {
		// The generation opens with every P's status and main's, on M0,
		// which the run starts on, holding P0.
		t.started = true
		for p := range t.procs {
			status := uint64(procIdle)
			if p == 0 {
				status = procRunning
			}
			t.event(0, ts, evProcStatus, uint64(p), status)
		}
		t.event(0, ts, evGoStatus, 1, noThread, goRunnable)
	}
	if e.M == gmp.NoM {
		return
	}
	m := e.M
	switch e.Kind {
	case gmp.KindGoCreate:
		st := t.stack(e.Op)
		t.event(m, ts, evGoCreate, uint64(e.G), st, st)
	case gmp.KindGoStart:
		t.event(m, ts, evGoStart, uint64(e.G), t.nextG(e.G))
	case gmp.KindGoStop:
		t.event(m, ts, evGoStop, t.str(e.Reason.String()), t.stack(e.Op))
	case gmp.KindGoBlock:
		t.event(m, ts, evGoBlock, t.str(e.Reason.String()), t.stack(e.Op))
	case gmp.KindGoUnblock:
		t.event(m, ts, evGoUnblock, uint64(e.G), t.nextG(e.G), t.stack(e.Op))
	case gmp.KindGoExit:
		t.event(m, ts, evGoDestroy)
	case gmp.KindSyscallEnter:
		t.event(m, ts, evGoSyscallBegin, t.nextP(e.P), t.stack(e.Op))
	case gmp.KindSyscallExit:
		switch {
		case e.Rule == gmp.RuleExitsyscallFast:
			t.event(m, ts, evGoSyscallEnd)
		default:
			// The P went while the goroutine was in the call: it is
			// runnable, and runs at once if the thread got a P.
			t.event(m, ts, evGoSyscallEndBlocked)
			if e.To.Kind == gmp.LocRunning {
				t.event(m, ts, evGoStart, uint64(e.G), t.nextG(e.G))
			}
		}
	case gmp.KindProcStart:
		t.event(m, ts, evProcStart, uint64(e.P), t.nextP(e.P))
	case gmp.KindProcStop:
		t.event(m, ts, evProcStop)
	case gmp.KindProcSteal:
		t.event(m, ts, evProcSteal, uint64(e.P), t.nextP(e.P), uint64(e.M2))
	}
}

// End writes the batches still open, the string table and the end of
// the generation.
func (t *GoTrace) End(*gmp.Machine) error {
	for _, m := range t.order {
		if b := t.batches[m]; len(b.data) > 0 {
			t.writeBatch(uint64(m), b.base, b.data)
		}
	}
	// The stacks, each a frame whose program counter is its id: a reader
	// needs a counter to tell frames apart, and the model has no code.
	var st []byte
	st = append(st, evStacks)
	for i, op := range t.stackList {
		if len(st) > goTraceMaxBatch-64 {
			t.writeBatch(noThread, goTraceT0, st)
			st = append(st[:0], evStacks)
		}
		st = append(st, evStack)
		// The function's name has the line: go tool trace groups
		// goroutines by it, one group per go statement.
		fn := op.Kind.String() + " at line " + strconv.Itoa(op.Pos.Line)
		for _, v := range []uint64{uint64(i + 1), 1, uint64(i + 1), t.str(fn), t.str(op.Pos.File), uint64(op.Pos.Line)} {
			st = binary.AppendUvarint(st, v)
		}
	}
	if len(st) > 1 {
		t.writeBatch(noThread, goTraceT0, st)
	}
	var s []byte
	s = append(s, evStrings)
	flush := func() {
		t.writeBatch(noThread, goTraceT0, s)
		s = append(s[:0], evStrings)
	}
	for i, str := range t.strList {
		if len(s)+len(str)+32 > goTraceMaxBatch {
			flush()
		}
		s = append(s, evString)
		s = binary.AppendUvarint(s, uint64(i+1))
		s = binary.AppendUvarint(s, uint64(len(str)))
		s = append(s, str...)
	}
	if len(s) > 1 {
		flush()
	}
	if t.err == nil {
		t.err = t.w.WriteByte(evEndOfGeneration)
	}
	if t.err != nil {
		return t.err
	}
	return t.w.Flush()
}
