package gmp

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/sim"
)

// Describer turns events into sentences. It is the only place that does:
// the trace, the UI's log and the golden files all use it, so they cannot
// disagree. It needs the program only for channel names.
type Describer struct {
	chans []string
}

// NewDescriber returns a describer for events of prog.
func NewDescriber(prog *Program) *Describer {
	d := &Describer{}
	if prog != nil {
		for _, c := range prog.Chans {
			d.chans = append(d.chans, c.Name)
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
		return "sem:" + strconv.Itoa(int(l.ID))
	}
	return ""
}

func (d *Describer) chanName(i int) string {
	if i >= 0 && i < len(d.chans) {
		return d.chans[i]
	}
	return "#" + strconv.Itoa(i)
}

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
	}
	return d.Loc(l)
}

// Describe returns the one-line explanation of e.
func (d *Describer) Describe(e Event) string {
	f := fmt.Sprintf
	g, p, m := e.G, e.P, e.M
	switch e.Rule {
	case RuleMainStart:
		return f("%v (main) starts on %v with %v: a new time slice, schedtick %d", g, p, m, e.N)
	case RuleNewproc:
		s := f("%v creates %v into %v's runnext", e.G2, g, p)
		if e.G3 != NoG {
			if e.Flag {
				s += f("; %v, kicked out of runnext, finds the ring full", e.G3)
			} else {
				s += f("; %v, kicked out of runnext, goes to the ring's tail (%d/256)", e.G3, e.N)
			}
		}
		if e.N2 != 0 {
			s += f("; it reuses the descriptor %v left on %v's free list", GID(e.N2), p)
		}
		return s
	case RuleRunqputslow:
		return f("%v's ring is full (256): moved the %d oldest and %v to the global queue (now %d)", p, e.N-1, g, e.N2)
	case RuleGfput:
		return f("%v's free list reached 64 descriptors: moved %d to the global list, %d stay", p, e.N, e.N2)
	case RuleGfget:
		return f("%v's free list was empty: took %d descriptors from the global list (%d left there)", p, e.N, e.N2)
	case RuleGoexit:
		return f("%v exits; its descriptor goes on %v's free list for the next go statement", g, p)
	case RuleMainReturn:
		return f("main (%v) returned: the program exits with %d other goroutines alive", g, e.N)
	case RuleMainGoexit:
		return f("%v (main) calls runtime.Goexit: it exits but the program goes on", g)

	case RuleRunnext:
		return d.started(e, f("%v runs %v from its runnext and inherits the current time slice (schedtick stays %d)", p, g, e.N))
	case RuleRunqHead:
		return d.started(e, f("%v runs %v from the head of its ring: a new time slice, schedtick %d", p, g, e.N))
	case RuleGlobalFairness:
		return d.started(e, f("%v's schedtick %d is a multiple of 61: the fairness check runs %v from the global queue first (schedtick %d)", p, e.N-1, g, e.N))
	case RuleGlobalBatch, RuleGlobalBatchIdle:
		s := f("%v's queue is empty: it runs %v from the global queue", p, g)
		if e.N2 > 1 {
			s += f(" and moves %d more to its ring (batch of min(128, len, len/GOMAXPROCS+1) = %d)", e.N2-1, e.N2)
		}
		if e.Rule == RuleGlobalBatchIdle {
			s += ", found after dropping spinning"
		}
		return d.started(e, s+f("; schedtick %d", e.N))
	case RuleNetpollRun:
		if e.Kind == KindGoUnblock {
			return f("%v's network read is ready and the poll returned it: %v runs it next", g, p)
		}
		return d.started(e, f("%v runs %v, returned by the network poller; schedtick %d", p, g, e.N))
	case RuleStolenRun:
		return d.started(e, f("%v runs %v, stolen from %v; schedtick %d", p, g, d.place(e.From), e.N))

	case RulePreemptAsync:
		return f("%v is preempted on %v after running %v%s: the signal caught it in user code; it goes to the tail of the global queue (%d there)", g, p, e.D, sliceAge(e), e.N)
	case RulePreemptSync:
		return f("%v stops at a safe point on %v after running %v%s, honouring a pending preemption request; to the tail of the global queue (%d there)", g, p, e.D, sliceAge(e), e.N)
	case RuleGosched:
		return f("%v calls runtime.Gosched on %v: it goes to the tail of the global queue (%d there), not to %v's ring", g, p, e.N, p)
	case RulePark:
		s := d.park(e)
		if e.Flag {
			s += "; the preemption request pending on it is now moot"
		}
		return s

	case RuleReadyChan:
		if e.Reason == ReasonChanRecv {
			return f("%v sends on channel %s to %v, which was waiting to receive: %v goes into %v's runnext%s", e.G2, d.chanName(e.N), g, g, p, kicked(e))
		}
		return f("%v receives on channel %s from %v, which was waiting to send: %v goes into %v's runnext%s", e.G2, d.chanName(e.N), g, g, p, kicked(e))
	case RuleReadyClose:
		return f("%v closed channel %s: %v wakes into %v's runnext%s", e.G2, d.chanName(e.N), g, p, kicked(e))
	case RuleReadyTimer:
		owner := ""
		if e.P2 != p {
			owner = f(", stealing %v's timers", e.P2)
		}
		return f("%v's sleep timer fires %v late, run by %v in findRunnable%s: %v goes into %v's runnext%s", g, e.D, p, owner, g, p, kicked(e))
	case RuleReadyChildren:
		return f("%v, the last child of %v, exits: %v wakes into %v's runnext%s", e.G2, g, g, p, kicked(e))
	case RuleInjectGlobal:
		return f("%v's read is ready: injectglist puts it on the global queue", g)
	case RuleInjectLocal:
		return f("%v's read is ready: injectglist puts it on %v's ring", g, p)

	case RuleEntersyscall:
		return f("%v enters a %v syscall; %v stays attached to %v (Go 1.26 hands nothing off on entry)", g, e.D, p, m)
	case RuleEntersyscallblock:
		if e.Kind == KindProcStop {
			return f("%v gives up %v before blocking", m, p)
		}
		return f("%v enters a %v syscall known to block: entersyscallblock hands %v off at once", g, e.D, p)
	case RuleExitsyscallFast:
		return f("%v's syscall returns and %v is still attached: it goes on without a new time slice%s", g, p, preemptArmed(e))
	case RuleExitsyscallOldP:
		return f("%v's syscall returns without a P; it takes its old %v back from %v, whose G is in a syscall", g, p, e.M2)
	case RuleExitsyscallIdleP:
		return f("%v's syscall returns without a P; it takes idle %v and goes on", g, p)
	case RuleExitsyscallNoP:
		return f("%v's syscall returns without a P and none is idle: %v goes to the global queue and %v parks", g, g, m)
	case RuleRetake:
		var why string
		switch e.N2 {
		case RetakeQueued:
			why = "Gs are queued on it, so there is no grace period"
		case RetakeNoHelper:
			why = "no P is idle and no M spins, so there is no grace period"
		case RetakeGraceOver:
			why = f("nothing is queued, but sysmon first saw this syscall %v ago: its 10ms grace is over", e.D)
		case RetakeStaleSlice:
			why = f("the time slice it runs in is 10ms old (sysretake), so sysmon measures the grace from its record of %v ago, which is over", e.D)
		}
		if e.Flag {
			why += f("; this is %v's first syscall, and with its syscalltick and sysmon's record both 0, sysmon never saw it as new", p)
		}
		return f("sysmon takes %v from %v, whose %v is in a syscall: %s", p, e.M2, g, why)
	case RuleTakeBackOldP:
		return f("%v, back from a syscall, takes its old %v from %v, which is in a syscall with %v", m, p, e.M2, g)

	case RuleAcquirep:
		if e.Flag {
			return f("%v acquires %v and spins looking for work", m, p)
		}
		return f("%v acquires %v", m, p)
	case RuleReleasepIdle:
		if e.Flag {
			return f("%v found nothing to run or steal: it puts %v on the idle list, stops spinning and checks everything once more", m, p)
		}
		return f("%v found nothing to run: it puts %v on the idle list", m, p)
	case RuleHandoffIdle:
		return f("%v has no work and others can pick up new work: handoffp puts it on the idle list", p)

	case RuleWakep:
		return f("wakep: %v is idle and no M is spinning, so %s %v to spin on it (%d spinning)", p, startedHow(e), m, e.N2)
	case RuleHandoffWork:
		return f("handoffp: %v has queued work, so %s %v for it", p, startedHow(e), m)
	case RuleHandoffSpin:
		return f("handoffp: no P is idle and no M spins, so %s %v to spin on %v", startedHow(e), m, p)
	case RuleHandoffPoll:
		return f("handoffp: %v would be the last running P with nobody polling the network, so %s %v for it", p, startedHow(e), m)
	case RuleInjectStart:
		return f("injectglist: %s %v on idle %v for a G put on the global queue", startedHow(e), m, p)
	case RuleStopm:
		return f("%v parks on the idle M list (%s)", m, plural(e.N, "idle M", "idle Ms"))

	case RuleRunqsteal:
		if e.N == 1 {
			return f("%v steals the one G in %v's ring: %v runs now", p, e.P2, g)
		}
		return f("%v steals %d Gs, half of %v's ring (%d left there): %v runs now, %s to %v's ring", p, e.N, e.P2, e.N2, g, plural(e.N-1, "G goes", "Gs go"), p)
	case RuleRunqstealNext:
		if e.Flag {
			return f("%v steals %v from %v's runnext on the last pass, after a usleep(3) back-off (%v with timer slack)", p, g, e.P2, e.D)
		}
		return f("%v steals %v from %v's runnext on the last pass, without backing off: %v's G is in a syscall or it has no M", p, g, e.P2, e.P2)

	case RuleNetpollBlock:
		if e.Flag {
			return f("%v blocks in netpoll for %v, until the next timer (%s on the network)", m, e.D, plural(e.N, "G waits", "Gs wait"))
		}
		return f("%v blocks in netpoll with no timeout (%s on the network)", m, plural(e.N, "G waits", "Gs wait"))
	case RuleNetpollReturn:
		return f("%v returns from netpoll with %s", m, plural(e.N, "ready G", "ready Gs"))
	case RuleNetpollBreak:
		return f("netpollBreak wakes %v out of netpoll: a timer is due before it would wake", m)
	case RuleNetReady:
		if m != NoM {
			return f("%v's network read is ready: %v, blocked in netpoll, returns", g, m)
		}
		return f("%v's network read is ready; it stays parked until some M polls the network", g)

	case RuleSysmonPreempt:
		return f("sysmon asks %v on %v to stop: it has seen %v's slice (schedtick %d) for %v", g, p, p, e.N, e.D)
	case RuleSysmonNetpoll:
		return f("sysmon polls the network, which nobody did for 10ms: %s", plural(e.N, "G is ready", "Gs are ready"))
	case RuleSysmonSleep:
		if e.Flag {
			return f("every P is idle: sysmon sleeps deeply until the next timer, in %v", e.D)
		}
		return f("every P is idle: sysmon sleeps deeply for up to %v", e.D)
	case RuleSysmonWake:
		if e.Flag {
			return "a syscall wakes sysmon from its deep sleep; its back-off restarts at 20µs"
		}
		return "sysmon wakes from its deep sleep"

	case RuleDeadlock:
		return "all goroutines are asleep: deadlock"
	case RulePanic:
		return "the program panics"
	case RuleUntil:
		return f("the run stops here with %d goroutines alive", e.N)
	}
	return e.Kind.String()
}

