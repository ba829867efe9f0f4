package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// G is a goroutine: the runtime's g, plus the program it runs.
//
// The fields are laid out in two 64-byte cache lines: the first holds
// what the scheduler reads on nearly every step, ending with the first
// two frames of the program counter, the second what it mostly writes or
// reads once (when the G started running, when its compute stretch ends,
// its family), then the deeper frames. A run with a million goroutines
// spends most of its time waiting for memory, and a load that misses
// stalls the step where a store that misses does not: with the frames in
// the second line, every run of a G waited for that line in nextOp. So
// the size and order of G are what the simulation's speed depends on
// (BenchmarkEvents); TestGLayout keeps it at 128 bytes and the first
// frames in the first line.
type G struct {
	ID GID
	// M is the thread running the G (running or in a syscall).
	M MID
	// Where is the place the G is in; the invariant checker holds it
	// against the queues themselves.
	Where Loc
	// op is the action the G is executing or parked in, as an index into
	// the machine's op table plus one (0 before its first action). An
	// index rather than a pointer keeps G free of pointers, so the
	// garbage collector never scans the goroutine table and a snapshot
	// copies it without write barriers. Machine.OpOf resolves it.
	op int32
	// runGen counts the times this G was started, to match a preemption
	// signal with the run it was sent to.
	runGen uint32
	Status GStatus
	// WaitReason says why a waiting G is parked.
	WaitReason Reason
	// Preempt is gp.preempt: sysmon asked this G to stop at its next
	// safe point. execute clears it, so a request is lost if the G parks
	// first (R7.6).
	Preempt bool
	// inCPU says the G is in user code (an async safe point) rather than
	// in the runtime.
	inCPU bool
	// closedOn is the channel (plus one) a sender was woken from by its
	// close: it panics when it runs.
	closedOn uint16
	// depth is the number of frames in use.
	depth uint8
	// Runnable is when the G last became runnable (for scheduling
	// latency).
	Runnable sim.Time
	// CPULeft is what remains of the compute action in progress.
	CPULeft time.Duration
	// frames are the G's place in its program: its body, then one per
	// enclosing loop. They live inside the G, so that a G needs no
	// allocation of its own and a snapshot copies goroutines as plain
	// values. The first two, all most goroutines use, end the first
	// cache line.
	frames [MaxLoopDepth + 1]frame

	// RunStart is when the G last started running (a slice it inherits
	// may be older).
	RunStart sim.Time
	// cpuEnd is when the compute stretch now running ends.
	cpuEnd sim.Time
	// Parent is the goroutine whose go statement created this one.
	Parent GID
	// Children counts live goroutines this one started (for wait: children).
	Children int32
	// Desc is the g descriptor the G occupies. Descriptors are what the
	// free lists recycle: a new G may reuse the one a dead G left.
	Desc int32
	// goRep counts the goroutines already created by the go action the G
	// is in. Only the innermost frame's current action can be a go
	// statement in progress, so one counter per G is enough.
	goRep int32
}

// frame is one level of a G's program: a goroutine body or a loop body
// (an index into Machine.bodies), and where in it the G is. Bodies and
// actions are numbered in 16 bits (New rejects bigger programs), which
// keeps G within two cache lines.
type frame struct {
	body uint16 // index into Machine.bodies
	pc   uint16 // index of the next action
	left int32  // loop frames: iterations still to run after this one
}

// MaxLoopDepth is how deeply loops may nest in one goroutine's program.
const MaxLoopDepth = 5

// Limits on the size of a program, from the widths of G's fields.
const (
	maxBodies    = 1<<16 - 1 // go and loop bodies, main's included
	maxBodyOps   = 1<<16 - 1 // actions in one body
	maxChans     = 1<<16 - 2 // channels (closedOn holds index+1)
	maxFrameSlot = MaxLoopDepth + 1
)

// top returns the innermost frame; the G must have one.
func (g *G) top() *frame { return &g.frames[g.depth-1] }

// pushFrame enters a body; it reports false when the nesting is too deep.
func (g *G) pushFrame(f frame) bool {
	if int(g.depth) == maxFrameSlot {
		return false
	}
	g.frames[g.depth] = f
	g.depth++
	return true
}

func (g *G) popFrame() { g.depth-- }

func (g *G) resetFrames() {
	g.frames = [maxFrameSlot]frame{}
	g.depth = 0
	g.goRep = 0
}

// Sysmontick is what sysmon last saw of a P (runtime's p.sysmontick).
type Sysmontick struct {
	Schedtick, Syscalltick uint32
	Schedwhen, Syscallwhen sim.Time
}

// P is a processor: the right to run Go code, with its run queues.
type P struct {
	ID     PID
	Status PStatus
	M      MID // the M it is attached to, or NoM
	// Runnext runs before the ring (R2.3).
	Runnext GID
	runq    ring
	// Schedtick counts fresh time slices (execute with inheritTime=false).
	Schedtick uint32
	// SliceStart is when the current time slice began: the last execute
	// that advanced Schedtick.
	SliceStart sim.Time
	// Syscalltick counts syscall exits and takes of this P.
	Syscalltick uint32
	Sysmontick  Sysmontick
	// GFree is this P's cache of dead g descriptors (LIFO; top at the end).
	GFree []int32
	// Idle says the P is on the idle list (the runtime's idlepMask bit).
	Idle   bool
	timers timerHeap
	// queued and timed are the P's place in the machine's work set
	// (workset.go): a G in runnext or the ring; timers pending.
	queued, timed bool
}

// Runq returns the Gs in the local ring, head first.
func (p *P) Runq() []GID { return p.runq.Items() }

// RunqLen is the number of Gs in the ring, not counting runnext (what
// schedtrace prints).
func (p *P) RunqLen() int { return p.runq.len() }

