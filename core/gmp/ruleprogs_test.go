package gmp

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A micro-program is the smallest program found that makes a rule fire:
// the rule-to-program table below has one for every rule of the rule
// table, so that TestEventsSetOnlyTheirRulesFields checks the fields of
// every rule, not only of those the built-in scenarios reach.
type microProg struct {
	procs  int
	until  time.Duration // 0: to the end
	policy string
	// cpus and load put the Ms on CPUs beside busy threads (cpus.go).
	cpus, load int
	// tracer runs the program traced (Config.Tracer, tracer.go).
	tracer bool
	prog   Program
}

func mainOnly(ops ...Op) Program { return Program{Main: ops} }

func (mp microProg) with(policy string) microProg { mp.policy = policy; return mp }

// exitOp is runtime.Goexit.
var exitOp = Op{Kind: OpExit}

// Programs that make several rules fire, shared by their rows.
var (
	// One goroutine created, run from runnext, exiting; main waits.
	oneChild = microProg{procs: 1, prog: mainOnly(goN(1, cpu(time.Millisecond)), waitKids())}
	// Two children: the second kicks the first out of runnext into the
	// ring, whose head then runs.
	twoChildren = microProg{procs: 1, prog: mainOnly(goN(2, cpu(time.Millisecond)), waitKids())}
	// 300 goroutines on one P overflow its ring.
	overflow = microProg{procs: 1, until: time.Millisecond, prog: mainOnly(goN(300, cpu(time.Millisecond)), cpu(5*time.Millisecond))}
	// Two waves of 70 goroutines on one P: the free list spills to the
	// global list and refills from it.
	freeLists = microProg{procs: 1, prog: mainOnly(loop(2, goN(70, cpu(20*time.Microsecond)), waitKids()))}
	// Two hogs on one P: sysmon preempts them to the global queue, from
	// which the empty P takes a batch.
	hogs = microProg{procs: 1, prog: mainOnly(goN(2, cpu(30*time.Millisecond)), waitKids())}
	// One P creates work, an idle P's M spins and steals, then parks.
	steal = microProg{procs: 2, prog: mainOnly(goN(64, cpu(time.Millisecond)), cpu(20*time.Millisecond), waitKids())}
	// The fairness check: a busy ring and main on the global queue.
	fairness = microProg{procs: 1, prog: mainOnly(goN(100, cpu(50*time.Microsecond)), gosched(), cpu(time.Microsecond), waitKids())}
	// Network reads on 4 Ps: the poller blocks, returns, injects.
	network = microProg{procs: 4, prog: mainOnly(goN(8, netread(2*time.Millisecond), cpu(time.Millisecond)), waitKids())}
	// A channel ping-pong.
	pingPong = microProg{procs: 1, prog: Program{Chans: []ChanDecl{{Name: "c"}},
		Main: []Op{goN(1, recv(0)), cpu(time.Microsecond), send(0), waitKids()}}}
	// Three receivers woken by a close.
	closeWakes = microProg{procs: 1, prog: Program{Chans: []ChanDecl{{Name: "c"}},
		Main: []Op{goN(3, recv(0)), sleep(time.Millisecond), closeCh(0), waitKids()}}}
	// A sleep on an idle machine: the timer, sysmon's deep sleep.
	sleeper = microProg{procs: 1, prog: mainOnly(sleep(50 * time.Millisecond))}
	// A long system call while work waits: sysmon retakes the P.
	busySyscall = microProg{procs: 1, prog: mainOnly(goN(1, cpu(30*time.Millisecond)), syscall(20*time.Millisecond), waitKids())}
	// A long system call on an idle machine: the grace runs out.
	idleSyscall = microProg{procs: 2, prog: mainOnly(syscall(30 * time.Millisecond))}
	// A short system call keeps its P.
	shortSyscall = microProg{procs: 1, prog: mainOnly(syscall(time.Microsecond))}
	// Main's thread takes its old P back from the thread sysmon gave it
	// to (TestExitsyscallTakesOldPBack).
	takeBack = microProg{procs: 1, prog: mainOnly(goN(1, cpu(100*time.Microsecond), syscall(20*time.Millisecond)),
		syscall(240*time.Microsecond), waitKids())}
	// A blocking system call hands its P off at once.
	blockingSyscall = microProg{procs: 2, prog: mainOnly(goN(2, cpu(time.Millisecond)),
		Op{Kind: OpSyscall, Dur: Fixed(5 * time.Millisecond), Block: true}, waitKids())}
	// A pool of one worker, a sleeping task and three submitters that
	// wait their turn (TestPoolServesWaitersInOrderByHandoff).
	poolLine = microProg{procs: 1, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 1}},
		Main: []Op{submit(0, 1, sleep(10*time.Millisecond)), goN(3, submit(0, 1, cpu(time.Millisecond))), waitKids()}}}
	// A nonblocking pool rejects.
	poolReject = microProg{procs: 1, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 1, Nonblocking: true}},
		Main: []Op{submit(0, 1, sleep(10*time.Millisecond)), goN(3, submit(0, 1, cpu(time.Millisecond))), waitKids()}}}
	// Idle workers purged after their expiry.
	poolPurge = microProg{procs: 2, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 4, Expiry: 10 * time.Millisecond}},
		Main: []Op{submit(0, 1, cpu(time.Millisecond)), submit(0, 1, cpu(5*time.Millisecond)), sleep(40 * time.Millisecond), waitKids()}}}
	// Idle workers reused by later submits.
	poolReuse = microProg{procs: 1, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 2}},
		Main: []Op{submit(0, 2, cpu(time.Millisecond)), waitKids(), submit(0, 2, cpu(time.Millisecond)), waitKids()}}}
	// A task's Goexit ends its worker; a new one serves the waiter.
	poolGoexit = microProg{procs: 1, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 1}},
		Main: []Op{submit(0, 1, cpu(time.Millisecond), exitOp), submit(0, 1, cpu(time.Millisecond)), waitKids()}}}
	// A pool of one worker with a queue of two: tasks queue, main blocks
	// behind the full queue and is let in when it drains to half, the
	// worker takes queued tasks, and after the first task's Goexit a new
	// worker starts for the oldest queued one.
	poolQueue = microProg{procs: 1, prog: Program{Pools: []PoolDecl{{Name: "p", Size: 1, Queue: 2}},
		Main: []Op{submit(0, 1, cpu(time.Millisecond), exitOp), submit(0, 6, cpu(time.Millisecond)), waitKids()}}}
	// A semaphore of 4: holders, a large waiter, releases that let it in.
	semaphore = microProg{procs: 2, prog: Program{Sems: []SemDecl{{Name: "s", Size: 4}},
		Main: []Op{goN(1, acquire(0, 3), cpu(time.Millisecond), release(0, 3)), cpu(10 * time.Microsecond),
			goN(2, acquire(0, 2), cpu(time.Millisecond), release(0, 2)), cpu(10 * time.Microsecond),
			acquire(0, 1), release(0, 1), waitKids()}}}
	// errgroup.Go past its limit, and Wait.
	errgroup = microProg{procs: 2, prog: mainOnly(errgroupOp(2, 4, cpu(time.Millisecond)))}
	// Four goroutines on 2 Ps contend for a mutex: the fast path,
	// spinning, queueing, wake-ups and a woken waiter's win.
	mutexContended = microProg{procs: 2, prog: Program{Mutexes: []MutexDecl{{Name: "mu"}},
		Main: []Op{goN(4, loop(20, lockOp(0), cpu(10*time.Microsecond), unlockOp(0), cpu(10*time.Microsecond))), waitKids()}}}
	// On one P main keeps re-taking a mutex while a waiter's wait passes
	// 1ms: starvation mode, the handoff and the yield
	// (TestMutexStarvationHandsOff).
	mutexStarving = microProg{procs: 1, prog: Program{Mutexes: []MutexDecl{{Name: "mu"}},
		Main: []Op{lockOp(0), goN(1, lockOp(0), unlockOp(0)),
			loop(4, cpu(400*time.Microsecond), unlockOp(0), lockOp(0), sleep(10*time.Microsecond)),
			unlockOp(0), waitKids()}}}
	// A reader in (G2, on P0 while main yields), a writer (main, on P1)
	// waiting for it, a reader (G3) queued behind the writer and let in
	// by its Unlock.
	rwmutex = microProg{procs: 2, prog: Program{Mutexes: []MutexDecl{{Name: "rw", RW: true}},
		Main: []Op{goN(1, rlockOp(0), cpu(time.Millisecond), runlockOp(0)), gosched(),
			goN(1, rlockOp(0), runlockOp(0)),
			lockOp(0), cpu(100 * time.Microsecond), unlockOp(0), waitKids()}}}
	// A wait group: Add, Done, two waiters released at zero, a Wait that
	// returns at once, and wg.Go.
	waitGroup = microProg{procs: 2, prog: Program{WaitGroups: []WaitGroupDecl{{Name: "wg"}},
		Main: []Op{addOp(0, 2), goN(2, cpu(time.Millisecond), doneOp(0)), goN(1, waitOp(0)), waitOp(0), waitOp(0),
			wgGo(0, 2, cpu(100*time.Microsecond)), waitOp(0), waitKids()}}}
	// A select parked on two channels, won by a send on one; the send
	// on the other finds the stale sudog and drops it, then takes the
	// default of a select of its own; a select with a buffered value
	// picks it in pass 1.
	selectWake = microProg{procs: 1, prog: Program{Chans: []ChanDecl{{Name: "a"}, {Name: "b"}, {Name: "c", Cap: 1}},
		Main: []Op{goN(1, selectOp(caseRecv(0, cpu(time.Microsecond)), caseRecv(1))), sleep(time.Millisecond),
			send(0), selectOp(caseSend(1), caseDefault()), send(2), selectOp(caseRecv(2), caseRecv(0)), waitKids()}}}
	// One select woken by its time.After, one by a close.
	selectTimerClose = microProg{procs: 1, prog: Program{Chans: []ChanDecl{{Name: "a"}},
		Main: []Op{goN(1, selectOp(caseRecv(0), caseAfter(time.Millisecond))), goN(1, selectOp(caseRecv(0), caseAfter(time.Second))),
			sleep(5 * time.Millisecond), closeCh(0), waitKids()}}}
	// go Print(1); go Print(2); Print(3) on 2 Ps.
	printing = microProg{procs: 2, prog: mainOnly(goN(1, printOp("1")), goN(1, printOp("2")), printOp("3"), waitKids())}
	// for !done {} on 1 P while the goroutine that sets done waits in
	// runnext: only sysmon's signal lets it run.
	spinUntil = microProg{procs: 1, prog: Program{Flags: []string{"done"},
		Main: []Op{goN(1, setFlag(0)), loopUntil(0), printOp("done!")}}}
	// Two Ps on one CPU: the thread wakep creates waits a slice behind
	// main's (START_DEBIT), gets the CPU at a tick, and when its
	// goroutine's sleep ends wakes far enough behind main's thread to
	// preempt it.
	busyCPU = microProg{procs: 2, cpus: 1, prog: mainOnly(goN(1, sleep(time.Millisecond), cpu(time.Millisecond)),
		cpu(10*time.Millisecond), waitKids())}
	// A traced ping-pong long enough to fill a trace buffer; with until,
	// so that the writer waits for one from the start (tracer.go).
	tracedPingPong = microProg{procs: 1, tracer: true, until: time.Second, prog: Program{Chans: []ChanDecl{{Name: "c"}},
		Main: []Op{goN(1, loop(5000, recv(0))), loop(5000, send(0)), waitKids()}}}
)

