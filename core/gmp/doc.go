// Package gmp is a model of the Go 1.26 scheduler, precise enough to hold
// next to runtime/proc.go and to GODEBUG=schedtrace output.
//
// # Design
//
// The runtime schedules goroutines (G) onto OS threads (M) that must hold a
// processor (P) to run Go code; GOMAXPROCS is the number of Ps. Each P has
// a 256-slot ring of runnable Gs and a runnext slot that runs before it;
// a global queue takes overflow and preempted Gs. An M with nothing to do
// looks, in a fixed order, at its P's timers, the global queue (on every
// 61st fresh slice), its own queue, the global queue again, the network,
// and finally the other Ps' queues, which it steals from. sysmon, a thread
// with no P, preempts long-running Gs and takes Ps away from long system
// calls. docs/rules.md states these rules with citations; the
// functions here carry the runtime's names (runqput, findRunnable,
// stealWork, handoffp, retake, …) so the two can be read side by side.
//
// # Time
//
// The model is a discrete-event simulation with a virtual clock in
// nanoseconds (package sim). Every M is an actor whose next action is on
// an agenda; sysmon is another. The runtime's own work takes time too, so
// each operation has a small fixed cost (Costs): a go statement 1µs, a
// context switch 200ns (50ns to the scheduler's choice, which is when the
// runtime's trace shows the next G starting, and 150ns for that G to
// resume), waking a parked thread 5µs, creating one 20µs, and so on;
// schedlab calibrate measures a machine's own and --costs uses them;
// with verify's, a park's switch grows with the user code before it,
// which has taken the scheduler out of the CPU's caches (parkgap.go).
// These costs are what give concurrent Ms a defined order. Within
// one step an operation is atomic: findRunnable, for instance, runs from
// top to bottom at one instant, except where the runtime itself waits
// (runqgrab's usleep(3) before stealing a runnext, blocking in netpoll,
// stopm). Every usleep and epoll timeout is lengthened by the kernel's
// timer slack (50µs by default), which is why sysmon settles at about one
// pass per 10.05ms and why a 1ms time.Sleep on an idle machine takes a
// little over 1ms. On a machine whose idle CPU is slower to run a thread
// the longer it idled, a calibrated profile gives long sleeps more slack
// than short ones (Costs.UsleepSlackLong, sleepslack.go), and a long
// sleep that begins beside work, as sysmon's in a program that computes,
// less than one on an idle machine (Costs.UsleepSlackLongBusy).
//
// A G's program is a list of actions (see Program). Compute is user code
// and therefore an asynchronous safe point: a preemption signal that
// arrives during it stops the G where it is. Every other action is runtime
// code: a pending request waits for the prologue of the next runtime call
// or compute action (the synchronous path through the stack check), and
// is lost if the G parks first, because execute clears it (R7.6). A
// channel operation does its work before it takes effect (chan.go), so a
// request that arrives during an operation that then parks is lost, as in
// the runtime.
//
// The simulation is single-threaded and deterministic: it never reads the
// wall clock or a global random source, iterates slices rather than maps,
// and draws every random number (the steal order, durations written as
// distributions) from one seeded generator. The same program, config and
// seed give the same events, byte for byte.
//
// An event is emitted before the changes it describes, as runtime/trace
// records them, and those changes are complete before the next event. So
// the state as it is when event i+1 is emitted is exactly the state after
// event i, even inside one step: the UI uses this to show every event's
// state, not only every step's.
//
// # The machine under the runtime
//
// By default every M that has something to do runs at once, as if it had
// a CPU of its own and nothing else ran on the machine. With Config.CPUs
// (cpus:, --cpus) and Config.Load (load:, --load) the Ms are OS threads
// that a model of Linux's EEVDF schedules on that many CPUs, beside that
// many always-runnable threads of other programs (cpus.go and eevdf.go,
// which cite kernel/sched/fair.c): per-CPU run queues, a sleeper's lag
// kept, the eligible thread with the earliest deadline picked, a request
// of a base slice checked at the 4ms tick, wake-up placement and
// wake-affinity, idle balance. A runnable M without a CPU does not advance, and neither does
// the P it holds: its G's compute, its next step and any signal sent to it
// wait. With a CPU for every thread and no load this changes no event of
// any built-in, so the default is that case with the kernel left out. As
// many CPUs as Ps is not that case: sysmon and the threads without a P
// are threads too, and a woken one waits while the running thread is
// within its request (on 2 CPUs and 2 Ps, sysmon's first wake-up can wait
// for the tick).
//
// # What is modelled
//
// Goroutine creation into runnext with the kick to the ring's tail;
// runqputslow moving 128+1 Gs to the global queue; globrunqget (one G when
// schedtick%61 == 0) and globrunqgetbatch (min(128, len, len/GOMAXPROCS+1));
// schedtick advancing only on fresh slices; findRunnable in the order of
// R3.3; non-blocking and blocking netpoll with at most one M blocked in it;
// stealWork's four passes in coprime-stride random order, taking half the
// victim's ring (the last stolen G runs), runnext only on the last pass and
// after the back-off, other Ps' timers on the last pass; spinning Ms, wakep
// (at most one spinning M per submission), the resetspinning chain,
// needspinning, startm/stopm with LIFO idle P and M lists, handoffp's
// conditions; system calls that keep their P, exitsyscall's fast path, its
// take-back of the old P from another syscalling thread, an idle P, or the
// global queue; entersyscallblock; sysmon's 20µs→10ms back-off, deep
// sleep, per-P sysmontick updated only on its passes, preemption on the
// second sighting, syscall retake with the 10ms grace and sysretake, and
// netpoll after 10ms without a poll; preemption as a request honoured at
// the next safe point, preempted and Gosched'd Gs going to the global
// queue's tail; goready into the waker's runnext; per-P timer heaps fired
// only in findRunnable; channels with FIFO wait queues and close readying
// every waiter; injectglist spreading polled Gs over idle Ps; and exit
// through per-P free lists of descriptors (64 → 31, refilled to 32).
// Goroutines are stored by descriptor, as allgs does, so a run's memory
// follows the most goroutines alive at once, not every one ever made.
//
// Three libraries a scenario can use are modelled as the code they are,
// run by simulated goroutines: package pool (pool.go: its decision rules,
// its workers parked on task channels, its purge started by a
// time.AfterFunc timer in some P's heap — held decision by decision
// against the real pool by package lockstep), x/sync/semaphore (sema.go:
// FIFO waiters parked in a select, woken by closing their channel) and
// x/sync/errgroup with SetLimit (errgroup.go: a buffered channel of the
// limit's size, a WaitGroup). Their events say which of their functions
// made each decision (pool.submit, semaphore.Release, errgroup.Go).
//
// Some runtime quirks follow from this and are kept because they are true:
// a P with schedtick 0 passes the %61 check; a P's first syscall is never a
// "first sighting" to sysmon (both syscallticks start at 0), so it can be
// retaken on the first pass; a G woken on a long-idle P inherits a slice
// sysmon may already consider old.
//
// # What is left out, and why
//
//   - The garbage collector: mark workers, assists, stop-the-world,
//     gcstopm, forced GCs, and findRunnable's GC steps. Scenarios allocate
//     nothing, and a GC would make every trace depend on heap sizes the
//     scenario cannot express.
//   - The finalizer and cleanup goroutines, forcegc, bgsweep and
//     bgscavenge. A real program starts with these, which is why its
//     schedtrace usually shows one or two more threads than the model's M0
//     and sysmon.
//   - runtime/trace's own goroutines, but for verify: its writer, which
//     writes the header and then runs first whenever a buffer fills, its
//     CPU-sample reader, woken by a timer every 100ms (tracecpu.go), and
//     its advancer, which cuts a generation every second, are
//     Config.Tracer's (tracer.go), which only verify sets, starting as
//     runtime/trace.Start leaves them (the reader and the advancer in P0's
//     ring, the writer in its runnext) at the scenario's start, where
//     main made their go statements before it: Config.TracerLead starts
//     the wake-up their wakep makes that much before. The generation's
//     cut is its time on the P and the writer's write: the world is not
//     stopped, and no P is asked to a safe point (forEachP), as the real
//     cut does.
//   - Safe-point functions, locked threads (LockOSThread, startlockedm,
//     stoplockedm), cgo and extra Ms, the template thread, and the 10000
//     thread limit: no scenario action can reach them.
//   - Changing GOMAXPROCS during a run (procresize after start-up, the
//     cgroup-driven automatic update). The P count is fixed per run, but
//     the start-up order of the idle list follows procresize.
//   - The per-P goid cache: goroutine ids are given in global creation
//     order (G1 is main, then G2, G3, …) so that scenarios can name them.
//     The runtime hands out ids in blocks of 16 per P.
//   - The race detector's shuffles (randomizeScheduler), which only exist
//     under -race.
//   - Of package sync: Once, Map and Pool, which no scenario action
//     reaches. Mutex (its spinning, starvation mode and the handoff's
//     goyield), RWMutex, WaitGroup, Cond and select with several ready
//     cases are modelled (mutex.go, rwmutex.go, waitgroup.go, cond.go,
//     select.go), but the runtime's semaphore table is not: a waiter
//     queues on its object, not in semtable's treap of addresses, which
//     finds the same waiter in the same order.
//   - Of package pool: Tune, Release, Reboot, panicking tasks and
//     SubmitContext's cancellation, which no scenario action reaches. Of
//     x/sync/semaphore: TryAcquire and contexts that end.
//   - Stack sizes: every G has a 2 KiB stack, so gfput never frees one and
//     the global free list has no "no stack" half.
//   - Timer modification and deletion (Stop, Reset), so no timer is ever
//     timerModified; a select's stopped time.After timers are modelled
//     as the runtime leaves them, zombies in their heap (zombies.go).
//     timerpMask is approximated by "the P has timers", which finds the
//     same timers.
//   - Races inside one findRunnable: the runtime's CAS loops can interleave
//     with other Ms mid-scan; here a scan is atomic at its instant. The
//     places where the runtime deliberately waits are modelled.
//   - The network poller returns every ready G in one poll (the runtime
//     reads up to 128 events per epoll_wait).
//   - The start-up, by default: the model's run begins with main on M0
//     and sysmon on M1, so the first wakep creates a thread. A real
//     program's init has already started bgsweep and bgscavenge, whose
//     wakeps left idle Ms (4-5 threads exist when main.main starts, on
//     this machine), so its first wakep wakes one: a thread wake-up, not a
//     creation, and under CPUs a sleeper's placement rather than a new
//     thread's. start: warm (--warm-start, warmstart.go)
//     begins so, the idle threads sleepers for the kernel too; it is off
//     by default because every golden trace is of the bare start.
//   - The waker's share of a thread wake-up, without a profile: startm's
//     futex wake costs the calling thread nothing then (a profile's
//     WakeCall charges it after the step that made it, which is where the
//     runtime makes it but for findRunnable's: there the call comes before
//     GoStart, and the model's trace shows the start that much early;
//     docs/fidelity.md, "A park's switch after work", has the trial of
//     the runtime's order). Really the system call holds it,
//     and longer when the woken thread's CPU is idle (its try_to_wake_up
//     sends that CPU a reschedule interrupt, a trap to the host on a
//     virtual machine), or the woken thread is placed on the waker's CPU
//     and preempts it. On this machine main's first go statement at 4 Ps
//     takes 11.5µs (median) against 3.4µs at 1 P, where it wakes no one,
//     so the woken thief often finds only the first child, in main's
//     runnext: runqgrab's usleep(3), which the kernel's 50µs timer slack
//     lengthens, comes back to a full ring, and the first child is the
//     8th created in 41-47% of runs, after 79-102µs (median); with every
//     thread's slack at 1ns it is the 1st, after ~33µs (go run
//     ./scripts/firstwake -slack 1). Charging it would move every wake
//     of a parked M, and with the cold start the first wake-up is a
//     creation anyway.
//   - A go statement's order and a fresh program's costs one by one. The
//     runtime's newproc1 allocates and sets up the goroutine before it
//     emits GoCreate, puts it in runnext and calls wakep; the model
//     charges a fresh descriptor's allocation (NewG) before its go-create
//     and the rest of the statement (Newproc) after (newproc.go,
//     goStatement), so a trace's go-create is the set-up's cost early.
//     NewG is a mean: a go statement takes about 0.3µs, but the one that
//     needs a new span of stacks or of gs pauses (about 19µs and 6µs in
//     each 16, malg.go). Only verify spreads NewG so (FreshSpans), on one
//     P, at the places a traced generated program has its lumps; on
//     several Ps the places move from run to run with what the other Ps
//     took from the stack pool (steal's stacks' first lump at the 2nd to
//     the 9th go statement), and the model keeps NewG flat. A fresh
//     program's first switches take several times what its later ones
//     do; put in the model alone, that took more verify observables
//     outside the real spread than it brought in (docs/fidelity.md,
//     "Fifty runs a series").
//   - Where a woken thread last ran: the kernel queues a thread on the CPU
//     it last ran on, and a thread parked for milliseconds whose CPU is
//     now the waker's, busy, waits there for a scheduler tick (up to 4ms
//     here) while the other CPU idles. Which CPU that is depends on the
//     idle period before, which no model here follows; with a profile's
//     IdleWake and noise, and without a CPU model, a thread woken after a
//     long park is late by the machine's measured share and spread
//     instead (idlewake.go).
//   - Where a woken thread runs, without a CPU model: each M has a CPU
//     of its own, and startm's wake-up takes WakeM, a futex wake-up from
//     one CPU to another. A Go program's threads mostly share one CPU on
//     this machine, the kernel putting a woken thread beside its waker,
//     where it takes the CPU a few microseconds on (a wake-up preemption)
//     and the waker waits. With a WakePreempt and noise, the woken thread
//     starts so with the measured share (wakepreempt.go); the waker's
//     wait is left to WakeCall. The two threads then share the CPU until
//     either sleeps, and the waker waits for the kernel's next turn,
//     milliseconds, only when the woken thread steals from the waker's P
//     while the waker has no goroutine; the turns the two threads take
//     when both compute the model does not have. Only verify sets one,
//     on several Ps without a CPU model.
//   - Sysmon's own late wake-ups. Its 10ms sleep lasts its delay and the
//     timer slack here; on this machine, beside a goroutine computing on
//     2 Ps while the other CPU idled, 23 of 147 and 31 of 145 such sleeps
//     lasted over 10.5ms, 13.4-13.8ms at the median (scripts/sysmonsleep,
//     under perf), and with both CPUs computing 7 of 149 and 3 of 154.
//     A late look moves every later one, so the first preemption of tour
//     and steal on 2 Ps comes at about 14ms in a third of the real runs
//     and at 16.5-19ms in the rest, where the model's comes at 14ms.
//     Without a CPU model at 2 Ps sysmon has a CPU of its own; with one,
//     its wake-up waits for the tick on every seed, the ticks being on a
//     grid from the run's start (docs/fidelity.md, "Sysmon's late looks
//     on two Ps").
//   - Of the kernel (cpus.go, eevdf.go), which is EEVDF as Linux 6.18 has
//     it: the load's threads are one group at one vruntime, not each at
//     its own; a thread that slept overdrawn is not counted in its
//     queue's average while it waits there to be eligible. Threads back
//     from a short sleep wait for a CPU more often than the kernel lets
//     them (25-40 of 149-158 such wake-ups in burst on 2 CPUs, where
//     none waited 1ms in kernel traces; scripts/wakewait), and sysmon
//     waits at times where it ran at once.
//     Autogroups, which share the CPUs
//     between sessions before threads; load that sleeps and wakes (the
//     load's threads never block, so at a given load runs keep the same
//     phase against the tick and vary little between seeds); periodic
//     rebalancing of the load's threads; the time a context switch, or an
//     idle CPU's exit from idle (tens of µs for a halted virtual CPU), takes;
//     SMT, frequency and caches. Sysmon's passes, and the steps of a
//     thread that finds nothing and parks, take no CPU time: such a thread
//     that preempts gives the CPU back at once, unseen, but one that cannot
//     preempt waits its turn, which is why cpus equal to procs is not the
//     default (above).
//   - The machine's own costs, but as a profile measured them: the
//     defaults were measured on an AMD EPYC, and schedlab calibrate
//     measures another machine's (a round of mutex spinning, for one,
//     0.71µs there and 137ns on an Intel Xeon, where spinners give up
//     five times sooner). The model runs at one pace, and a machine need
//     not: the Xeon VM alternates, within seconds and at a load of 0.2
//     to 1, between its fast pace and one where a hand-off takes 1.3 to
//     1.8 times as long, the spin 1.4 times and user code 1.15 to 1.3
//     times, so a series of real runs mixes the two in shares that change
//     by the minute (one series taken in a minute of the slow pace
//     differed from those before it on 52 of 251 verify observables, 46
//     after the correction). calibrate takes its figures in rounds
//     through its seconds, and verify probes the pace around each real
//     run and says how many ran off the profile's (docs/fidelity.md, A
//     second machine, The machine's pace).
//
// # Where a user can see the model differ from the runtime
//
// Three patterns, measured against Go 1.26 on this project's 2-core
// machine, a virtual machine whose host's load makes real figures vary by
// several times from one set of runs to the next. The model's figures are
// with Config.Noise over seeds 1–10 (go test -run
// 'TestHogBesidePingPong|TestTimerBurstsOnOneP|TestPingPongOnTwoPs' -v
// ./core/gmp/); the real ones are untraced, from go run ./scripts/untraced
// NAME, which counts from inside the program, because runtime/trace
// changes two of them:
//   - A ping-pong pair beside a CPU hog on one P: the model gives the hog
//     39–47% of the CPU (7% exact: sysmon's look keeps landing inside a
//     channel operation that then parks, which loses the request); the
//     runtime 26–78% over sets of ten runs (medians 39–69%). Traced, the
//     runtime starves the hog: the pair's hops fill the tracer's buffers,
//     so the tracer's writer runs every millisecond or so on the only P,
//     and findRunnable hands it the P with a new time slice (traceReader,
//     proc.go); the pair then inherits that slice through runnext, and
//     sysmon never sees one 10ms old. Config.Tracer, which schedlab
//     verify sets, runs that writer (tracer.go): traced, the model's pair
//     is never preempted either.
//   - A goroutine woken by a timer on an otherwise idle P, 60 bursts of
//     sleep 20ms and compute 9ms: the model preempts 1–3 (none exact),
//     one early while sysmon's sleeps are still short and the rest when
//     sysmon's deep sleep ends after the woken G has started, inheriting
//     a slice sysmon already saw. The runtime preempts 0–3 on a quiet
//     machine (median 0 in 20 runs), 0–13 with both CPUs busy with other
//     work, more under a parallel build: the OS delays its thread
//     wake-ups, which the model's noise does not. Traced it preempts 2–6:
//     the tracer's CPU-sample reader wakes every 100ms and cuts sysmon's
//     deep sleep short, and sysmon's next look, 10ms later, can land in a
//     burst.
//   - A ping-pong pair on 2 Ps: the model moves the pair to the other P
//     on 0.062–0.075% of hops; the runtime, traced, on 0.02–0.06% on one
//     day, 0.05–0.15% on another and 0.024–0.137% on a third (schedlab
//     verify pingpong-2p: 30–208 migrations in 60k–175k starts). A model
//     hop takes 400ns, a real one about 125ns untraced and 430ns traced, so
//     counted in time the model moves it 78–94 times in 50ms, inside the
//     traced runs' 30–208 and above the runtime's 3–55 untraced (medians
//     7–45 over sets of ten runs; 25–79 in three runs under perf stat). In
//     both, about one in six of the idle P's back-offs ends in a steal;
//     the runtime's thief backs off 130–480 times in 50ms (perf stat's
//     count of nanosleep, less sysmon's); the model's back-off lasts
//     68–88µs (usleep(3), the timer slack and the thread's wake-up,
//     Costs.UsleepWake). Why the runtime's typical untraced run moves the
//     pair less is open. One lead: a kernel scheduler trace of a
//     real run (perf record of sched_switch) shows Linux waking the thief
//     on the pair's own CPU, where it preempts the pair's thread while it
//     looks for work and again when its back-off ends, while the other CPU
//     idles (43 such preemptions in one 50ms run). By default the model
//     gives every M a CPU of its own; with --cpus 2 the thief wakes where
//     it last ran, and with load on the other CPU it ends up on the
//     pair's, cache-hot there (wake-affine): 47-65 moves in 50ms at
//     --load 1, 18-27 at --load 2 (noise, seeds 1-3). Traced real runs
//     bear the lead out (docs/fidelity.md): the thief's P starts 2.5µs
//     (median) after the pair's go-unblock in 104 of 119 starts, and the
//     pair does nothing for the next 7.5µs, so the thief's first look
//     finds the runnext full and it backs off, where the model's thief,
//     woken on a CPU of its own at a random point of a hop, mostly finds
//     it empty and parks: 397 starts of the thief's P in 50ms against the
//     real 79. The kernel's placements (scripts/wakeplace, eight runs)
//     crowd the program's threads onto one CPU: 1250 of the 1252
//     wake-ups of a thread that last ran on its waker's CPU put it back
//     there, 1203 of them with the other CPU idle, and in four runs of
//     eight all the program's run time was on one CPU. The idle CPU is
//     passed over on purpose: that machine's kernel is a Firecracker
//     guest's, booted with sched_vcpu_pack=15, which upstream Linux does
//     not have, and it packs a woken thread onto its waker's CPU by how
//     busy that CPU has been: beside a waker computing 28% of the time,
//     90-98% of threads that last ran on the idle CPU, and none beside a
//     waker that always computes (go run ./scripts/vcpupack -busy N).
//     With a profile that measured it (calibrate's wake_pack), the CPU
//     model packs so (wakepack.go), which brings netpoll's makespan and P
//     use inside the real runs' spread. But verify models the CPUs only
//     where the Ps outnumber them, so pingpong-2p, on 2 Ps and 2 CPUs,
//     keeps a CPU for every M and its thief: modelling every scenario's
//     CPUs with the packing gave it 38 moves (real 41-120), but took the
//     observables outside the real spread in four series from 17, 10, 16
//     and 18 to 27, 15, 23 and 27 (docs/fidelity.md), so it is not done.
//
// Four more patterns depend on what else the machine runs. Their real
// figures on a quiet machine are issue 27's; on a busy one (load average
// 7-15) go run ./scripts/underload NAME measured them, 72 runs each, the
// program's threads waiting for a CPU 80-89% of the time they could run
// (median; their schedstat). The model's are over seeds 1-10 with noise
// (go test -run TestMachineCases -v ./core/gmp/), by default and on 2 CPUs
// beside the load that makes its threads wait as long (8-13 threads):
//   - The first wake-up on 4 Ps, one G creating 16 and computing: from the
//     first go to the first child starting, 21-38µs by default, inside the
//     12µs-5ms of a quiet machine (scripts/firstwake, 100 runs) but at its
//     fast end: the model's thief comes after the new thread's 20µs and
//     steals at once, as 40 of the 100 real runs do, where the other real
//     runs' back-off (What is left out: the waker's share of a wake-up)
//     makes the median 66µs. Busy, 4-8ms against 47µs-39ms
//     (median 121µs): inside, but the model's new thread waits for the
//     running thread's slice to end where the real program wakes an M
//     that slept, a sleeper that preempts.
//   - Fan-in, 4 producers × 500 sends of 20µs work into one consumer on an
//     unbuffered channel, 2 Ps: the consumer switches producer on
//     98.3-99.7% of receives by default (quiet 61.7-99.85%), on 0.8-39%
//     busy (real 0.9-83%), with runs of 191-425 receives from one producer
//     (real 88-460; by default 2-8). A P whose M is off its CPU keeps its queue
//     to itself, while on the P that runs the producer and the consumer
//     hand runnext to each other until sysmon's look, 10ms of wall time
//     later.
//   - A Gosched storm, 4 goroutines × 2000 × (5µs + Gosched) on 2 Ps: the
//     first to finish and the last are 0.08-0.9% of the run apart by
//     default (quiet 0.048-10.7%), 1.3-38% busy (real 0.24-48%): the goroutine
//     on a descheduled M stops while the others go round the global
//     queue.
//   - A 20ms sleep beside two call-free hogs on 2 Ps: median 20.15-20.16ms
//     by default (quiet 20.12-20.19), 32ms busy (real 20.1-66ms): the
//     timer fires only when the P's M is back on its CPU. The load never
//     sleeps, so a run keeps one phase against the tick and the seeds
//     differ little.
package gmp
