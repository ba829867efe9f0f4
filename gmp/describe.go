package gmp

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/sim"
)

// Describer turns events into sentences. It is the only place that does:
// the trace, the UI's log and the golden files all use it, so they cannot
// disagree. It needs the program only for names: channels, pools,
// semaphores.
type Describer struct {
	chans []string
	pools []PoolDecl
	sems  []string
}

// NewDescriber returns a describer for events of prog.
func NewDescriber(prog *Program) *Describer {
	d := &Describer{}
	if prog != nil {
		for _, c := range prog.Chans {
			d.chans = append(d.chans, c.Name)
		}
		d.pools = prog.Pools
		for _, sm := range prog.Sems {
			d.sems = append(d.sems, sm.Name)
		}
	}
	return d
}

// Loc names a place compactly, as the trace's from/to fields do:
// "P0.runnext", "P0.runq", "global", "P0" (running), "syscall",
// "chan:done", "timer:P0", "netpoll", "wait", "free:P0".
func (d *Describer) Loc(l Loc) string {
	p := PID(l.ID).String()
	switch l.Kind {
	case LocRunnext:
		return p + ".runnext"
	case LocRunq:
		return p + ".runq"
	case LocGlobal:
		return "global"
	case LocRunning:
		return p
	case LocSyscall:
		return "syscall"
	case LocChanRecv, LocChanSend:
		return "chan:" + d.chanName(int(l.ID))
	case LocTimer:
		return "timer:" + p
	case LocNetpoll:
		return "netpoll"
	case LocWait:
		return "wait"
	case LocFree:
		return "free:" + p
	case LocSem:
		return "sem:" + d.semName(int(l.ID))
	case LocPoolIdle:
		return "pool:" + d.poolName(int(l.ID)) + ".idle"
	case LocPoolWait:
		return "pool:" + d.poolName(int(l.ID)) + ".wait"
	case LocGroupWait:
		return "errgroup.wait"
	}
	return ""
}

// chanName names channel i. Channels past the declared ones are the
// limit channels errgroups make.
func (d *Describer) chanName(i int) string {
	if i >= 0 && i < len(d.chans) {
		return d.chans[i]
	}
	return "errgroup-limit#" + strconv.Itoa(i)
}

// into says where a new or readied G goes: into runnext under the
// runtime's rules, elsewhere under a what-if policy (readyPlace), which the
// sentence names.
func (d *Describer) into(e Event) string {
	switch e.To.Kind {
	case LocRunq:
		return "to the tail of " + e.P.String() + "'s ring (what-if no-runnext)"
	case LocGlobal:
		return "to the tail of the global queue (what-if global-fifo)"
	}
	return "into " + e.P.String() + "'s runnext"
}

// Place says where a G is in words, as the sentences do: "P0's runnext",
// "the global queue".
func (d *Describer) Place(l Loc) string { return d.place(l) }

// place says where a G is in words: "P0's runnext", "the global queue".
func (d *Describer) place(l Loc) string {
	p := PID(l.ID).String()
	switch l.Kind {
	case LocRunnext:
		return p + "'s runnext"
	case LocRunq:
		return p + "'s ring"
	case LocGlobal:
		return "the global queue"
	case LocRunning:
		return p
	case LocChanRecv, LocChanSend:
		return "channel " + d.chanName(int(l.ID))
	case LocTimer:
		return p + "'s timers"
	case LocNetpoll:
		return "the netpoller"
	case LocWait:
		return "its wait for children"
	case LocSem:
		return "semaphore " + d.semName(int(l.ID))
	case LocPoolIdle:
		return "pool " + d.poolName(int(l.ID)) + "'s idle workers"
	case LocPoolWait:
		return "pool " + d.poolName(int(l.ID)) + "'s line of waiting submitters"
	case LocGroupWait:
		return "errgroup.Wait"
	}
	return d.Loc(l)
}

// Describe returns the one-line explanation of e.
func (d *Describer) Describe(e Event) string {
	if e.Rule < numRules {
		if w := wordings[e.Rule]; w != nil {
			return w(d, e)
		}
	}
	return e.Kind.String()
}

// words tells the events of some rules, one function per rule. Each
// runtime structure's rules are told in its own describe_*.go file.
type words map[Rule]func(d *Describer, e Event) string

// wordings is every rule's wording, gathered once. A rule told twice is a
// programmer's mistake, caught when the package loads.
var wordings = gatherWords(goroutineWords, scheduleWords, parkWords, syscallWords, procWords,
	netpollWords, sysmonWords, poolWords, syncWords, endWords)

func gatherWords(sets ...words) (all [numRules]func(d *Describer, e Event) string) {
	var told [numRules]bool
	for _, set := range sets {
		for r, w := range set {
			if told[r] {
				panic(fmt.Sprintf("gmp: rule %d (%s) is worded twice", r, r.Fn()))
			}
			all[r], told[r] = w, true
		}
	}
	return all
}

// endWords tells how a run stops without main returning.
var endWords = words{
	RuleDeadlock: func(d *Describer, e Event) string {
		return "all goroutines are asleep: deadlock"
	},
	RulePanic: func(d *Describer, e Event) string {
		return "the program panics"
	},
	RuleUntil: func(d *Describer, e Event) string {
		return sprintf("the run stops here with %d goroutines alive", e.N)
	},
}

// kickedNew is kicked for a go-create event, whose N is the ring length.
func kickedNew(e Event) string {
	if e.G3 == NoG {
		return ""
	}
	if e.Flag {
		return sprintf("; %v, kicked out of runnext, finds the ring full", e.G3)
	}
	return sprintf("; %v, kicked out of runnext, goes to the ring's tail (%d/256)", e.G3, e.N)
}

// plural writes "1 G goes" or "3 Gs go".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func kicked(e Event) string {
	if e.G3 == NoG {
		return ""
	}
	return sprintf(", kicking %v to the ring's tail", e.G3)
}

// TimeString formats an event time for the text trace.
func TimeString(t sim.Time) string { return t.String() }
