package gmp

// The rule table: for each rule, the runtime function it mirrors, one
// sentence on what it does, and the meaning of each Event field it sets
// beyond the ones every event shares (T, Kind, Rule, G, P, M, From, To,
// Op, Cause). The describer writes the sentence a user reads for each
// event; this table is what a programmer reads.
//
// The names of the fields are code: go generate writes, from this table,
// one method per name (details_gen.go: Stolen, Worker, Kicked, …) that
// reads the field the event's rule keeps it in, and Event.Involves. So no
// code decodes N2 or G3 by position, and a misspelt detail does not
// compile. TestDetailsAreGenerated fails when details_gen.go is stale.

//go:generate go run ./internal/gendetails

// ruleInfo is one row of the rule table.
type ruleInfo struct {
	fn  string
	doc string
	// fields names what the rule puts in the rule-specific fields, as
	// "Field name; Field name", e.g. "G2 creator; N ringLen". The
	// accessor's type is the field's (int for an int32), or the type
	// a third word names: "N2 retakeCause RetakeCause". One name has one
	// type across rules.
	fields string
}

var ruleTable = [numRules]ruleInfo{
	RuleNone: {doc: "no rule"},

	RuleNewproc: {"newproc", "a go statement puts the new goroutine in its P's runnext; the one there goes to the ring's tail (R2.1, R2.3)",
		"G2 creator; G3 kicked; N ringLen; N2 reusedFrom GID; Flag ringFull"},
	RuleRunqputslow: {"runqputslow", "a full ring moves its older half and the new goroutine to the global queue (R2.5)",
		"N moved; N2 globalLen"},
	RuleGfput:      {"gfput", "a P's free list of dead descriptors passed 64: half go to the global list (R10.2)", "N moved; N2 left"},
	RuleGfget:      {"gfget", "a P's empty free list refills from the global list (R10.3)", "N moved; N2 left"},
	RuleGoexit:     {"goexit0", "a goroutine exits and its descriptor goes on its P's free list", ""},
	RuleMainReturn: {"runtime.main", "main returns and the program exits", "N alive"},
	RuleMainGoexit: {"goexit0", "main calls runtime.Goexit: it exits and the program goes on", ""},

	RuleMainStart: {"runtime.main", "the main goroutine starts on P0", "N schedtick"},
	RuleRunnext: {"runqget", "a P runs the goroutine in its runnext, inheriting the time slice (R3.4)",
		"N schedtick; D waited"},
	RuleRunqHead: {"runqget", "a P runs the goroutine at the head of its ring, with a new time slice (R3.2)",
		"N schedtick; D waited"},
	RuleGlobalFairness: {"globrunqget", "every 61st schedtick a P takes one goroutine from the global queue first (R3.5)",
		"N schedtick; N2 period; D waited"},
	RuleGlobalBatch: {"globrunqgetbatch", "a P with an empty queue takes a batch from the global queue (R3.3)",
		"N schedtick; N2 batch; D waited"},
	RuleNetpollRun: {"findRunnable", "a P runs a goroutine the network poller returned",
		"N schedtick; D waited"},
	RuleStolenRun: {"stealWork", "a P runs the last goroutine it stole (R3.8)",
		"N schedtick; N2 stolen; P2 victim; D waited"},

	RulePreemptAsync: {"asyncPreempt", "a preemption signal stops a goroutine in user code; it goes to the global queue (R7.3, R7.4)",
		"N globalLen; D ran; D2 sliceAge; Reason reason"},
	RulePreemptSync: {"gopreempt_m", "a goroutine honours a pending preemption request at a safe point (R7.2)",
		"N globalLen; D ran; D2 sliceAge; Reason reason"},
	RuleGosched: {"goschedImpl", "runtime.Gosched puts the goroutine on the global queue's tail",
		"N globalLen; D ran; D2 sliceAge; Reason reason"},
	RulePark: {"gopark", "a goroutine parks: on a channel, a timer, the poller, a wait, a pool or a semaphore",
		"N waitArg; D duration; Flag preemptMoot; Reason reason"},

	RuleReadyChan: {"goready", "a send or receive wakes the goroutine waiting on the other side (R8.2, R8.3)",
		"G2 waker; G3 kicked; N chan; Reason reason"},
	RuleReadyClose:    {"closechan", "closing a channel wakes its waiters", "G2 waker; G3 kicked; N chan"},
	RuleReadyTimer:    {"timers.check", "a sleep's timer fires in findRunnable and readies the sleeper (R8.5)", "G3 kicked; P2 timerOwner; D late"},
	RuleReadyChildren: {"goready", "the last child a goroutine waits for exits and wakes it", "G2 waker; G3 kicked"},
	RuleInjectGlobal:  {"injectglist", "a network-ready goroutine goes to the global queue (no P to put it on)", ""},
	RuleInjectLocal:   {"injectglist", "a network-ready goroutine goes to the polling P's ring", ""},

	RuleEntersyscall: {"reentersyscall", "a goroutine enters a system call and its P stays attached (R5.1)", "D duration"},
	RuleEntersyscallblock: {"entersyscallblock", "a system call known to block hands its P off at once (R5.6)",
		"D duration; Flag handoffPolicy"},
	RuleExitsyscallFast:  {"exitsyscall", "a system call returns to the P still attached (R5.3)", "M2 thread; Flag preemptArmed"},
	RuleExitsyscallOldP:  {"exitsyscallTryGetP", "a system call returns and takes its old P back from another thread (R5.4)", "M2 thread; Flag preemptArmed"},
	RuleExitsyscallIdleP: {"exitsyscallTryGetP", "a system call returns and takes an idle P (R5.4)", "M2 thread; Flag preemptArmed"},
	RuleExitsyscallNoP:   {"exitsyscallNoP", "a system call returns to no P: the goroutine goes to the global queue and its M parks (R5.5)", ""},
	RuleRetake: {"retake", "sysmon takes the P of a goroutine in a long system call (R5.7)",
		"N2 retakeCause RetakeCause; D grace; Flag firstSyscall; M2 thread"},
	RuleTakeBackOldP: {"exitsyscallTryGetP", "a thread back from a system call takes its old P from the thread that took it", "M2 thread"},

	RuleAcquirep:      {"acquirep", "an M acquires a P", "Flag spins"},
	RuleReleasepIdle:  {"findRunnable", "an M with nothing to run puts its P on the idle list (R3.3)", "Flag wasSpinning"},
	RuleHandoffIdle:   {"handoffp", "handoffp puts a P with no work on the idle list (R4.5)", ""},
	RuleWakep:         {"wakep", "an idle P and no spinning M: an M is started to spin (R2.7, R4.3)", "N spinning; N2 nmspinning; Flag newM; D idleWakeLate; D2 parkedFor; M2 takesCPUOf"},
	RuleHandoffWork:   {"handoffp", "a P handed off with queued work gets an M (R4.5)", "N spinning; N2 nmspinning; Flag newM; D idleWakeLate; D2 parkedFor; M2 takesCPUOf"},
	RuleHandoffSpin:   {"handoffp", "a P handed off when nobody spins gets a spinning M (R4.5)", "N spinning; N2 nmspinning; Flag newM; D idleWakeLate; D2 parkedFor; M2 takesCPUOf"},
	RuleHandoffPoll:   {"handoffp", "the last P with nobody polling the network gets an M (R4.5)", "N spinning; N2 nmspinning; Flag newM; D idleWakeLate; D2 parkedFor; M2 takesCPUOf"},
	RuleInjectStart:   {"injectglist", "goroutines put on the global queue start an M on an idle P", "N spinning; N2 nmspinning; Flag newM; D idleWakeLate; D2 parkedFor; M2 takesCPUOf"},
	RuleStopm:         {"stopm", "an M parks on the idle list", "N idleMs"},
	RuleRunqsteal:     {"runqsteal", "an M steals half of another P's ring (R3.8)", "N stolen; N2 left; P2 victim; Flag stealAll"},
	RuleRunqstealNext: {"runqgrab", "on its last pass a thief takes another P's runnext, after a back-off (R3.8)", "N stolen; P2 victim; D backoff; Flag backedOff"},

	RuleNetpollBlock: {"findRunnable", "an M with nothing to do blocks in the network poller, until the earliest timer of any P, which may be a zombie (R3.3, R8.8)",
		"N waiting; D timeout; Flag hasTimeout; G2 zombieOf; P2 zombieOn"},
	RuleNetpollReturn: {"findRunnable", "an M returns from the network poller", "N ready"},
	RuleNetpollBreak:  {"netpollBreak", "a timer due sooner wakes the M blocked in the poller", "M2 breaker"},
	RuleNetReady:      {"netpoll", "a goroutine's network read becomes ready", ""},

	RuleSysmonPreempt: {"preemptone", "sysmon asks a goroutine that ran 10ms to stop (R6.6, R7.1)", "N schedtick; D seen; M2 thread; Flag noSignal"},
	RuleSysmonNetpoll: {"sysmon", "sysmon polls the network nobody polled for 10ms", "N ready"},
	RuleSysmonSleep:   {"sysmon", "with every P idle, sysmon sleeps deeply", "D sleep; Flag untilTimer"},
	RuleSysmonWake:    {"sysmon", "sysmon wakes from its deep sleep", "Flag bySyscall"},

	RuleDeadlock: {"checkdead", "every goroutine is asleep: the program dies", "N alive"},
	RulePanic:    {"gopanic", "the program panics", "N alive"},
	RuleUntil:    {"", "the run stops at its until: time, its event limit or the century limit", "N alive"},

	RulePoolDispatchIdle: {"pool.submit", "a pool gives a task to an idle worker: the top of its stack (P1)",
		"Obj pool; N worker; N2 task; N3 running; G2 workerG; D idleFor"},
	RulePoolDispatchNew: {"pool.submit", "a pool with no idle worker and room starts a worker for the task (P1)",
		"Obj pool; N worker; N2 task; N3 running; G2 workerG"},
	RulePoolHandoff: {"pool.finishTask", "a worker done with its task takes the first waiting submitter's task (P2)",
		"Obj pool; N worker; N2 task; N3 running; G2 waiterG; D waited"},
	RulePoolServeWaiter: {"pool.serveWaiters", "a worker gone and room made: a new worker serves a waiting submitter (P2)",
		"Obj pool; N worker; N2 task; N3 running; G2 workerG; G3 waiterG; D waited"},
	RulePoolBlock:  {"pool.submit", "a full pool: the submitter waits in a FIFO line (P1)", "Obj pool; N waiterNo; N2 lineLen; N3 running"},
	RulePoolReject: {"pool.submit", "a full nonblocking pool, or a line at max_blocking, rejects the task (P1)", "Obj pool; N waiting; N3 running; Flag nonblocking"},
	RulePoolIdle: {"pool.finishTask", "a worker with nobody waiting goes on top of the idle stack (P3)",
		"Obj pool; N worker; N2 idle; N3 running; D purgeIn; Flag purgeArmed"},
	RulePoolPurge: {"pool.purgeExpired", "the purge stops the workers idle for the expiry and re-arms for the oldest left (P4)",
		"Obj pool; N purged; N2 idle; N3 running; D rearmIn; D2 oldest; Flag rearmed"},
	RulePoolReadyIdle:   {"chansend", "a submitter's send wakes the idle worker it chose", "Obj pool; N worker; G2 waker; G3 kicked"},
	RulePoolReadyWaiter: {"chansend", "a worker signals a waiting submitter that its task is taken", "Obj pool; N worker; G2 waker; G3 kicked"},
	RulePoolReadyStop:   {"closechan", "the purge closes an expired worker's channel, waking it to return", "Obj pool; N worker; G2 waker; G3 kicked; D idleFor"},
	RulePoolWorkerLost:  {"pool.workerLost", "a task's runtime.Goexit ends its worker too", "Obj pool; N worker; N3 running"},
	RulePurgeTimer: {"time.goFunc", "a pool's purge timer fires and starts a goroutine to purge",
		"Obj pool; P2 timerOwner; D late; G3 kicked; N ringLen; N2 reusedFrom GID; Flag ringFull"},
	RuleReadyTasks: {"goready", "the last task a goroutine waits for finishes and wakes it", "G2 waker; G3 kicked"},

	RuleSemAcquire: {"semaphore.Acquire", "a semaphore has room: the caller takes it", "Obj sem; N weight; N2 taken"},
	RuleSemWait:    {"semaphore.Acquire", "a semaphore without room: the caller queues", "Obj sem; N weight; N2 taken; N3 position"},
	RuleSemNever:   {"semaphore.Acquire", "a request larger than the semaphore waits for ever", "Obj sem; N weight; N3 position"},
	RuleSemRelease: {"semaphore.Release", "a release lets queued waiters through in order while they fit",
		"Obj sem; N weight; N2 taken; N3 letThrough; G2 nextWaiter; Flag stuck"},
	RuleReadySem: {"closechan", "a release wakes a waiter that now fits", "Obj sem; N weight; G2 waker; G3 kicked"},

	RuleGroupGo:       {"errgroup.Go", "errgroup.Go starts a goroutine, as a go statement does", "G2 creator; G3 kicked; N ringLen; N2 reusedFrom GID; Flag ringFull"},
	RuleGroupSlot:     {"chanrecv", "a group's goroutine ends and frees a slot for a blocked errgroup.Go", "G2 waker; G3 kicked; N chanCap"},
	RuleGroupWaitDone: {"sync.WaitGroup.Done", "a group's last goroutine ends and errgroup.Wait returns", "G2 waker; G3 kicked"},

	RulePoolEnqueue: {"pool.submit", "a pool with a queue, no idle worker and no room queues the task; the submitter goes on (P5)",
		"Obj pool; N queueLen; N2 task; N3 running"},
	RulePoolTakeQueued: {"pool.finishTask", "a worker done with its task takes the oldest queued task instead of parking (P5)",
		"Obj pool; N worker; N2 task; N3 queueLeft; G2 owner; D waited"},
	RulePoolServeQueued: {"pool.serveWaiters", "a worker gone and room made: a new worker takes the oldest queued task (P5)",
		"Obj pool; N worker; N2 task; N3 running; G2 workerG; D waited"},
	RulePoolRefill: {"pool.refill", "a queue drained to half lets the first waiters move their tasks into it (P5)",
		"Obj pool; N waiterNo; N2 task; N3 inQueue; G2 waiterG; D waited"},
	RuleMutexLock: {"sync.Mutex.Lock", "the fast path: one CAS takes a mutex that is free, with nobody waiting or woken for it", "Obj mutex"},
	RuleMutexSpin: {"sync_runtime_canSpin", "the mutex is held and spinning may pay (more than one P busy, the local run queue empty, fewer than 4 spins since the goroutine arrived or woke): it spins, procyield(30)",
		"Obj mutex; N spin; G2 holder; Flag setsWoken"},
	RuleMutexAcquire: {"sync.Mutex.lockSlow", "a CAS in lockSlow takes the mutex: after spinning, on waking from the queue, or arriving while it is free but contended",
		"Obj mutex; N spun; D waited; Flag woke"},
	RuleMutexQueue: {"semacquire1", "the mutex is held, or handed to a waiter: the goroutine queues on its semaphore at the tail, or at the head if it woke and lost (lifo)",
		"Obj mutex; N position; N2 waiters; G2 holder; Flag lifo; D waited"},
	RuleMutexStarve:    {"sync.Mutex.lockSlow", "a woken waiter that has waited over 1ms and loses again puts the mutex in starvation mode", "Obj mutex; G2 holder; D waited"},
	RuleMutexHandedOff: {"sync.Mutex.lockSlow", "in starvation mode the woken waiter owns the mutex it was handed; it ends the mode if it waited under 1ms or nobody waits behind it", "Obj mutex; N2 waiters; D waited; Flag endsStarvation"},
	RuleMutexUnlock:    {"sync.Mutex.Unlock", "an unlock that wakes nobody: no one waits, or a woken or spinning goroutine is already on its way to the mutex", "Obj mutex; N2 waiters; Flag wokenPending"},
	RuleMutexWake:      {"sync.Mutex.unlockSlow", "in normal mode an unlock wakes the first waiter, which must then compete with arriving goroutines for the mutex", "Obj mutex; N2 waiters"},
	RuleMutexHandoff:   {"sync.Mutex.unlockSlow", "in starvation mode an unlock hands the mutex to the first waiter (semrelease with handoff) and yields its P to it", "Obj mutex; N2 waiters"},
	RuleReadyMutex:     {"semrelease1", "an unlock readies the first waiter of a mutex: to compete for it, or handed it", "Obj mutex; G2 waker; G3 kicked; D waited; Flag handoff"},
	RuleGoyield:        {"goyield", "after a handoff the releaser yields its P: it goes to the tail of its P's ring, and the waiter in runnext runs at once", "N ringLen; D ran; D2 sliceAge; Reason reason"},

	RuleRWRLock:     {"sync.RWMutex.RLock", "no writer holds or waits: the reader is in", "Obj mutex; N readers"},
	RuleRWRLockWait: {"sync.RWMutex.RLock", "a writer holds the lock or waits for it: the reader queues on readerSem", "Obj mutex; N position; G2 holder"},
	RuleRWRUnlock:   {"sync.RWMutex.RUnlock", "a reader leaves; the last of those a waiting writer waits for wakes it", "Obj mutex; N readers; Flag wakesWriter"},
	RuleRWLock: {"sync.RWMutex.Lock", "the writer, holding rw.w, shuts new readers out: it has the lock, or waits on writerSem for the readers inside to leave",
		"Obj mutex; N readers; Flag waits"},
	RuleRWUnlock:      {"sync.RWMutex.Unlock", "the writer lets in the readers that queued behind it, then unlocks rw.w", "Obj mutex; N readers"},
	RuleReadyRWReader: {"semrelease1", "a writer's unlock readies a reader that queued behind it", "Obj mutex; G2 waker; G3 kicked"},
	RuleReadyRWWriter: {"semrelease1", "the last reader to leave readies the writer waiting for it", "Obj mutex; G2 waker; G3 kicked"},

	RuleWGAdd: {"sync.WaitGroup.Add", "Add changes the counter (Done is Add(-1), wg.Go calls Add(1)); the Add that brings it to zero releases every waiter",
		"Obj wg; N delta; N2 counter; N3 released"},
	RuleWGWait:  {"sync.WaitGroup.Wait", "Wait returns at once with the counter at zero, or counts itself a waiter and parks", "Obj wg; N waiters; N2 counter; Flag parks"},
	RuleReadyWG: {"semrelease1", "the Add that brings a wait group's counter to zero readies a waiter", "Obj wg; G2 waker; G3 kicked"},
	RuleSelectPick: {"selectgo", "pass 1 polls the cases in a random order and takes the first one ready: a partner parked on the other side, the buffer, a closed channel, an expired timer (R8.7)",
		"N selCase; N2 pollOrder; N3 polled; Obj how SelectReady; G2 partner"},
	RuleSelectDefault: {"selectgo", "pass 1 finds no case ready and the select has a default: it takes it without blocking (R8.7)",
		"N selCase; N2 pollOrder; N3 polled"},
	RuleSelectResume: {"selectgo", "pass 3: a select woken by one case takes its sudogs off every other channel's queue and stops its timers, which stay in their heap as zombies (R8.7, R8.8)",
		"N selCase; N2 dequeued; N3 stopped; Flag closed; P2 timersOn"},
	RuleSelectSkip: {"waitq.dequeue", "a select's sudog whose select another case already won is dropped from the queue, not woken (selectDone, R8.7)",
		"G2 partner; N selCase; Flag byTimer"},
	RuleReadySelect: {"goready", "a send or receive finds a select's sudog, claims the select and wakes it with that case (R8.2, R8.7)",
		"G2 waker; G3 kicked; N chan; N2 selCase; Reason reason"},
	RuleReadySelectClose: {"closechan", "closing a channel wakes a select waiting on it with that case (R8.7)",
		"G2 waker; G3 kicked; N chan; N2 selCase"},
	RuleReadySelectTimer: {"sendTime", "a time.After timer fires in findRunnable; its send wakes the select waiting on its channel (R8.5, R8.7)",
		"G3 kicked; P2 timerOwner; D late; N2 selCase"},
	RulePrint: {"fmt.Println", "a goroutine's line goes out in a write system call, after fmt formats it", "N line; Flag firstPrint"},

	RuleCondAdd:  {"notifyListAdd", "sync.Cond.Wait takes the next ticket on the cond's notify list, before it unlocks the cond's mutex", "Obj cond; N ticket"},
	RuleCondPark: {"notifyListWait", "Wait returns at once if its ticket was notified while it unlocked, else queues and parks", "Obj cond; N ticket; Flag parks"},
	RuleCondSignal: {"notifyListNotifyOne", "Signal notifies the next ticket and readies its waiter if it has parked; with every ticket notified it does nothing",
		"Obj cond; N woken; N2 notified"},
	RuleCondBroadcast: {"notifyListNotifyAll", "Broadcast notifies every ticket handed out and readies every parked waiter", "Obj cond; N woken; N2 notified"},
	RuleReadyCond:     {"readyWithTime", "a Signal or Broadcast readies a waiter of the cond's notify list", "Obj cond; G2 waker; G3 kicked"},

	// Linux's EEVDF, kernel/sched/fair.c since 6.6 (cpus.go, eevdf.go).
	RuleCPUWait: {"check_preempt_wakeup_fair", "a thread wakes to find no idle CPU, or is put beside its waker on a busy one by a kernel that packs woken threads (Costs.WakePack), and is not what its CPU would pick: the running thread is still within its request, or another has an earlier deadline, or the woken one has had more than its share; it waits in a run queue",
		"N cpu; N2 runnable; D lag; D2 protected; Flag newThread; M2 packer"},
	RuleCPUWakeupPreempt: {"check_preempt_wakeup_fair", "a woken thread is what its CPU would now pick, eligible with the earliest deadline, and preempts the running thread",
		"N cpu; M2 preemptor; D lag; Flag ineligible"},
	RuleCPUSliceOver: {"update_curr", "the running thread's request has run out (update_deadline) or no longer protects it, at the tick or at a wake-up on its CPU: the CPU picks again and gives the CPU to another thread",
		"N cpu; N2 runnable; D slice; M2 next; Flag atWake"},
	RuleCPUResume: {"pick_next_task_fair", "a waiting thread gets a CPU, its own or an idle one that pulls it (newidle_balance)",
		"N cpu; D offFor; Flag pulled"},
	RuleTraceReader: {"traceReader", "a trace buffer is full: findRunnable runs runtime/trace's writer before anything else, with a new time slice (R3.3)",
		"N schedtick; D waited"},
}

// Fn is the runtime function the rule models.
func (r Rule) Fn() string {
	if r < numRules {
		return ruleTable[r].fn
	}
	return ""
}

// Doc says what the rule does, citing docs/rules.md where it has a section.
func (r Rule) Doc() string {
	if r < numRules {
		return ruleTable[r].doc
	}
	return ""
}

// Fields lists the rule-specific fields the rule sets, by name: "N
// stolen; N2 left; P2 victim; Flag stealAll".
func (r Rule) Fields() string {
	if r < numRules {
		return ruleTable[r].fields
	}
	return ""
}