// actionProgs runs the actions no program of ruleProgs uses: an action
// whose events are of existing rules gets its micro-program here
// (TestEveryActionRuns).
var actionProgs = map[OpKind]microProg{
	OpSet: spinUntil,
}

// ruleProgs is the micro-program of every rule. A rule added to the rule
// table without a row here fails TestEventsSetOnlyTheirRulesFields, which
// names it.
var ruleProgs = map[Rule]microProg{
	RuleNewproc:     oneChild,
	RuleRunqputslow: overflow,
	RuleGfput:       freeLists,
	RuleGfget:       freeLists,
	RuleGoexit:      oneChild,
	RuleMainReturn:  oneChild,
	RuleMainGoexit:  {procs: 1, prog: mainOnly(goN(1, cpu(time.Millisecond)), exitOp)},

	RuleMainStart:      oneChild,
	RuleRunnext:        oneChild,
	RuleRunqHead:       twoChildren,
	RuleGlobalFairness: fairness,
	RuleGlobalBatch:    hogs,
	RuleNetpollRun:     network,
	RuleStolenRun:      steal,

	RulePreemptAsync: hogs,
	RulePreemptSync: {procs: 1, until: 30 * time.Millisecond, prog: Program{Chans: []ChanDecl{{Name: "box", Cap: 1}},
		Main: []Op{loop(10_000_000, send(0), recv(0))}}},
	RuleGosched: fairness,
	RulePark:    sleeper,

	RuleReadyChan:     pingPong,
	RuleReadyClose:    closeWakes,
	RuleReadyTimer:    sleeper,
	RuleReadyChildren: oneChild,
	RuleInjectGlobal:  network,
	RuleInjectLocal:   network,

	RuleEntersyscall:      shortSyscall,
	RuleEntersyscallblock: blockingSyscall,
	RuleExitsyscallFast:   shortSyscall,
	RuleExitsyscallOldP:   takeBack,
	RuleExitsyscallIdleP:  idleSyscall,
	RuleExitsyscallNoP:    busySyscall,
	RuleRetake:            busySyscall,
	RuleTakeBackOldP:      takeBack,

	RuleAcquirep:      steal,
	RuleReleasepIdle:  steal,
	RuleHandoffIdle:   {procs: 3, prog: mainOnly(goN(1, cpu(5*time.Millisecond)), cpu(100*time.Microsecond), Op{Kind: OpSyscall, Dur: Fixed(time.Millisecond), Block: true}, waitKids())},
	RuleWakep:         steal,
	RuleHandoffWork:   blockingSyscall,
	RuleHandoffSpin:   {procs: 2, prog: mainOnly(goN(1, cpu(5*time.Millisecond)), cpu(100*time.Microsecond), Op{Kind: OpSyscall, Dur: Fixed(time.Millisecond), Block: true}, waitKids())},
	RuleHandoffPoll:   idleSyscall,
	RuleInjectStart:   network,
	RuleStopm:         steal,
	RuleRunqsteal:     steal,
	RuleRunqstealNext: {procs: 2, prog: mainOnly(goN(1, cpu(time.Millisecond)), cpu(5*time.Millisecond), waitKids())},

	RuleNetpollBlock:  network,
	RuleNetpollReturn: network,
	RuleNetpollBreak:  {procs: 2, prog: mainOnly(goN(1, netread(20*time.Millisecond)), cpu(2*time.Millisecond), sleep(time.Millisecond), waitKids())},
	RuleNetReady:      network,

	RuleSysmonPreempt: hogs,
	RuleSysmonNetpoll: microProg{procs: 1, prog: mainOnly(goN(1, netread(15*time.Millisecond)), sleep(100*time.Microsecond), cpu(30*time.Millisecond), waitKids())}.with("no-preempt"),
	RuleSysmonSleep:   sleeper,
	RuleSysmonWake:    sleeper,

	RuleDeadlock: {procs: 1, prog: Program{Chans: []ChanDecl{{Name: "c"}}, Main: []Op{recv(0)}}},
	RulePanic:    {procs: 1, prog: Program{Chans: []ChanDecl{{Name: "c"}}, Main: []Op{closeCh(0), closeCh(0)}}},
	RuleUntil:    {procs: 1, until: time.Millisecond, prog: mainOnly(cpu(time.Second))},

	RulePoolDispatchIdle: poolReuse,
	RulePoolDispatchNew:  poolReuse,
	RulePoolHandoff:      poolLine,
	RulePoolServeWaiter:  poolGoexit,
	RulePoolBlock:        poolLine,
	RulePoolReject:       poolReject,
	RulePoolIdle:         poolReuse,
	RulePoolPurge:        poolPurge,
	RulePoolReadyIdle:    poolReuse,
	RulePoolReadyWaiter:  poolLine,
	RulePoolReadyStop:    poolPurge,
	RulePoolWorkerLost:   poolGoexit,
	RulePoolEnqueue:      poolQueue,
	RulePoolTakeQueued:   poolQueue,
	RulePoolServeQueued:  poolQueue,
	RulePoolRefill:       poolQueue,
	RulePurgeTimer:       poolPurge,
	RuleReadyTasks:       poolReuse,

	RuleSemAcquire: semaphore,
	RuleSemWait:    semaphore,
	RuleSemNever:   {procs: 1, prog: Program{Sems: []SemDecl{{Name: "s", Size: 2}}, Main: []Op{acquire(0, 3)}}},
	RuleSemRelease: semaphore,
	RuleReadySem:   semaphore,

	RuleGroupGo:       errgroup,
	RuleGroupSlot:     errgroup,
	RuleGroupWaitDone: errgroup,

	RuleMutexLock:      mutexContended,
	RuleMutexSpin:      mutexContended,
	RuleMutexAcquire:   mutexContended,
	RuleMutexQueue:     mutexContended,
	RuleMutexStarve:    mutexStarving,
	RuleMutexHandedOff: mutexStarving,
	RuleMutexUnlock:    mutexContended,
	RuleMutexWake:      mutexContended,
	RuleMutexHandoff:   mutexStarving,
	RuleReadyMutex:     mutexContended,
	RuleGoyield:        mutexStarving,

	RuleRWRLock:       rwmutex,
	RuleRWRLockWait:   rwmutex,
	RuleRWRUnlock:     rwmutex,
	RuleRWLock:        rwmutex,
	RuleRWUnlock:      rwmutex,
	RuleReadyRWReader: rwmutex,
	RuleReadyRWWriter: rwmutex,

	RuleWGAdd:            waitGroup,
	RuleWGWait:           waitGroup,
	RuleReadyWG:          waitGroup,
	RuleSelectPick:       selectWake,
	RuleSelectDefault:    selectWake,
	RuleSelectResume:     selectWake,
	RuleSelectSkip:       selectWake,
	RuleReadySelect:      selectWake,
	RuleReadySelectClose: selectTimerClose,
	RuleReadySelectTimer: selectTimerClose,
	RulePrint:            printing,
	RuleCondAdd:          condSignalAll,
	RuleCondPark:         condSignalAll,
	RuleCondSignal:       condSignalAll,
	RuleCondBroadcast:    condSignalAll,
	RuleReadyCond:        condSignalAll,
	RuleCPUWait:          busyCPU,
	RuleCPUWakeupPreempt: busyCPU,
	RuleCPUSliceOver:     busyCPU,
	RuleCPUResume:        busyCPU,
	RuleTraceReader:      tracedPingPong,
}

