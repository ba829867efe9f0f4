package gmp

import (
	"fmt"
	"time"
)

// Pos is a position in a scenario file, carried by every operation so that
// errors and explanations can point at the line that caused them.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File == "" && p.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// DurKind says how a duration is obtained.
type DurKind uint8

const (
	DurFixed   DurKind = iota // exactly A
	DurUniform                // uniform in [A, B]
	DurExp                    // exponential with mean A
)

// Dur is a duration that may be drawn from the simulation's seed.
type Dur struct {
	Kind DurKind
	A, B time.Duration
}

// Fixed returns a constant duration.
func Fixed(d time.Duration) Dur { return Dur{Kind: DurFixed, A: d} }

func (d Dur) String() string {
	switch d.Kind {
	case DurUniform:
		return fmt.Sprintf("uniform[%v,%v]", d.A, d.B)
	case DurExp:
		return fmt.Sprintf("exp(%v)", d.A)
	}
	return d.A.String()
}

// Op is one action of a goroutine's program.
type Op struct {
	Kind OpKind
	Dur  Dur // cpu, syscall, sleep, net
	// Count: go, how many goroutines; loop, how many times; submit and
	// group, how many tasks.
	Count int
	// Body: go, the new goroutines' program; loop, the repeated actions;
	// submit and group, what each task runs.
	Body []Op
	Chan int // send, recv, close: index into Program.Chans
	Pool int // submit: index into Program.Pools
	Sem  int // acquire, release: index into Program.Sems
	// Mutex: lock, unlock, rlock, runlock: index into Program.Mutexes.
	Mutex int
	// WG: add, done, wait, and a go that calls wg.Go: one more than the
	// index into Program.WaitGroups; 0 for none (wait: children, a plain
	// go statement).
	WG int
	// Obj and Verb: an action on a declared object of a registered kind
	// (OpObj): the index into Program.Objects, and which of its kind's
	// Verbs it runs.
	Obj   int
	Verb  uint8
	N     int // acquire, release: the weight; add: the delta
	Limit int // group: SetLimit's argument; negative: no limit (SetLimit not called)
	// Defer marks an action a deferred call makes: it also runs when the
	// goroutine calls runtime.Goexit before reaching it (the release that
	// a task's wrapper defers, in compare's semaphore mode).
	Defer bool
	Block bool // syscall: entered with entersyscallblock (hands the P off at once)
	// Cases: select, its cases in the order written, a default among
	// them where it is written.
	Cases []SelectCase
	// Loop: how a loop ends: after Count times, never, or once Flag is
	// set (LoopTimes, LoopForever, LoopUntil).
	Loop LoopKind
	// Flag: set, the flag it sets; a loop until a flag, the flag it
	// reads (an index into Program.Flags).
	Flag int
	// Text: print, the line it prints (without the newline).
	Text string
	Pos  Pos
}

// SelectDir says what a select case waits for.
type SelectDir uint8

const (
	SelectRecv    SelectDir = iota + 1 // case <-ch
	SelectSend                         // case ch <- v
	SelectAfter                        // case <-time.After(d)
	SelectDefault                      // default
)

var selectDirNames = [...]string{SelectRecv: "recv", SelectSend: "send", SelectAfter: "after", SelectDefault: "default"}

func (d SelectDir) String() string {
	if int(d) < len(selectDirNames) && selectDirNames[d] != "" {
		return selectDirNames[d]
	}
	return "case?"
}

// SelectCase is one case of a select statement.
type SelectCase struct {
	Dir  SelectDir
	Chan int  // recv, send: index into Program.Chans
	Dur  Dur  // after: time.After's argument
	Body []Op // what the case runs once chosen
	Pos  Pos
}

// MaxSelectCases is the most cases, default included, a select may have
// in the model: the poll order an event carries packs a case into four
// bits (selectgo allows 65536).
const MaxSelectCases = 16

// LoopKind is how a loop ends.
type LoopKind uint8

const (
	LoopTimes   LoopKind = iota // for range Count
	LoopForever                 // for { … }
	LoopUntil                   // for !flag { … }
)

// Unbounded reports whether op is a loop that runs until a flag is set,
// or for ever.
func (op *Op) Unbounded() bool { return op.Kind == OpLoop && op.Loop != LoopTimes }

// ChanDecl declares a channel.
type ChanDecl struct {
	Name string
	Cap  int
	Pos  Pos
}

// PoolDecl declares a goroutine pool: one of package pool, with the
// options it is built with.
type PoolDecl struct {
	Name string
	// Size is the capacity; 0 or less means unlimited.
	Size int
	// Expiry is how long a worker may stay idle before the purge stops it
	// (pool.WithExpiry); 0 means the pool's default of 1s.
	Expiry      time.Duration
	Nonblocking bool // pool.WithNonblocking
	MaxBlocking int  // pool.WithMaxBlocking (0: no limit)
	PreAlloc    bool // pool.WithPreAlloc: idle workers in a ring, the oldest reused first
	// Queue is pool.WithQueue: how many accepted tasks may wait for a
	// worker, which workers drain before they park (0: no queue).
	Queue int
	// CoarseClock is pool.WithCoarseClock: idle workers stamped with a
	// clock that moves every 500ms, and the purge on a ticker, as in ants.
	CoarseClock bool
	Pos         Pos
}

// DefaultPoolExpiry is package pool's default expiry.
const DefaultPoolExpiry = time.Second

// SemDecl declares a weighted semaphore (golang.org/x/sync/semaphore).
type SemDecl struct {
	Name string
	Size int
	Pos  Pos
}

// MutexDecl declares a sync.Mutex, or with RW a sync.RWMutex.
type MutexDecl struct {
	Name string
	RW   bool
	Pos  Pos
}

// WaitGroupDecl declares a sync.WaitGroup.
type WaitGroupDecl struct {
	Name string
	Pos  Pos
}

// Program is what a simulation runs: the main goroutine's actions and the
// channels, pools, semaphores, mutexes, wait groups and flags they use.
// The scenarios package builds one from a file.
type Program struct {
	Name       string
	Chans      []ChanDecl
	Pools      []PoolDecl
	Sems       []SemDecl
	Mutexes    []MutexDecl
	WaitGroups []WaitGroupDecl
	// Flags are the program's shared flags (an atomic.Bool each, all
	// false at the start), by name: what set: sets and a loop's until:
	// reads.
	Flags []string
	// Objects are the declared objects of the kinds objkinds.go
	// registers (sync.Cond, …), every kind in one list.
	Objects []ObjDecl
	Main    []Op
}