func (d *Describer) started(e Event, s string) string {
	if e.D > 0 {
		s += " (runnable for " + e.D.String() + ")"
	}
	return s
}

func (d *Describer) park(e Event) string {
	f := fmt.Sprintf
	switch e.Reason {
	case ReasonSleep:
		return f("%v sleeps %v: parked, its timer goes into %v's heap", e.G, e.D, e.P)
	case ReasonNetwork:
		return f("%v reads from the network and parks in the poller; its data arrives in %v", e.G, e.D)
	case ReasonChanSend:
		return f("%v blocks sending to %s", e.G, d.place(e.To))
	case ReasonChanRecv:
		return f("%v blocks receiving from %s", e.G, d.place(e.To))
	case ReasonWait:
		return f("%v waits for its %s to exit", e.G, plural(e.N, "child", "children"))
	}
	return f("%v parks (%v)", e.G, e.Reason)
}

// plural writes "1 G goes" or "3 Gs go".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// sliceAge mentions the slice's age when the G inherited an older slice.
func sliceAge(e Event) string {
	if e.D2 > e.D {
		return fmt.Sprintf(" in a time slice %v old, shared through runnext", e.D2)
	}
	return ""
}

func kicked(e Event) string {
	if e.G3 == NoG {
		return ""
	}
	return fmt.Sprintf(", kicking %v to the ring's tail", e.G3)
}

func preemptArmed(e Event) string {
	if e.Flag {
		return "; a preemption request stays armed"
	}
	return ""
}

func startedHow(e Event) string {
	if e.Flag {
		return "it creates"
	}
	return "it wakes"
}

// TimeString formats an event time for the text trace.
func TimeString(t sim.Time) string { return t.String() }