// runMicro runs a micro-program with the invariants checked and gives
// every event to sink.
func runMicro(t *testing.T, mp microProg, sink func(Event)) End {
	t.Helper()
	pol, err := ParsePolicy(mp.policy)
	if err != nil {
		t.Fatal(err)
	}
	prog := mp.prog
	m, err := New(Config{Procs: mp.procs, Seed: 1, Until: mp.until, Costs: DefaultCosts(), Check: true, Policy: pol,
		CPUs: mp.cpus, Load: mp.load, Tracer: mp.tracer}, &prog)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSink(sink)
	end := m.Run()
	if end.Reason == Invariant {
		t.Fatalf("invariant broken: %v", end.Err)
	}
	return end
}

// undeclaredFields lists the rule-specific fields e sets that its rule's
// row in the rule table does not name: a field is set when it is not its
// zero, nor "none" for the second P and M.
func undeclaredFields(e *Event) []string {
	declared := map[string]bool{}
	for part := range strings.SplitSeq(e.Rule.Fields(), "; ") {
		field, _, _ := strings.Cut(part, " ")
		declared[field] = true
	}
	var out []string
	for _, f := range []struct {
		set  bool
		name string
	}{
		{e.Flag, "Flag"}, {e.G2 != NoG, "G2"}, {e.G3 != NoG, "G3"},
		{e.P2 != 0 && e.P2 != NoP, "P2"}, {e.M2 != 0 && e.M2 != NoM, "M2"},
		{e.Obj != 0, "Obj"}, {e.N != 0, "N"}, {e.N2 != 0, "N2"}, {e.N3 != 0, "N3"},
		{e.D != 0, "D"}, {e.D2 != 0, "D2"}, {e.Reason != NoReason, "Reason"},
	} {
		if f.set && !declared[f.name] {
			out = append(out, f.name)
		}
	}
	return out
}

