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

// OpKind is the kind of a goroutine action.
type OpKind uint8

const (
	OpCPU     OpKind = iota + 1 // compute for a duration
	OpSyscall                   // a blocking system call
	OpSleep                     // time.Sleep
	OpNet                       // a network read that becomes ready after a duration
	OpGosched                   // runtime.Gosched
	OpGo                        // go statement(s)
	OpLoop                      // repeat a body
	OpSend                      // channel send
	OpRecv                      // channel receive
	OpClose                     // close a channel
	OpWait                      // wait until every goroutine this one started has exited
	OpExit                      // runtime.Goexit
)

var opNames = [...]string{
	OpCPU: "cpu", OpSyscall: "syscall", OpSleep: "sleep", OpNet: "net", OpGosched: "gosched",
	OpGo: "go", OpLoop: "loop", OpSend: "send", OpRecv: "recv", OpClose: "close",
	OpWait: "wait", OpExit: "exit",
}

func (k OpKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", k)
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
	Kind  OpKind
	Dur   Dur  // cpu, syscall, sleep, net
	Count int  // go: how many goroutines; loop: how many times
	Body  []Op // go: the new goroutines' program; loop: the repeated actions
	Chan  int  // send, recv, close: index into Program.Chans
	Block bool // syscall: entered with entersyscallblock (hands the P off at once)
	Pos   Pos
}

// ChanDecl declares a channel.
type ChanDecl struct {
	Name string
	Cap  int
	Pos  Pos
}

// Program is what a simulation runs: the main goroutine's actions and the
// channels they use. The scenarios package builds one from a file.
type Program struct {
	Name  string
	Chans []ChanDecl
	Main  []Op
}