// RunqAt returns the i-th G from the head of the ring.
func (p *P) RunqAt(i int) GID { return p.runq.at(i) }

// Timers returns the P's pending timers in the order they will fire.
func (p *P) Timers() []Timer { return p.timers.sorted() }

// TimerCount is the number of the P's pending timers.
func (p *P) TimerCount() int { return p.timers.len() }

// EarliestTimers appends the P's k earliest timers to buf, in the order
// they will fire, and returns it: the first k of Timers(), without
// sorting (or copying) the whole heap.
func (p *P) EarliestTimers(k int, buf []Timer) []Timer { return p.timers.earliest(k, buf) }

// M is an OS thread.
type M struct {
	ID    MID
	State MState
	P     PID // attached P
	NextP PID // P handed over by startm, taken when the M runs
	OldP  PID // P held when the current syscall began (m.oldp)
	CurG  GID
	// Spinning: out of work and looking for it (m.spinning).
	Spinning bool
	// Syscalltick is the P's syscalltick when the syscall began.
	Syscalltick uint32
	// Backoff is set while the M sleeps in runqgrab before stealing a
	// runnext (usleep(3)).
	Backoff bool
	// Picked is the G schedule has found and is about to run (a local
	// variable of schedule() in the runtime).
	Picked GID
	// worked is the user code (Compute) this M's goroutines ran since
	// its last switch, which a park's switch grows with (parkgap.go).
	worked time.Duration
	// creating is the G whose descriptor the current G's go statement is
	// allocating (goStatement), NoG otherwise; creatingRule and
	// creatingOp are the rule and the statement its go-create will name.
	creating     GID
	creatingRule Rule
	creatingOp   *Op
	// wake bookkeeping: a pending wake is valid only if its gen matches.
	// 32 bits keep an agenda entry small; a stale wake would need four
	// billion newer wakes of the same M before it fires to be mistaken.
	gen    uint32
	next   mStep
	wakeAt sim.Time
	fr     findState
	// parked is when the M last went on the idle list: startm's wake-up
	// of a thread parked long can come late (idlewake.go). While it is
	// late, late is set, lateBehind is the M whose running thread it
	// waits behind, and lateFrom when it would have started.
	parked     sim.Time
	late       bool
	lateBehind MID
	lateFrom   sim.Time
	// beside is the M whose CPU this one shares since one of them woke
	// onto the other's (wakepreempt.go), until either sleeps (parks, or
	// blocks in netpoll); NoM if none. The relation is symmetric.
	beside MID
	// takesCPUOf is the waker whose CPU this M, woken, takes when it
	// starts (startm), NoM otherwise.
	takesCPUOf MID
	// g is CurG's slot while CurG is set, nil otherwise (execute sets
	// it, dropg clears it; a G's slot stays put while it lives). The
	// steps of a running G read it through g rather than looking CurG
	// up, a chain of four loads, twice a step.
	g *G
}

// Sched is the global scheduler state (the runtime's sched).
type Sched struct {
	// Midle is the idle M list, a LIFO whose head is the last element.
	Midle  []MID
	Nmidle int
	// Pidle is the idle P list, a LIFO whose head is the last element.
	Pidle  []PID
	Npidle int
	// Nmspinning counts spinning Ms, including those asked to spin by
	// startm that have not run yet.
	Nmspinning   int
	Needspinning bool
	runq         gqueue
	// GFree is the global list of dead g descriptors (top at the end).
	GFree []int32
	// Lastpoll is when the network was last polled. The runtime stores 0
	// here while an M blocks in netpoll; the model names that M instead.
	Lastpoll       sim.Time
	NetpollBlocked MID
	// PollUntil is when the M blocked in netpoll will wake by itself
	// (0: not before an fd is ready).
	PollUntil      sim.Time
	NetpollInited  bool
	NetpollWaiters int
	// SysmonWait: sysmon is in its deep sleep.
	SysmonWait bool
}

// Runq returns the global run queue, head first.
func (s *Sched) Runq() []GID { return s.runq.Items() }

// RunqHead returns the first n Gs of the global run queue (fewer if it
// is shorter), without copying the rest.
func (s *Sched) RunqHead(n int) []GID {
	n = min(n, s.runq.len())
	out := make([]GID, n)
	for i := range out {
		out[i] = s.runq.at(i)
	}
	return out
}

// RunqLen is the length of the global run queue.
func (s *Sched) RunqLen() int { return s.runq.len() }

// Chan is a channel. Values are not modelled, only how many are buffered.
type Chan struct {
	Name   string
	Cap    int
	Buf    int
	Closed bool
	RecvQ  WaitQ // parked receivers (recvq), FIFO
	SendQ  WaitQ // parked senders (sendq), FIFO
}

// Sysmon is the state of the sysmon thread.
type Sysmon struct {
	M MID
	// Delay is the sleep before the next pass (20µs…10ms).
	Delay time.Duration
	// Idle counts consecutive passes that retook no P.
	Idle int
	// Passes counts passes; LastPass is when the last one ran (or the
	// one under way, InPass: its back-off and next wake are set when it
	// ends).
	Passes   int
	LastPass sim.Time
	InPass   bool
	// NextPass is when sysmon wakes next.
	NextPass sim.Time
	// Deep: in the deep sleep (all Ps idle), until NextPass at the latest.
	Deep bool
	// Did is what the last pass (or the deep sleep) decided; the
	// Describer words it (SysmonDid).
	Did SysmonDecision
	// lastTrace is when schedtrace last printed; traceStart anchors the
	// "SCHED 0ms" of the first line.
	lastTrace, traceStart sim.Time
	traced                bool
	syscallWake           bool
	gen                   uint32
}