// microRuns runs each distinct micro-program once, in rule order, and
// gives f the rule it was run for (the first of those sharing it) and its
// events.
func microRuns(t *testing.T, f func(r Rule, mp microProg, events []Event)) {
	t.Helper()
	seen := map[string]bool{}
	for r := Rule(1); r < numRules; r++ {
		mp, ok := ruleProgs[r]
		if !ok {
			continue
		}
		k := fmt.Sprintf("%+v", mp)
		if seen[k] {
			continue
		}
		seen[k] = true
		var events []Event
		runMicro(t, mp, func(e Event) { events = append(events, e) })
		f(r, mp, events)
	}
}

// opsOf lists the kinds of action a program uses, nested ones too.
func opsOf(ops []Op, into map[OpKind]bool) {
	for _, op := range ops {
		into[op.Kind] = true
		opsOf(op.Body, into)
	}
}

// Every action a scenario can write (gmp.Actions) is used by some
// micro-program, of ruleProgs or actionProgs, and the model runs it: the
// runs end as their programs mean, never on an action runG does not know.
// Add OpYield to exec.go and this fails: "no micro-program uses the action
// yield"; give it a program but no case in runG and it fails with
// "panic: unknown action yield".
func TestEveryActionRuns(t *testing.T) {
	used := map[OpKind]bool{}
	check := func(what string, mp microProg) {
		opsOf(mp.prog.Main, used)
		end := runMicro(t, mp, func(Event) {})
		if end.Err != nil && strings.Contains(end.Err.Error(), "unknown action") {
			t.Errorf("%s: %v: give the action its case in runG (exec.go)", what, end.Err)
		}
	}
	for r := Rule(1); r < numRules; r++ {
		if mp, ok := ruleProgs[r]; ok {
			check(fmt.Sprintf("the micro-program of rule %d (%s)", r, r.Fn()), mp)
		}
	}
	for k, mp := range actionProgs {
		check("the micro-program of action "+k.String(), mp)
	}
	for _, k := range Actions() {
		if !used[k] {
			t.Errorf("no micro-program uses the action %s: add one to actionProgs (ruleprogs_test.go)", k)
		}
	}
}

