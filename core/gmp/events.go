package gmp

import (
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// Kind is the kind of an event. The names are the jsonl "kind" values and
// follow runtime/trace where a trace event exists.
type Kind uint8

const (
	KindGoCreate     Kind = iota + 1 // go-create
	KindGoStart                      // go-start
	KindGoStop                       // go-stop: preempted or gosched
	KindGoBlock                      // go-block: parked
	KindGoUnblock                    // go-unblock: made runnable again
	KindGoExit                       // go-exit
	KindSyscallEnter                 // syscall-enter
	KindSyscallExit                  // syscall-exit
	KindProcStart                    // proc-start: an M acquires a P
	KindProcStop                     // proc-stop: an M releases its P
	KindProcSteal                    // proc-steal: a P taken from a thread in a syscall
	KindRunqOverflow                 // runq-overflow: runqputslow
	KindSteal                        // steal: Gs stolen from another P's queue
	KindSysmon                       // sysmon: a decision of the sysmon thread
	KindMStart                       // m-start: startm wakes or creates an M
	KindMPark                        // m-park: stopm
	KindNetpoll                      // netpoll: an M blocks in, or returns from, the poller
	KindGFree                        // gfree: descriptors move between free lists
	KindProgram                      // program: the program ends (main returned, deadlock, panic)
	KindPoolDispatch                 // pool-dispatch: a pool gives a task to a worker
	KindPoolBlock                    // pool-block: a submitter waits for a worker
	KindPoolReject                   // pool-reject: a pool refuses a task (ErrPoolOverload)
	KindPoolIdle                     // pool-idle: a worker goes back on the idle stack
	KindPoolPurge                    // pool-purge: the purge stops expired idle workers
	KindSemAcquire                   // sem-acquire: a semaphore is taken, or the caller waits
	KindSemRelease                   // sem-release: a semaphore is given back
	KindPoolExit                     // pool-exit: a worker stops because its task called runtime.Goexit
	KindPoolQueue                    // pool-queue: an accepted task goes into a pool's queue
	KindMutexLock                    // mutex-lock: a Lock or RLock takes a mutex, spins, or queues
	KindMutexUnlock                  // mutex-unlock: an Unlock or RUnlock, and whom it wakes
	KindWaitGroup                    // waitgroup: a sync.WaitGroup's Add, Done or Wait
	KindSelect                       // select: a select statement picks a case, takes its default, or resumes with the case that woke it
	KindPrint                        // print: the program writes a line of output
	KindCond                         // cond: a sync.Cond's Wait takes a ticket or parks, a Signal or Broadcast notifies
	KindCPUOff                       // cpu-off: a thread that could run has no CPU (the kernel's scheduler, cpus.go)
	KindCPUOn                        // cpu-on: such a thread gets a CPU
	numKinds
)

// kindNames names every kind. Its length is numKinds, so a kind declared
// above without a name here leaves a hole TestEveryKindIsNamed finds.
var kindNames = [numKinds]string{
	KindGoCreate: "go-create", KindGoStart: "go-start", KindGoStop: "go-stop", KindGoBlock: "go-block",
	KindGoUnblock: "go-unblock", KindGoExit: "go-exit", KindSyscallEnter: "syscall-enter",
	KindSyscallExit: "syscall-exit", KindProcStart: "proc-start", KindProcStop: "proc-stop",
	KindProcSteal: "proc-steal", KindRunqOverflow: "runq-overflow", KindSteal: "steal",
	KindSysmon: "sysmon", KindMStart: "m-start", KindMPark: "m-park", KindNetpoll: "netpoll",
	KindGFree: "gfree", KindProgram: "program", KindPoolDispatch: "pool-dispatch", KindPoolBlock: "pool-block",
	KindPoolReject: "pool-reject", KindPoolIdle: "pool-idle", KindPoolPurge: "pool-purge",
	KindSemAcquire: "sem-acquire", KindSemRelease: "sem-release", KindPoolExit: "pool-exit",
	KindPoolQueue: "pool-queue",
	KindMutexLock: "mutex-lock", KindMutexUnlock: "mutex-unlock", KindWaitGroup: "waitgroup",
	KindSelect: "select",
	KindPrint:  "print", KindCond: "cond",
	KindCPUOff: "cpu-off", KindCPUOn: "cpu-on",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind?"
}

// Kinds lists every kind the model declares, in declaration order.
func Kinds() []Kind {
	out := make([]Kind, 0, numKinds-1)
	for k := KindGoCreate; k < numKinds; k++ {
		out = append(out, k)
	}
	return out
}

// ParseKind returns the kind with the given name.
func ParseKind(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n != "" && n == name {
			return Kind(k), true
		}
	}
	return 0, false
}

