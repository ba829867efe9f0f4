package gmp

import "strconv"

// GID identifies a goroutine. G1 is main; the others are numbered in
// creation order from G2. 0 means "no goroutine".
type GID int32

// PID identifies a P (P0…Pn-1). NoP means none.
type PID int32

// MID identifies an M. M0 is the main thread and M1 runs sysmon; worker Ms
// are numbered from M2 in creation order. NoM means none.
type MID int32

const (
	NoG GID = 0
	NoP PID = -1
	NoM MID = -1
)

func (g GID) String() string {
	if g == NoG {
		return "-"
	}
	return "G" + strconv.Itoa(int(g))
}

func (p PID) String() string {
	if p == NoP {
		return "-"
	}
	return "P" + strconv.Itoa(int(p))
}

func (m MID) String() string {
	if m == NoM {
		return "-"
	}
	return "M" + strconv.Itoa(int(m))
}

// GStatus mirrors the G states of runtime2.go that the model uses. The
// numeric values are the runtime's, so scheddetail output matches.
type GStatus uint8

const (
	Gidle     GStatus = 0 // _Gidle
	Grunnable GStatus = 1 // _Grunnable: in runnext, a ring or the global queue
	Grunning  GStatus = 2 // _Grunning: on an M, executing user code
	Gsyscall  GStatus = 3 // _Gsyscall: in a system call; its M may or may not still hold a P
	Gwaiting  GStatus = 4 // _Gwaiting: parked (channel, sleep, network, wait)
	Gdead     GStatus = 6 // _Gdead: exited; its descriptor sits on a free list
)

func (s GStatus) String() string {
	switch s {
	case Gidle:
		return "idle"
	case Grunnable:
		return "runnable"
	case Grunning:
		return "running"
	case Gsyscall:
		return "syscall"
	case Gwaiting:
		return "waiting"
	case Gdead:
		return "dead"
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// PStatus mirrors the P states of runtime2.go. Go 1.26 has no _Psyscall
// (it is _Psyscall_unused): a P whose G is in a system call stays _Prunning.
type PStatus uint8

const (
	Pidle    PStatus = 0 // _Pidle
	Prunning PStatus = 1 // _Prunning, also while its G is in a syscall
)

func (s PStatus) String() string {
	if s == Prunning {
		return "running"
	}
	return "idle"
}

// MState says what an M is doing. The runtime has no such field; it is the
// model's name for where the thread is in its code.
type MState uint8

const (
	MRunning   MState = iota // running a G's user code
	MScheduler               // in schedule/findRunnable (possibly spinning)
	MSyscall                 // in a system call with its G
	MIdle                    // parked on the idle M list (stopm)
	MNetpoll                 // blocked in netpoll (findRunnable step 15)
	MStarting                // woken by startm or newly created, not yet running
	MSysmon                  // the sysmon thread
)

// asleep says that a thread in state s sleeps in the kernel: parked,
// blocked in netpoll, or woken and not yet running. It holds no P and no
// G, and no CPU.
func (s MState) asleep() bool { return s == MIdle || s == MNetpoll || s == MStarting }

func (s MState) String() string {
	return [...]string{"running", "scheduler", "syscall", "idle", "netpoll", "starting", "sysmon"}[s]
}

// LocKind names the places a goroutine can be.
type LocKind uint8

const (
	LocNone      LocKind = iota
	LocRunnext           // a P's runnext slot
	LocRunq              // a P's local ring
	LocGlobal            // the global run queue
	LocRunning           // running on a P
	LocSyscall           // in a system call
	LocChanRecv          // parked receiving from a channel
	LocChanSend          // parked sending to a channel
	LocTimer             // parked in time.Sleep, its timer in a P's heap
	LocNetpoll           // parked on the network poller
	LocWait              // parked until its children exit
	LocFree              // exited; descriptor on a P's free list
	LocSem               // parked acquiring a semaphore
	LocDead              // exited; descriptor on the global free list
	LocPicked            // found by an M's schedule() and about to run; ID is the M
	LocPoolIdle          // an idle pool worker, parked on its task channel; ID is the pool
	LocPoolWait          // a submitter waiting for a pool worker; ID is the pool
	LocGroupWait         // parked in errgroup.Wait
	LocMutex             // parked in sync.Mutex.Lock (an RWMutex's writer lock too); ID is the mutex
	LocRWReader          // a reader parked in sync.RWMutex.RLock behind a writer; ID is the mutex
	LocRWWriter          // a writer parked in sync.RWMutex.Lock until its readers leave; ID is the mutex
	LocWaitGroup         // parked in sync.WaitGroup.Wait; ID is the wait group
	LocSelect            // parked in a select: its sudogs wait in the queues of every channel it selects on (select.go)
	LocObj               // parked on a declared object of a registered kind (objkinds.go); ID is the object
	LocTraceWait         // runtime/trace's writer, parked until a trace buffer is full (tracer.go)
)

// Loc is a place: a kind and, where it matters, the P or channel it
// belongs to.
type Loc struct {
	Kind LocKind
	ID   int32 // PID for per-P places, channel or semaphore index otherwise
}

func at(kind LocKind, p PID) Loc { return Loc{Kind: kind, ID: int32(p)} }

// IsZero reports whether l names no place.
func (l Loc) IsZero() bool { return l.Kind == LocNone }

// P returns the P of a per-P place.
func (l Loc) P() PID { return PID(l.ID) }