// Every rule of the rule table fires in its micro-program, and every event
// of every micro-program sets only the fields its rule declares. A rule
// added to events.go and the table but not to ruleProgs fails here:
// "rule 77 (foo: …) has no micro-program in ruleProgs"; one whose program
// never makes it fire fails with "… does not fire in its micro-program";
// a row that leaves out a field the emit site sets fails with the field's
// name.
func TestEventsSetOnlyTheirRulesFields(t *testing.T) {
	fired := map[string]map[Rule]bool{}
	microRuns(t, func(_ Rule, mp microProg, events []Event) {
		rules := map[Rule]bool{}
		for i := range events {
			e := &events[i]
			rules[e.Rule] = true
			if bad := undeclaredFields(e); len(bad) > 0 {
				t.Errorf("a %s event of rule %d (%s: %s) sets %s, which its row in the rule table does not name (%q)",
					e.Kind, e.Rule, e.Rule.Fn(), e.Rule.Doc(), strings.Join(bad, ", "), e.Rule.Fields())
			}
		}
		fired[fmt.Sprintf("%+v", mp)] = rules
	})
	for r := Rule(1); r < numRules; r++ {
		mp, ok := ruleProgs[r]
		if !ok {
			t.Errorf("rule %d (%s: %s) has no micro-program in ruleProgs (ruleprogs_test.go): write the smallest program that makes it fire", r, r.Fn(), r.Doc())
			continue
		}
		if !fired[fmt.Sprintf("%+v", mp)][r] {
			t.Errorf("rule %d (%s: %s) does not fire in its micro-program", r, r.Fn(), r.Doc())
		}
	}
}

