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
	Body  []Op
	Chan  int // send, recv, close: index into Program.Chans
	Pool  int // submit: index into Program.Pools
	Sem   int // acquire, release: index into Program.Sems
	N     int // acquire, release: the weight
	Limit int // group: SetLimit's argument; negative: no limit (SetLimit not called)
	// Defer marks an action a deferred call makes: it also runs when the
	// goroutine calls runtime.Goexit before reaching it (the release that
	// a task's wrapper defers, in compare's semaphore mode).
	Defer bool
	Block bool // syscall: entered with entersyscallblock (hands the P off at once)
	Pos   Pos
}

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

// Program is what a simulation runs: the main goroutine's actions and the
// channels, pools and semaphores they use. The scenarios package builds
// one from a file.
type Program struct {
	Name  string
	Chans []ChanDecl
	Pools []PoolDecl
	Sems  []SemDecl
	Main  []Op
}
