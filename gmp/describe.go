package gmp

import (
	"fmt"
	"strconv"
	"time"

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

func (d *Describer) poolName(i int) string {
	if i >= 0 && i < len(d.pools) {
		return d.pools[i].Name
	}
	return "#" + strconv.Itoa(i)
}

func (d *Describer) semName(i int) string {
	if i >= 0 && i < len(d.sems) {
		return d.sems[i]
	}
	return "#" + strconv.Itoa(i)
}

// capOf writes a pool's running count against its capacity: "3/8".
func (d *Describer) capOf(pool int, running int32) string {
	if pool >= 0 && pool < len(d.pools) && d.pools[pool].Size > 0 {
		return fmt.Sprintf("%d/%d", running, d.pools[pool].Size)
	}
	return fmt.Sprintf("%d, no limit", running)
}

func (d *Describer) preAlloc(pool int) bool {
	return pool >= 0 && pool < len(d.pools) && d.pools[pool].PreAlloc
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
	f := sprintf
	g, p, m := e.G, e.P, e.M
	switch e.Rule {
	case RuleMainStart:
		return f("%v (main) starts on %v with %v: a new time slice, schedtick %d", g, p, m, e.N)
	case RuleNewproc:
		s := f("%v creates %v %s", e.G2, g, d.into(e))
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
		if e.N2 > 0 {
			return d.started(e, f("%v's schedtick %d is a multiple of %d (what-if fairness=%d; the runtime's is 61): the fairness check runs %v from the global queue first (schedtick %d)", p, e.N-1, e.N2, e.N2, g, e.N))
		}
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
			return f("%v sends on channel %s to %v, which was waiting to receive: %v goes %s%s", e.G2, d.chanName(e.N), g, g, d.into(e), kicked(e))
		}
		return f("%v receives on channel %s from %v, which was waiting to send: %v goes %s%s", e.G2, d.chanName(e.N), g, g, d.into(e), kicked(e))
	case RuleReadyClose:
		return f("%v closed channel %s: %v wakes %s%s", e.G2, d.chanName(e.N), g, d.into(e), kicked(e))
	case RuleReadyTimer:
		owner := ""
		if e.P2 != p {
			owner = f(", stealing %v's timers", e.P2)
		}
		return f("%v's sleep timer fires %v late, run by %v in findRunnable%s: %v goes %s%s", g, e.D, p, owner, g, d.into(e), kicked(e))
	case RuleReadyChildren:
		return f("%v, the last child of %v, exits: %v wakes %s%s", e.G2, g, g, d.into(e), kicked(e))
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
		if e.Flag {
			return f("%v enters a %v syscall and hands %v off at once (what-if syscall-handoff; Go 1.26 keeps the P attached and lets sysmon retake it)", g, e.D, p)
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
		switch e.RetakeCause() {
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
		if e.Flag {
			return f("%v steals all %d Gs of %v's ring (what-if steal-all; the runtime takes half): %v runs now, %s to %v's ring", p, e.N, e.P2, g, plural(e.N-1, "G goes", "Gs go"), p)
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

	case RulePoolDispatchIdle, RulePoolDispatchNew, RulePoolHandoff, RulePoolServeWaiter, RulePoolBlock,
		RulePoolReject, RulePoolIdle, RulePoolPurge, RulePoolReadyIdle, RulePoolReadyWaiter, RulePoolReadyStop,
		RulePurgeTimer, RuleReadyTasks, RulePoolWorkerLost:
		return d.pool(e)
	case RuleSemAcquire, RuleSemWait, RuleSemNever, RuleSemRelease, RuleReadySem:
		return d.sem(e)
	case RuleGroupGo:
		return f("%v starts %v with errgroup.Go %s%s", e.G2, g, d.into(e), kickedNew(e))
	case RuleGroupSlot:
		return f("%v ends and takes its token back from the errgroup's limit channel: %v, blocked in errgroup.Go, wakes %s%s", e.G2, g, d.into(e), kicked(e))
	case RuleGroupWaitDone:
		return f("%v, the group's last goroutine, ends: %v returns from errgroup.Wait %s%s", e.G2, g, d.into(e), kicked(e))

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
	f := sprintf
	if e.Reason == ReasonChanSend && e.To.Kind == LocChanSend && e.Op != nil && e.Op.Kind == opGroupSend {
		return f("%v blocks in errgroup.Go: all %d slots of its group are taken (the limit channel is full)", e.G, e.Op.Limit)
	}
	if e.Reason == ReasonChanRecv && e.To.Kind == LocPoolIdle {
		return f("worker w%d (%v) parks receiving on its task channel until a submitter sends it a task, or the purge closes it", e.N, e.G)
	}
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
		if len(d.pools) > 0 {
			return f("%v waits for %s (goroutines it started, pool tasks it submitted) to finish", e.G, plural(e.N, "child", "children"))
		}
		return f("%v waits for its %s to exit", e.G, plural(e.N, "child", "children"))
	case ReasonWaitGroup:
		return f("%v waits in errgroup.Wait for %s", e.G, plural(e.N, "goroutine", "goroutines"))
	case ReasonSelect:
		switch e.To.Kind {
		case LocPoolWait:
			return f("%v parks in Submit's select until a worker of pool %s takes its task (waiter #%d)", e.G, d.poolName(int(e.To.ID)), e.N)
		case LocSem:
			return f("%v parks in Acquire's select until semaphore %s has room for %d", e.G, d.semName(int(e.To.ID)), e.N)
		}
	}

	return f("%v parks (%v)", e.G, e.Reason)
}

// pool describes a pool's decisions and the wake-ups they cause.
func (d *Describer) pool(e Event) string {
	f := sprintf
	name := d.poolName(int(e.Obj))
	switch e.Rule {
	case RulePoolDispatchIdle:
		which := "the most recently used (the top of the idle stack)"
		if d.preAlloc(int(e.Obj)) {
			which = "the one idle longest (PreAlloc keeps a ring)"
		}
		return f("%v submits task %d to pool %s: idle worker w%d (%v), idle for %v, takes it, %s", e.G, e.N2, name, e.N, e.G2, e.D, which)
	case RulePoolDispatchNew:
		return f("%v submits task %d to pool %s: no worker is idle and there is room, so it starts worker w%d (%v; %s running)", e.G, e.N2, name, e.N, e.G2, d.capOf(int(e.Obj), e.N3))
	case RulePoolHandoff:
		return f("worker w%d (%v) of pool %s finishes its task and takes task %d from %v, which waited %v: it runs it at once, and %v is only woken to return", e.N, e.G, name, e.N2, e.G2, e.D, e.G2)
	case RulePoolServeWaiter:
		return f("a worker of pool %s is gone and there is room: worker w%d (%v) is started for the task %v waited %v to submit (task %d)", name, e.N, e.G2, e.G3, e.D, e.N2)
	case RulePoolBlock:
		return f("pool %s has no idle worker and no room (%s running): %v waits for one, #%d in a FIFO line of %d", name, d.capOf(int(e.Obj), e.N3), e.G, e.N, e.N2)
	case RulePoolReject:
		if e.Flag {
			return f("pool %s has no idle worker and no room (%s running), and it is nonblocking: %v's task is rejected with ErrPoolOverload", name, d.capOf(int(e.Obj), e.N3), e.G)
		}
		return f("pool %s is full and %d submitters already wait, its max_blocking: %v's task is rejected with ErrPoolOverload", name, e.N, e.G)
	case RulePoolIdle:
		s := f("worker w%d (%v) of pool %s finishes its task with nobody waiting: it goes on top of the idle stack (%d idle), stamped with the time", e.N, e.G, name, e.N2)
		if e.Flag {
			s += f("; no purge is pending, so the purge timer is set for %v from now", e.D)
		}
		return s
	case RulePoolPurge:
		var s string
		if e.N == 0 {
			s = f("the purge of pool %s finds no worker idle for %v", name, d.expiryOf(int(e.Obj)))
		} else {
			s = f("the purge of pool %s stops %s idle for %v or more (the oldest for %v), found by binary search of the idle stack", name, plural(e.N, "worker", "workers"), d.expiryOf(int(e.Obj)), e.D2)
		}
		if e.Flag {
			return s + f("; %s idle, and it re-arms for the oldest, in %v", plural(e.N2, "worker stays", "workers stay"), e.D)
		}
		return s + "; no worker is left idle, so no purge is pending"
	case RulePoolReadyIdle:
		return f("%v sends the task on worker w%d's channel: %v, parked receiving, goes %s%s", e.G2, e.N, e.G, d.into(e), kicked(e))
	case RulePoolReadyWaiter:
		return f("%v signals the ready channel of %v, waiting in Submit: %v goes %s%s", e.G2, e.G, e.G, d.into(e), kicked(e))
	case RulePoolReadyStop:
		return f("the purge closes the task channel of worker w%d, idle for %v: %v wakes %s to return%s", e.N, e.D, e.G, d.into(e), kicked(e))
	case RulePurgeTimer:
		owner := ""
		if e.P2 != e.P {
			owner = f(" (stolen from %v's heap)", e.P2)
		}
		return f("the purge timer of pool %s fires %v late on %v%s: time.AfterFunc starts %v to run the purge, %s%s", name, e.D, e.P, owner, e.G, d.into(e), kickedNew(e))
	case RuleReadyTasks:
		return f("%v finishes the last task %v was waiting for: %v wakes %s%s", e.G2, e.G, e.G, d.into(e), kicked(e))
	case RulePoolWorkerLost:
		return f("the task on worker w%d (%v) of pool %s called runtime.Goexit, which ends the worker too: the pool stops counting it (%s running)", e.N, e.G, name, d.capOf(int(e.Obj), e.N3))
	}
	return e.Kind.String()
}

func (d *Describer) expiryOf(pool int) time.Duration {
	if pool >= 0 && pool < len(d.pools) && d.pools[pool].Expiry > 0 {
		return d.pools[pool].Expiry
	}
	return DefaultPoolExpiry
}

// sem describes a semaphore's decisions.
func (d *Describer) sem(e Event) string {
	f := sprintf
	name := d.semName(int(e.Obj))
	switch e.Rule {
	case RuleSemAcquire:
		return f("%v acquires %d of semaphore %s (%d taken now)", e.G, e.N, name, e.N2)
	case RuleSemWait:
		return f("%v asks semaphore %s for %d with %d taken: it queues, #%d in line", e.G, name, e.N, e.N2, e.N3)
	case RuleSemNever:
		return f("%v asks semaphore %s for %d, more than it can ever hold: Acquire waits for its context, which never ends", e.G, name, e.N)
	case RuleSemRelease:
		s := f("%v releases %d of semaphore %s", e.G, e.N, name)
		if e.N3 > 0 {
			s += f(" and lets %s through in order", plural(int(e.N3), "waiter", "waiters"))
		}
		s += f(" (%d taken now)", e.N2)
		if e.Flag {
			s += f("; the next waiter, %v, does not fit yet, so everyone behind it waits too", e.G2)
		}
		return s
	case RuleReadySem:
		return f("%v's release lets %v take %d of semaphore %s: %v wakes %s%s", e.G2, e.G, e.N, name, e.G, d.into(e), kicked(e))
	}
	return e.Kind.String()
}

// SysmonDid words sysmon's last decision, in a few words, for a panel.
func (d *Describer) SysmonDid(x SysmonDecision) string {
	switch x.Kind {
	case SysmonSlept:
		return "deep sleep: every P is idle"
	case SysmonPolled:
		return "polled the network"
	case SysmonRetook:
		return "retook " + x.P.String() + " from a syscall"
	case SysmonPreempted:
		return "asked " + x.G.String() + " on " + x.P.String() + " to stop"
	}
	return "nothing to do"
}

// kickedNew is kicked for a go-create event, whose N is the ring length.
func kickedNew(e Event) string {
	if e.G3 == NoG {
		return ""
	}
	if e.Flag {
		return fmt.Sprintf("; %v, kicked out of runnext, finds the ring full", e.G3)
	}
	return fmt.Sprintf("; %v, kicked out of runnext, goes to the ring's tail (%d/256)", e.G3, e.N)
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