// Every kind the model declares has a name of its own, which ParseKind
// reads back, and some micro-program emits it. Declare KindFoo in
// events.go without its name in kindNames and this fails: "kind 28 has no
// name in kindNames"; name it but let no rule emit it, and it fails: "no
// micro-program emits a foo event".
func TestEveryKindIsNamedAndEmitted(t *testing.T) {
	names := map[string]Kind{}
	for k := KindGoCreate; k < numKinds; k++ {
		name := kindNames[k]
		if name == "" {
			t.Errorf("kind %d has no name in kindNames (events.go)", k)
			continue
		}
		if other, dup := names[name]; dup {
			t.Errorf("kinds %d and %d are both named %q", other, k, name)
		}
		names[name] = k
		if back, ok := ParseKind(name); !ok || back != k {
			t.Errorf("ParseKind(%q) = %d, %v; want %d", name, back, ok, k)
		}
	}
	if got := len(Kinds()); got != int(numKinds)-1 {
		t.Errorf("Kinds() lists %d kinds, the model declares %d", got, numKinds-1)
	}
	emitted := map[Kind]bool{}
	microRuns(t, func(_ Rule, _ microProg, events []Event) {
		for _, e := range events {
			emitted[e.Kind] = true
		}
	})
	for _, k := range Kinds() {
		if !emitted[k] {
			t.Errorf("no micro-program emits a %s event: a kind no rule emits is not one the model has", k)
		}
	}
}