// Rule says which rule of the runtime produced an event. Each rule names
// the runtime function it models (Fn) and has one sentence in the
// describer.
type Rule uint8

const (
	RuleNone Rule = iota
	// goroutine creation and exit
	RuleNewproc
	RuleRunqputslow
	RuleGfput
	RuleGfget
	RuleGoexit
	RuleMainReturn
	RuleMainGoexit
	// execute: where the G came from
	RuleMainStart
	RuleRunnext
	RuleRunqHead
	RuleGlobalFairness
	RuleGlobalBatch
	RuleNetpollRun
	RuleStolenRun
	// stopping and parking
	RulePreemptAsync
	RulePreemptSync
	RuleGosched
	RulePark
	// readying
	RuleReadyChan
	RuleReadyClose
	RuleReadyTimer
	RuleReadyChildren
	RuleInjectGlobal
	RuleInjectLocal
	// system calls
	RuleEntersyscall
	RuleEntersyscallblock
	RuleExitsyscallFast
	RuleExitsyscallOldP
	RuleExitsyscallIdleP
	RuleExitsyscallNoP
	RuleRetake
	RuleTakeBackOldP
	// Ps and Ms
	RuleAcquirep
	RuleReleasepIdle
	RuleHandoffIdle
	RuleWakep
	RuleHandoffWork
	RuleHandoffSpin
	RuleHandoffPoll
	RuleInjectStart
	RuleStopm
	RuleRunqsteal
	RuleRunqstealNext
	// netpoll
	RuleNetpollBlock
	RuleNetpollReturn
	RuleNetpollBreak
	RuleNetReady
	// sysmon
	RuleSysmonPreempt
	RuleSysmonNetpoll
	RuleSysmonSleep
	RuleSysmonWake
	// program end
	RuleDeadlock
	RulePanic
	RuleUntil
	// pools (package pool)
	RulePoolDispatchIdle
	RulePoolDispatchNew
	RulePoolHandoff
	RulePoolServeWaiter
	RulePoolBlock
	RulePoolReject
	RulePoolIdle
	RulePoolPurge
	RulePoolReadyIdle
	RulePoolReadyWaiter
	RulePoolReadyStop
	RulePoolWorkerLost
	RulePurgeTimer
	RuleReadyTasks
	// semaphores (x/sync/semaphore)
	RuleSemAcquire
	RuleSemWait
	RuleSemNever
	RuleSemRelease
	RuleReadySem
	// errgroup (x/sync/errgroup)
	RuleGroupGo
	RuleGroupSlot
	RuleGroupWaitDone
	// pools with a queue (pool.WithQueue)
	RulePoolEnqueue
	RulePoolTakeQueued
	RulePoolServeQueued
	RulePoolRefill
	// sync.Mutex (internal/sync/mutex.go over runtime/sema.go)
	RuleMutexLock
	RuleMutexSpin
	RuleMutexAcquire
	RuleMutexQueue
	RuleMutexStarve
	RuleMutexHandedOff
	RuleMutexUnlock
	RuleMutexWake
	RuleMutexHandoff
	RuleReadyMutex
	RuleGoyield
	// sync.RWMutex (sync/rwmutex.go)
	RuleRWRLock
	RuleRWRLockWait
	RuleRWRUnlock
	RuleRWLock
	RuleRWUnlock
	RuleReadyRWReader
	RuleReadyRWWriter
	// sync.WaitGroup (sync/waitgroup.go)
	RuleWGAdd
	RuleWGWait
	RuleReadyWG
	// select (runtime/select.go)
	RuleSelectPick
	RuleSelectDefault
	RuleSelectResume
	RuleSelectSkip
	RuleReadySelect
	RuleReadySelectClose
	RuleReadySelectTimer
	// output
	RulePrint
	// sync.Cond (sync/cond.go over runtime/sema.go's notifyList)
	RuleCondAdd
	RuleCondPark
	RuleCondSignal
	RuleCondBroadcast
	RuleReadyCond
	// the kernel's scheduler under the Ms (cpus.go)
	RuleCPUWait
	RuleCPUWakeupPreempt
	RuleCPUSliceOver
	RuleCPUResume
	// RuleTraceReader: findRunnable runs runtime/trace's writer first, a
	// trace buffer being full (Config.Tracer, tracer.go).
	RuleTraceReader
	numRules
)

