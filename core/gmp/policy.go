package gmp

import (
	"fmt"
	"strconv"
	"strings"
)

// Policy is a what-if change to the scheduler's rules: a student switches
// one on to see why the real rule exists. The zero Policy is Go 1.26, and
// a run under it is byte-identical to a run that names no policy.
//
// Each switch is read in the one function of the model that the rule it
// changes lives in (readyPlace, findRunnable, runqsteal, retake,
// entersyscall, preemptone, canSpin, lockSlow), and each event a switch
// changes says so in its sentence.
type Policy struct {
	// NoRunnext: a new or readied G goes to the tail of the P's ring, not
	// into runnext (newproc, goready).
	NoRunnext bool
	// NoSteal: an M with nothing local never takes Gs from other Ps'
	// rings or runnext (runqsteal is skipped). It still runs their expired
	// timers, as stealWork does, or a sleeper on an idle P would never
	// wake.
	NoSteal bool
	// StealAll: a thief takes the victim's whole ring, not half (runqgrab).
	StealAll bool
	// Fairness is how often, in schedticks, findRunnable looks at the
	// global queue before the local one: 0 means the runtime's 61, and
	// a negative value never.
	Fairness int
	// NoPreempt: sysmon never asks a long-running G to stop (retake's
	// preemptone).
	NoPreempt bool
	// SyscallHandoff: every system call hands its P off at entry, as
	// entersyscallblock does, instead of keeping it for sysmon to retake.
	SyscallHandoff bool
	// GlobalFIFO: one global FIFO queue and no per-P queues: new and
	// readied Gs go to its tail, and an M takes one G from its head.
	GlobalFIFO bool
	// NoSpin: a goroutine that finds a sync.Mutex held never spins
	// (runtime_canSpin always says no): it queues at once.
	NoSpin bool
	// NoStarvation: a sync.Mutex never enters starvation mode, however
	// long a waiter has waited (lockSlow's 1ms threshold is never met).
	NoStarvation bool
	// Cooperative: sysmon asks a long-running G to stop but sends no
	// signal (preemptone), so the G stops only at its next function
	// call, as in Go 1.2 to 1.13: a loop that calls nothing never does.
	Cooperative bool
}

// fairnessPeriod is the runtime's: proc.go findRunnable checks the global
// queue when pp.schedtick%61 == 0.
const fairnessPeriod = 61

// decision is one choice of the scheduler that a policy replaces. Two
// policies that replace the same choice contradict each other: one undoes
// the other (no-steal and steal-all), or whichever comes last wins
// (fairness=3 and no-fairness), so ParsePolicy refuses them.
type decision uint8

const (
	decideReadyPlace decision = iota + 1
	decideSteal
	decideFairness
	decidePreempt
	decideSyscall
	decideMutexSpin
	decideMutexStarve
)

// decisionWords say what each decision is, for ParsePolicy's message.
var decisionWords = [...]string{
	decideReadyPlace:  "where a new or readied goroutine goes",
	decideSteal:       "what an idle M takes from another P",
	decideFairness:    "how often the global queue is looked at first",
	decidePreempt:     "whether sysmon preempts a goroutine that runs long",
	decideSyscall:     "who keeps the P through a system call",
	decideMutexSpin:   "whether a goroutine spins on a held mutex",
	decideMutexStarve: "whether a mutex hands itself to a waiter that waited over 1ms",
}

// PolicyConflictError is ParsePolicy's error for two policies that
// replace the same decision of the scheduler, or one given twice.
type PolicyConflictError struct {
	First, Second string // the two names, in the order given
	What          string // the decision both change
}

func (e *PolicyConflictError) Error() string {
	if e.First == e.Second {
		return fmt.Sprintf("policy %q is given twice", e.First)
	}
	return fmt.Sprintf("policies %q and %q contradict each other: both change %s", e.First, e.Second, e.What)
}

// PolicyInfo describes one named policy.
type PolicyInfo struct {
	Name string
	// Doc says what the policy changes and what it shows.
	Doc string
	// changes are the decisions it replaces (none for default).
	changes []decision
	set     func(*Policy)
}

// policies lists the named policies, the default first. Help text, the
// flag's completion and ParsePolicy all read this table.
var policies = []PolicyInfo{
	{"default", "Go 1.26's rules, as in runtime/proc.go", nil, func(*Policy) {}},
	{"no-runnext", "new and readied goroutines queue at the ring's tail instead of runnext: a producer and its consumer no longer run back to back, and a woken goroutine waits behind the whole ring",
		[]decision{decideReadyPlace}, func(p *Policy) { p.NoRunnext = true }},
	{"no-steal", "idle Ps never steal: work created on one P stays there while the others idle",
		[]decision{decideSteal}, func(p *Policy) { p.NoSteal = true }},
	{"steal-all", "a thief takes the whole ring instead of half, so the work bounces between Ps instead of settling",
		[]decision{decideSteal}, func(p *Policy) { p.StealAll = true }},
	{"no-fairness", "the 1-in-61 look at the global queue never happens: while a P's own queue stays busy, the global queue starves",
		[]decision{decideFairness}, func(p *Policy) { p.Fairness = -1 }},
	{"fairness=N", "the global queue is looked at first every N schedticks instead of 61",
		[]decision{decideFairness}, nil},
	{"no-preempt", "sysmon never preempts: a goroutine that computes keeps its P until it blocks, and everything behind it waits (Go before 1.2 had no preemption at all)",
		[]decision{decidePreempt}, func(p *Policy) { p.NoPreempt = true }},
	{"cooperative", "preemption without signals, as in Go 1.2 to 1.13: sysmon's request is honoured only at the goroutine's next function call, so a loop that calls nothing (for {}, for !done {}) is never stopped, and on one P it hangs the program. Go 1.14 added asynchronous preemption, a signal that stops a goroutine anywhere (golang/go#10958)",
		[]decision{decidePreempt}, func(p *Policy) { p.Cooperative = true }},
	{"syscall-handoff", "every system call hands its P to another thread at entry, the picture most diagrams draw. Go 1.26 does not: reentersyscall leaves the P attached and sysmon's retake takes it only if the call lasts (20µs to 10ms, proc.go retake); releases before 1.26 did not hand off at entry either, they set the P to _Psyscall for sysmon to take. Only entersyscallblock, for calls known to block, hands off at once",
		[]decision{decideSyscall}, func(p *Policy) { p.SyscallHandoff = true }},
	{"global-fifo", "one global FIFO run queue and no per-P queues, the naive scheduler: every decision contends on one queue and no goroutine keeps its P's cache warm (network-ready goroutines still arrive through injectglist)",
		[]decision{decideReadyPlace}, func(p *Policy) { p.GlobalFIFO = true }},
	{"no-spin", "a goroutine that finds a sync.Mutex held queues at once instead of spinning up to 4 times: the lock passes through the semaphore, and a waiter woken by Unlock meets fewer goroutines arriving in the meantime",
		[]decision{decideMutexSpin}, func(p *Policy) { p.NoSpin = true }},
	{"no-starvation", "a sync.Mutex stays in normal mode (Go before 1.9): a woken waiter keeps losing to goroutines that arrive running, and the one that just unlocked takes the lock back again and again however long the queue has waited",
		[]decision{decideMutexStarve}, func(p *Policy) { p.NoStarvation = true }},
}

// Policies lists the named policies.
func Policies() []PolicyInfo { return policies }

// ParsePolicy reads a policy name, or several joined by '+'
// ("no-steal+no-preempt"). "" and "default" are Go 1.26's rules. Two
// policies that replace the same decision of the scheduler are refused.
func ParsePolicy(s string) (Policy, error) {
	var p Policy
	if s == "" {
		return p, nil
	}
	decidedBy := map[decision]string{}
	for _, part := range strings.Split(s, "+") {
		info, n, err := policyRow(part)
		if err != nil {
			return Policy{}, err
		}
		for _, d := range info.changes {
			if prev, taken := decidedBy[d]; taken {
				return Policy{}, &PolicyConflictError{First: prev, Second: part, What: decisionWords[d]}
			}
			decidedBy[d] = part
		}
		if info.set != nil {
			info.set(&p)
		} else {
			p.Fairness = n
		}
	}
	return p, nil
}

// policyRow finds the table's row for one name of a policy string, and
// the number of fairness=N.
func policyRow(part string) (*PolicyInfo, int, error) {
	name := part
	n := 0
	if v, ok := strings.CutPrefix(part, "fairness="); ok {
		var err error
		n, err = strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, 0, fmt.Errorf("policy %q: want fairness=N with N from 1 to 1000000 (the runtime's is 61; no-fairness turns it off)", part)
		}
		name = "fairness=N"
	}
	for i := range policies {
		// "fairness=N" itself is not a name: its row has no set.
		if policies[i].Name == name && (policies[i].set != nil) == (n == 0) {
			return &policies[i], n, nil
		}
	}
	return nil, 0, fmt.Errorf("unknown policy %q: want one of %s, or several joined by +", part, strings.Join(PolicyNames(), ", "))
}

// PolicyNames lists the names ParsePolicy takes.
func PolicyNames() []string {
	out := make([]string, len(policies))
	for i, info := range policies {
		out[i] = info.Name
	}
	return out
}

// String names the policy as ParsePolicy reads it.
func (p Policy) String() string {
	var parts []string
	add := func(on bool, name string) {
		if on {
			parts = append(parts, name)
		}
	}
	add(p.NoRunnext, "no-runnext")
	add(p.NoSteal, "no-steal")
	add(p.StealAll, "steal-all")
	add(p.Fairness < 0, "no-fairness")
	if p.Fairness > 0 {
		parts = append(parts, "fairness="+strconv.Itoa(p.Fairness))
	}
	add(p.NoPreempt, "no-preempt")
	add(p.Cooperative, "cooperative")
	add(p.SyscallHandoff, "syscall-handoff")
	add(p.GlobalFIFO, "global-fifo")
	add(p.NoSpin, "no-spin")
	add(p.NoStarvation, "no-starvation")
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, "+")
}

// fairnessDue reports whether findRunnable looks at the global queue
// before pp's own this time (R3.3 step 5), and the period it uses.
func (s *Machine) fairnessDue(pp *P) (bool, int) {
	period := s.cfg.Policy.Fairness
	switch {
	case period < 0:
		return false, 0
	case period == 0:
		period = fairnessPeriod
	}
	return pp.Schedtick%uint32(period) == 0, period
}

// readyPlace is where a new or readied G goes on pp: runnext under the
// runtime's rules (R2.1, R8.2), else where the policy puts it.
func (s *Machine) readyPlace(pp *P) Loc {
	switch {
	case s.cfg.Policy.GlobalFIFO:
		return Loc{Kind: LocGlobal}
	case s.cfg.Policy.NoRunnext:
		return at(LocRunq, pp.ID)
	}
	return at(LocRunnext, pp.ID)
}

// putReady puts a new or readied G where readyPlace said.
func (s *Machine) putReady(pp *P, g *G, to Loc) {
	if to.Kind == LocGlobal {
		s.globrunqput(g.ID)
		return
	}
	s.runqputG(pp, g, to.Kind == LocRunnext)
}