// Event is one thing the scheduler did. Its fields are facts; the
// describer turns them into a sentence. T, Kind, Rule, G, P, M, From, To
// and Op mean the same for every event; what Flag, G2, G3, P2, M2, Obj, N,
// N2, N3, D, D2 and Reason hold depends on the rule, and the rule table
// (ruletable.go, Rule.Fields) names it. Read them through the typed
// accessors generated from that table (details_gen.go: Worker, Stolen,
// RetakeCause…), which know which field each rule uses; Reason, the one
// whose meaning is the same wherever it is set, is read directly.
// The fields are ordered to pack into 112 bytes: the UI keeps every event
// of a run.
type Event struct {
	T    sim.Time
	Kind Kind
	Rule Rule
	// Reason is the trace reason of go-stop and go-block, and for a
	// channel wake-up the operation the woken G was blocked in.
	Reason Reason
	Flag   bool // a yes/no detail of the rule (see the describer)
	G      GID  // the goroutine concerned
	P      PID  // the P the event happens on
	M      MID  // the M that acts
	From   Loc  // where G came from
	To     Loc  // where G went
	G2     GID  // a second goroutine: the creator (go-create), the waker (go-unblock)
	G3     GID  // a third: the goroutine kicked out of runnext, or the waiter a new pool worker serves
	P2     PID  // a second P: the victim of a steal, the P given to a woken M, …
	M2     MID  // a second M: the thread a P was taken from, …
	// Obj is the pool or semaphore the event concerns (an index into the
	// program's declarations).
	Obj   int32
	N3    int32 // a third count: a pool's running workers, a semaphore's waiters
	N, N2 int   // counts: Gs moved, queue lengths, ticks
	D, D2 time.Duration
	Op    *Op // the scenario action involved, for its position
	// Cause is the index, in the run's events, of the event that caused
	// this one, or -1 (cause.go).
	Cause int32
}

// Reason is why a goroutine stopped or parked, as runtime/trace names it.
type Reason uint8

const (
	NoReason Reason = iota
	ReasonPreempted
	ReasonGosched
	ReasonSleep
	ReasonChanSend
	ReasonChanRecv
	ReasonNetwork
	ReasonWait
	ReasonSelect
	ReasonWaitGroup
	ReasonMutexLock
	ReasonRWMutexRLock
	ReasonRWMutexLock
	ReasonSelectNoCases // select {}: waitReasonSelectNoCases, parked for ever
	ReasonCondWait      // sync.Cond.Wait: waitReasonSyncCondWait
	ReasonTraceReader   // runtime/trace's writer, in ReadTrace until a buffer is full: waitReasonTraceReaderBlocked
)

// reasonNames are runtime/trace's reasons for stops, and for parks the
// waitReason Go's goroutine dump prints ("sync.Mutex.Lock").
var reasonNames = [...]string{"", "preempted", "gosched", "sleep", "chan send", "chan receive", "network", "wait",
	"select", "sync.WaitGroup.Wait", "sync.Mutex.Lock", "sync.RWMutex.RLock", "sync.RWMutex.Lock", "select (no cases)", "sync.Cond.Wait",
	"trace reader (blocked)"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason?"
}

// Fn is the runtime function the event's rule models.
func (e *Event) Fn() string { return e.Rule.Fn() }
