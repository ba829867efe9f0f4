package gmp

import (
	"math"
	"math/bits"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// The machine under the runtime. Without Config.CPUs or Config.Load every
// M that has something to do runs at once, as if it had a CPU of its own:
// the default, and the model every rule of docs/rules.md is stated in.
// With them, the Ms are OS threads that Linux schedules on Config.CPUs
// CPUs, next to Config.Load threads of other programs that never sleep.
// The kernel's scheduler modelled is EEVDF, the fair class of
// kernel/sched/fair.c since Linux 6.6 (this project's machine runs 6.18);
// eevdf.go has its pick, lag and deadlines:
//
//   - Each CPU has a run queue of runnable threads, each with a vruntime,
//     the CPU time it has had (all threads here have the default weight,
//     nice 0). Their average is the queue's zero-lag point V
//     (avg_vruntime); a thread at or below it is owed service and
//     eligible. Each has a virtual deadline, its vruntime when it asked
//     for its request plus the base slice (sysctl_sched_base_slice).
//   - The CPU runs the eligible thread with the earliest deadline
//     (pick_eevdf). A thread picked keeps its CPU until its request is
//     used up (RUN_TO_PARITY) unless it stops being eligible. Its
//     deadline is renewed when its vruntime passes it (update_deadline),
//     which the tick (CONFIG_HZ=250, every 4ms) or a wake-up on its CPU
//     finds (update_curr), and the CPU then picks again, so a busy thread
//     beside another has the CPU a tick at a time: on this project's
//     machine, of the turns that passed a CPU from one of 4 busy threads
//     to another (scripts/cpuslice on 2 CPUs under perf sched record), 59
//     of 77 lasted 3.5-4.5ms, 4.15ms on average.
//   - A thread that sleeps keeps its lag, V less its vruntime
//     (update_entity_lag), bounded by a tick; one that sleeps with
//     negative lag stays in its queue at its vruntime until it is
//     eligible, and then leaves with none (DELAY_DEQUEUE, DELAY_ZERO).
//     When it wakes it is placed at V less its lag (place_entity,
//     PLACE_LAG): a thread back from a 50µs usleep while it was owed
//     service comes back owed it, and preempts the thread that took its
//     CPU meanwhile. A new thread starts at V with half a request
//     (PLACE_DEADLINE_INITIAL). CFS, before 6.6, credited every sleeper
//     half of sched_latency instead, which let a long sleeper preempt and
//     made a short one wait; kernel traces of burst on this machine show
//     the opposite (docs/fidelity.md, scripts/wakewait).
//   - A woken thread preempts the running one when it is what the CPU
//     would now pick (check_preempt_wakeup_fair); otherwise it waits.
//   - A thread that wakes is placed (select_task_rq_fair): on the waker's
//     CPU if it ran there a moment ago (cache-hot: within
//     sysctl_sched_migration_cost, 0.5ms; wake_affine), else on an idle
//     CPU, its previous one first (select_idle_sibling), else on the less
//     loaded of the waker's and its previous one (wake_affine_weight).
//     A new thread goes to an idle CPU or the least loaded one
//     (find_idlest_cpu). A thread moved to another CPU keeps its lag.
//     With Costs.WakePack, the measured placement of a kernel that packs
//     woken threads, a thread a running thread wakes goes beside its
//     waker with the table's chance instead, wherever it last ran, and
//     otherwise to an idle CPU (wakepack.go).
//   - A CPU that goes idle pulls a waiting thread from another CPU's
//     queue (newidle_balance), and at each tick an idle CPU is given one
//     (the nohz idle balance), but not a thread that ran on its CPU
//     within the migration cost (task_hot).
//
// The base slice is the kernel's default scaled by 1+log2 of the CPUs
// (up to 8), as SCHED_TUNABLESCALING_LOG does (get_update_sysctl_factor):
// 1.5ms on 2 CPUs.
//
// An M that is runnable but not on a CPU does not advance: the wake-up it
// had on the agenda moves later by the time it waits, its G's compute
// with it, and a preemption signal sent to it is handled when it runs.
// A thread whose step takes no time (sysmon's pass, a thread that finds
// nothing and parks) and that preempts a CPU's thread gives it back at
// the same instant: the preemption is not shown. The load's threads are
// spread evenly over the CPUs and stay there; on a CPU they are one
// group whose vruntime grows by the time they run divided by their
// number, which is how round-robin between equals comes out on average,
// and whose next thread to run is taken to be half a slice behind the
// group's average, as the one that ran longest ago is.

const (
	// The kernel's defaults before scaling (kernel/sched/fair.c).
	baseSlice     = 750 * time.Microsecond // sysctl_sched_base_slice
	migrationCost = 500 * time.Microsecond // sysctl_sched_migration_cost (not scaled)
	schedTick     = 4 * time.Millisecond   // 1/CONFIG_HZ, HZ=250
)

// MaxLoad bounds Config.Load.
const MaxLoad = 1024

const (
	cpuIdle = -1 // a CPU's curr: nothing runs
	cpuLoad = -2 // a CPU's curr: one of the load's threads runs
)

type thState uint8

const (
	thSleeping thState = iota // blocked in the kernel: a futex, a sleep, a syscall, epoll
	thWaiting                 // runnable, in a CPU's queue
	thRunning                 // on its CPU
)

// osThread is the kernel's view of an M: its sched_entity.
type osThread struct {
	state thState
	// cpu is the CPU the thread runs or waits on; when it sleeps, the one
	// it last ran on (-1: it never ran).
	cpu int32
	// wakerCPU is the CPU of the thread whose futex wake-up will wake this
	// one, or -1 when its own timer will (the interrupt comes on the CPU
	// it slept on).
	wakerCPU int32
	// packTo is the waker's CPU when the kernel packs the thread beside
	// its waker (WakePack), else -1; packer is that waker.
	packTo int32
	packer MID
	// EEVDF (eevdf.go): vruntime and virtual deadline; prot, the
	// vruntime up to which the request it was picked with protects it
	// (RUN_TO_PARITY); lag, its lag when it last slept, and sleepVR its
	// vruntime then; delayed: it slept with negative lag and is still in
	// its queue (DELAY_DEQUEUE).
	vr, dl, prot time.Duration
	lag, sleepVR time.Duration
	delayed      bool
	// execFrom is when the thread last got its CPU or was last accounted;
	// lastRan when it last left its CPU; offSince when it began to wait.
	execFrom, lastRan, offSince sim.Time
	// frozen: it was running and lost its CPU with its wake-up still on
	// the agenda; held: that wake-up came while it waited. deferred: it
	// woke from a sleep, and the step its wake-up was for has not run.
	frozen, held, deferred bool
	// pulled: idle balance moved it to the CPU it runs on.
	pulled bool
	// ran and waited are its time on a CPU and waiting for one.
	ran, waited time.Duration
	// A preemption signal that came while it waited.
	sig    bool
	sigG   GID
	sigGen uint32
}

// cpuRQ is one CPU and its run queue (struct cfs_rq).
type cpuRQ struct {
	curr  int32   // the running thread (an MID), cpuIdle or cpuLoad
	queue []int32 // waiting Ms, in the order they were queued
	// minVR is the least vruntime the queue has seen run: its zero-lag
	// point when nothing is runnable (zero_vruntime).
	minVR time.Duration
	// The load's threads on this CPU: how many, the vruntime of the group
	// while it waits, and of the one running.
	nload             int32
	loadVR, loadRunVR time.Duration
	// When the running load thread was last accounted.
	loadExec sim.Time
	// The running load thread's deadline and protection.
	loadRunDL, loadProt time.Duration
	// incoming is a thread woken onto this CPU whose step is running: it
	// takes the CPU only if it is still runnable when the step ends.
	incoming int32
	// The pending scheduler tick, if any.
	tickGen uint32
	ticking bool
	// util is the CPU's utilisation from 0 to 1 as of utilAt, kept only
	// with a WakePack (wakepack.go, touchUtil).
	util   float64
	utilAt sim.Time
}

// cpuModel is the kernel scheduler under the Ms.
type cpuModel struct {
	cpus []cpuRQ
	th   []osThread // by MID
	// actor is the thread whose step runs (-1: an interrupt, a tick).
	actor int32
	slice time.Duration // the base slice, scaled
	// pack is the machine's packing of woken threads, nil for none
	// (wakepack.go).
	pack *WakePack
}

// cpuTunableFactor is 1+ilog2(min(ncpus, 8)) (get_update_sysctl_factor).
func cpuTunableFactor(n int) time.Duration {
	return time.Duration(1 + bits.Len(uint(min(n, 8))) - 1)
}

func newCPUModel(ncpu, load int) *cpuModel {
	f := cpuTunableFactor(ncpu)
	c := &cpuModel{cpus: make([]cpuRQ, ncpu), actor: -1, slice: baseSlice * f}
	for i := range c.cpus {
		q := &c.cpus[i]
		q.curr, q.incoming = cpuIdle, cpuIdle
		// The load is spread as evenly as the kernel's balancing leaves
		// it, the first CPUs taking the remainder.
		q.nload = int32(load / ncpu)
		if i < load%ncpu {
			q.nload++
		}
		if q.nload > 0 {
			q.curr = cpuLoad
		}
	}
	return c
}

func (c *cpuModel) clone() *cpuModel {
	if c == nil {
		return nil
	}
	d := *c
	d.cpus = append([]cpuRQ(nil), c.cpus...)
	for i := range d.cpus {
		d.cpus[i].queue = append([]int32(nil), c.cpus[i].queue...)
	}
	d.th = append([]osThread(nil), c.th...)
	return &d
}

// thread returns m's kernel thread, making it on first use.
func (c *cpuModel) thread(m MID) *osThread {
	for int(m) >= len(c.th) {
		c.th = append(c.th, osThread{cpu: -1, wakerCPU: -1, packTo: -1, packer: NoM})
	}
	return &c.th[m]
}

// startCPUs puts M0, which runs main, on CPU 0: the run starts when the
// program's first thread has a CPU, and sysmon has already slept.
func (s *Machine) startCPUs() {
	n := s.cfg.CPUs
	if n == 0 {
		n = s.cfg.Procs
	}
	s.cpu = newCPUModel(n, s.cfg.Load)
	c := s.cpu
	if k := s.cfg.Costs.WakePack; k.set() {
		c.pack = &k
		// Main computed on CPU 0 before the run (Config.SysmonPrelude),
		// after a machine at rest: that CPU's utilisation so far.
		q := &c.cpus[0]
		q.util = 1 - math.Exp2(-float64(s.cfg.SysmonPrelude)/float64(utilHalfLife))
	}
	if s.cfg.Noise {
		// The program starts at no particular moment of the load's
		// round: each CPU's load thread is some way into its slice, and
		// the load's share so far is some way behind or ahead.
		for k := range c.cpus {
			if q := &c.cpus[k]; q.nload > 0 {
				sl := c.slice // a busy thread's request
				q.loadExec = sim.Time(-s.rng.Int63n(int64(sl)))
				q.loadVR = time.Duration(s.rng.Int63n(int64(sl))) - sl/2
			}
		}
	}
	for k := range c.cpus {
		// A running load thread was picked with a request of a slice,
		// some way into it.
		if q := &c.cpus[k]; q.curr == cpuLoad {
			c.loadRequest(q)
		}
	}
	q := &c.cpus[0]
	t := c.thread(0)
	t.cpu = 0
	if q.curr == cpuLoad {
		// M0 preempted the load's thread as it was exec'd.
		c.putPrevLoad(q, s.now)
	}
	c.setCurr(q, 0, s.now)
	t.state = thRunning
	t.execFrom = s.now
	t.dl = t.vr + c.slice
	t.prot = t.dl
	c.ensureTick(s, 0)
	// runtime.main started sysmon before main.main, so by the time main
	// runs it has run once and sleeps: its first wake-up is a sleeper's,
	// not a new thread's. It last ran on the CPU a new thread would get.
	mon := c.thread(s.mon.M)
	mon.cpu = c.idlest()
	mon.vr = c.cpus[mon.cpu].minVR // with no lag
	// A warm start's idle threads (warmstart.go) ran the runtime's inits
	// and parked before main.main: sleepers too, spread over the CPUs
	// after main's, and not cache-hot anywhere by the time they wake.
	for _, m := range s.ms {
		if m.ID == 0 || m.ID == s.mon.M {
			continue
		}
		t := c.thread(m.ID)
		t.cpu = int32(int(m.ID) % len(c.cpus))
		t.vr = c.cpus[t.cpu].minVR // with no lag
		t.lastRan = s.now.Add(-migrationCost)
	}
}

// CPUs is how many CPUs the kernel's scheduler is modelled with, 0 when
// it is not (every M that can run runs).
func (s *Machine) CPUs() int {
	if s.cpu == nil {
		return 0
	}
	return len(s.cpu.cpus)
}

// CPUState says where a thread is for the kernel.
type CPUState uint8

const (
	CPUNone    CPUState = iota // asleep, or no CPUs modelled
	CPURunning                 // on a CPU
	CPUWaiting                 // runnable but waiting for a CPU: it does not advance
)

// ThreadCPU says whether thread m is on a CPU, and which, or waits for
// one, and which CPU's queue it waits in. A thread woken onto a busy CPU
// has it for its step's events: the thread it preempted waits meanwhile,
// and gets the CPU back when the step ends, at the same instant if the
// step took no time (which the trace does not show).
func (s *Machine) ThreadCPU(m MID) (int, CPUState) {
	if s.cpu == nil || int(m) >= len(s.cpu.th) || m < 0 {
		return -1, CPUNone
	}
	t := &s.cpu.th[m]
	switch t.state {
	case thRunning:
		if in := s.cpu.cpus[t.cpu].incoming; in != cpuIdle && in != int32(m) {
			return int(t.cpu), CPUWaiting
		}
		return int(t.cpu), CPURunning
	case thWaiting:
		return int(t.cpu), CPUWaiting
	}
	return -1, CPUNone
}

// CPULoad is how many of the load's threads share CPU i.
func (s *Machine) CPULoad(i int) int {
	if s.cpu == nil || i < 0 || i >= len(s.cpu.cpus) {
		return 0
	}
	return int(s.cpu.cpus[i].nload)
}

// CPUTimes is how long the program's threads have been on a CPU, and
// runnable but waiting for one, so far: what /proc's schedstat counts
// for each thread (the time on a CPU, the run_delay).
func (s *Machine) CPUTimes() (ran, waited time.Duration) {
	if s.cpu == nil {
		return 0, 0
	}
	for i := range s.cpu.th {
		t := &s.cpu.th[i]
		ran += t.ran
		waited += t.waited
		switch t.state {
		case thRunning:
			ran += s.now.Sub(t.execFrom)
		case thWaiting:
			waited += s.now.Sub(t.offSince)
		}
	}
	return ran, waited
}

// needsCPU says whether m, after its step, has work that takes CPU time,
// rather than sleeping in the kernel (parked, in a syscall or usleep,
// blocked in epoll, or woken and not yet running).
func (s *Machine) needsCPU(m *M) bool {
	if m.ID == s.mon.M {
		return false // sysmon's passes take no time, and it sleeps after each
	}
	switch m.next {
	case stepRunG, stepCPUDone, stepChanWorkDone, stepGoCreate, stepSchedule, stepWrite, stepGoyield, stepGoexit, stepPoolAfterTask:
		return true
	case stepNone:
		// A goroutine in a loop that calls nothing computes with no wake
		// of its own (loop.go's spin): its thread runs until a signal or
		// a flag's store stops it.
		return m.CurG != NoG && m.State == MRunning && s.spinning(s.g(m.CurG))
	}
	return false
}

// cpuAdmit decides whether m's step, whose wake-up has come, runs now. A
// thread on its CPU runs; one whose sleep ends is placed, and runs if it
// finds an idle CPU or preempts, else waits; one that waits already
// keeps waiting, its wake-up held.
func (s *Machine) cpuAdmit(m *M) bool { return s.cpu == nil || s.admitThread(m) }

func (s *Machine) admitThread(m *M) bool {
	c := s.cpu
	t := c.thread(m.ID)
	switch t.state {
	case thRunning:
		c.actor = int32(m.ID)
		return true
	case thWaiting:
		if t.frozen {
			t.held = true
		}
		return false
	}
	if !c.place(s, m, t) {
		return false
	}
	c.actor = int32(m.ID)
	return true
}

// cpuAdmitSignal decides whether a preemption signal is handled now: not
// while its thread waits for a CPU.
func (s *Machine) cpuAdmitSignal(w wake) bool {
	c := s.cpu
	if c == nil || int(w.m) >= len(c.th) {
		return true
	}
	t := &c.th[w.m]
	if t.state != thWaiting {
		c.actor = int32(w.m)
		return true
	}
	t.sig, t.sigG, t.sigGen = true, w.g, w.gen
	return false
}

// cpuNoteWake records, when one thread wakes another (startm's futex
// wake, netpollBreak), the waker's CPU: where the woken thread is placed.
func (s *Machine) cpuNoteWake(m *M) {
	if s.cpu != nil {
		s.noteWaker(m)
	}
}

func (s *Machine) noteWaker(m *M) {
	c := s.cpu
	t := c.thread(m.ID)
	if t.state != thSleeping {
		return
	}
	t.wakerCPU = -1
	t.packTo, t.packer = -1, NoM
	if c.actor >= 0 && c.actor != int32(m.ID) && int(c.actor) < len(c.th) {
		if a := &c.th[c.actor]; a.state == thRunning {
			t.wakerCPU = a.cpu
			if c.pack != nil && t.cpu >= 0 {
				// The kernel places the thread now, in the waker's call
				// (try_to_wake_up), by how busy the waker's CPU has been
				// and how long the thread slept (wakepack.go).
				q := &c.cpus[a.cpu]
				q.touchUtil(s.now)
				if s.rng.Float64() < c.pack.chance(t.cpu == a.cpu, q.util, s.now.Sub(t.lastRan)) {
					t.packTo, t.packer = a.cpu, MID(c.actor)
				}
			}
		}
	}
}

// cpuSettle follows a step of m: a thread woken onto a CPU takes it if it
// still has work, and a thread that went to sleep gives its CPU up.
func (s *Machine) cpuSettle(m *M) {
	if s.cpu != nil {
		s.settleThread(m)
	}
}

func (s *Machine) settleThread(m *M) {
	c := s.cpu
	c.actor = -1
	t := c.thread(m.ID)
	if t.state != thRunning {
		return
	}
	k := t.cpu
	q := &c.cpus[k]
	// A run that ended stops where it is, but a woken thread does not
	// stay on its way to a CPU.
	busy := s.needsCPU(m) || s.ended
	if q.incoming == int32(m.ID) {
		if busy {
			c.commit(s, m, t, k) // it ends the coming, after its event
			return
		}
		q.incoming = cpuIdle
		// Its step took no time: whatever ran on the CPU goes on.
		t.state = thSleeping
		t.lastRan = s.now
		t.deferred = false
		return
	}
	if busy {
		return
	}
	c.updateCurr(s, k)
	c.saveLag(k, t, int32(m.ID))
	t.state = thSleeping
	t.lastRan = s.now
	c.setCurr(q, cpuIdle, s.now)
	c.pickNext(s, k)
}

// place puts a thread whose sleep ended on a CPU (select_task_rq_fair)
// and reports whether it runs now. It sets the thread's vruntime
// (place_entity).
func (c *cpuModel) place(s *Machine, m *M, t *osThread) bool {
	prev, waker := t.cpu, t.wakerCPU
	packer := t.packer
	t.wakerCPU, t.packer = -1, NoM
	fresh := prev < 0
	var k int32
	switch {
	case packer != NoM:
		k = t.packTo // beside its waker (wakepack.go)
		t.packTo = -1
	case fresh:
		k = c.idlest()
	case c.pack == nil && waker >= 0 && waker == prev && s.now.Sub(t.lastRan) < migrationCost:
		// wake-affine: cache-hot on the waker's CPU. With a WakePack,
		// the measured chance of being put beside the waker holds this
		// and was drawn already.
		k = waker
	default:
		if waker < 0 {
			waker = prev // a timer: the interrupt comes on the CPU it slept on
		}
		k = c.idleFrom(prev)
		if k < 0 {
			// wake_affine_weight: the waker's CPU if it is less loaded.
			k = prev
			if c.nrRunning(waker) < c.nrRunning(prev) {
				k = waker
			}
		}
	}
	q := &c.cpus[k]
	c.updateCurr(s, k)
	c.placeEntity(k, t, int32(m.ID), fresh)
	t.cpu = k
	if c.idle(k) {
		t.state = thRunning
		q.incoming = int32(m.ID)
		return true
	}
	if q.incoming == cpuIdle {
		// The wake-up's update_curr may end the running thread's
		// request; the woken thread preempts if the CPU would now pick
		// it (check_preempt_wakeup_fair), and otherwise the CPU may
		// still pick again among the waiting ones.
		resched := c.reschedule(k)
		next := c.pickEEVDF(k, int32(m.ID))
		if next == int32(m.ID) {
			t.state = thRunning
			q.incoming = int32(m.ID)
			return true
		}
		if resched && next != q.curr {
			c.switchTo(s, k, next, true)
		}
	}
	// It waits in k's queue.
	s.emit(&Event{Kind: KindCPUOff, Rule: RuleCPUWait, G: m.CurG, P: heldP(m), M: m.ID, M2: packer, N: int(k),
		N2: c.nrRunning(k), D: c.lagOf(k, t, int32(m.ID)), D2: c.protectedFor(k), Flag: fresh})
	t.state = thWaiting
	t.deferred = true
	t.offSince = s.now
	q.queue = append(q.queue, int32(m.ID))
	c.ensureTick(s, k)
	return false
}

// heldP is the P an M holds or is about to take, for its events.
func heldP(m *M) PID {
	if m.P != NoP {
		return m.P
	}
	return m.NextP
}

// commit gives CPU k to t, which woke onto it and still has work: the
// thread running there, if any, is preempted (check_preempt_wakeup_fair).
// t is still k's incoming thread as the preemption's event goes out, so
// the event's state shows t on the CPU, as its step's events did.
func (c *cpuModel) commit(s *Machine, m *M, t *osThread, k int32) {
	q := &c.cpus[k]
	c.updateCurr(s, k)
	switch cur := q.curr; {
	case cur >= 0:
		vm := s.m(MID(cur))
		vt := &c.th[cur]
		s.emit(&Event{Kind: KindCPUOff, Rule: RuleCPUWakeupPreempt, G: vm.CurG, P: heldP(vm), M: vm.ID, M2: m.ID,
			N: int(k), D: c.lagOf(k, t, int32(m.ID)), Flag: vt.vr < vt.prot})
		c.freeze(s, vt)
		q.queue = append(q.queue, cur)
	case cur == cpuLoad:
		c.putPrevLoad(q, s.now)
	}
	q.incoming = cpuIdle
	c.setCurr(q, int32(m.ID), s.now)
	t.state = thRunning
	t.execFrom = s.now
	t.prot = t.dl // set_next_entity: RUN_TO_PARITY
	t.deferred = false
	c.ensureTick(s, k)
}

// freeze takes a running M off its CPU: its wake-up stays on the agenda
// and moves later, when it runs again, by the time it waited.
func (c *cpuModel) freeze(s *Machine, t *osThread) {
	t.state = thWaiting
	t.frozen = true
	t.offSince = s.now
	t.lastRan = s.now
	t.pulled = false
}

// setCurr makes id CPU q's running thread (cpuIdle: none, cpuLoad: a
// load thread), bringing its utilisation up to now first when it is kept.
func (c *cpuModel) setCurr(q *cpuRQ, id int32, now sim.Time) {
	if c.pack != nil {
		q.touchUtil(now)
	}
	q.curr = id
}

// putPrevLoad puts the running load thread back among the load's waiting
// threads: the group's vruntime grows by its run over their number.
func (c *cpuModel) putPrevLoad(q *cpuRQ, now sim.Time) {
	ran := now.Sub(q.loadExec)
	q.loadRunVR += ran
	q.loadVR += (q.loadRunVR - q.loadVR) / time.Duration(q.nload)
	c.setCurr(q, cpuIdle, now)
}

// updateCurr charges the running thread of CPU k for its time since the
// last charge, and moves min_vruntime up (update_curr,
// update_min_vruntime).
func (c *cpuModel) updateCurr(s *Machine, k int32) {
	q := &c.cpus[k]
	switch {
	case q.curr >= 0:
		t := &c.th[q.curr]
		t.vr += s.now.Sub(t.execFrom)
		t.ran += s.now.Sub(t.execFrom)
		t.execFrom = s.now
	case q.curr == cpuLoad:
		q.loadRunVR += s.now.Sub(q.loadExec)
		q.loadExec = s.now
	}
	v, ok := c.leftmostVR(k)
	if cv, running := c.currVRNow(k); running && (!ok || cv < v) {
		v, ok = cv, true
	}
	if ok && v > q.minVR {
		q.minVR = v
	}
}

// currVRNow is the vruntime of what runs on k (charged up to the last
// updateCurr), and whether anything does.
func (c *cpuModel) currVRNow(k int32) (time.Duration, bool) {
	q := &c.cpus[k]
	switch {
	case q.curr >= 0:
		return c.th[q.curr].vr, true
	case q.curr == cpuLoad:
		return q.loadRunVR, true
	}
	return 0, false
}

// leftmostVR is the least vruntime among k's waiting threads: its queued
// Ms and, if one is not running, the load's.
func (c *cpuModel) leftmostVR(k int32) (time.Duration, bool) {
	q := &c.cpus[k]
	var v time.Duration
	ok := false
	if c.loadWaiting(q) {
		v, ok = q.loadVR, true
	}
	for _, id := range q.queue {
		if x := c.th[id].vr; !ok || x < v {
			v, ok = x, true
		}
	}
	return v, ok
}

// loadWaiting says whether a load thread of q waits for the CPU.
func (c *cpuModel) loadWaiting(q *cpuRQ) bool {
	n := q.nload
	if q.curr == cpuLoad {
		n--
	}
	return n > 0
}

// nrRunning is the number of runnable threads on k, the running one
// included (cfs_rq->nr_running).
func (c *cpuModel) nrRunning(k int32) int {
	q := &c.cpus[k]
	n := int(q.nload) + len(q.queue)
	if q.curr >= 0 {
		n++
	}
	if q.incoming >= 0 {
		n++
	}
	return n
}

func (c *cpuModel) idle(k int32) bool {
	q := &c.cpus[k]
	return q.curr == cpuIdle && q.incoming == cpuIdle && q.nload == 0 && len(q.queue) == 0
}

// idleFrom finds an idle CPU, from first on (select_idle_sibling), or -1.
func (c *cpuModel) idleFrom(first int32) int32 {
	n := int32(len(c.cpus))
	for i := range n {
		if k := (first + i) % n; c.idle(k) {
			return k
		}
	}
	return -1
}

// idlest is the CPU a new thread goes to (find_idlest_cpu): an idle one,
// else the one with the fewest runnable threads, the lowest on a tie.
func (c *cpuModel) idlest() int32 {
	best := int32(0)
	for k := range int32(len(c.cpus)) {
		if c.nrRunning(k) < c.nrRunning(best) {
			best = k
		}
	}
	return best
}

// ensureTick puts CPU k's next scheduler tick on the agenda when the
// tick has something to decide for the program: a queue, or Go's thread
// sharing the CPU with the load. Ticks come on the 4ms grid.
func (c *cpuModel) ensureTick(s *Machine, k int32) {
	q := &c.cpus[k]
	if q.ticking || c.nrRunning(k) < 2 || (q.curr < 0 && len(q.queue) == 0) {
		return
	}
	q.ticking = true
	q.tickGen++
	at := (s.now/sim.Time(schedTick) + 1) * sim.Time(schedTick)
	s.agenda.Push(at, wake{kind: wakeCPU, m: MID(k), gen: q.tickGen})
}

// cpuTick is CPU k's scheduler tick (sched_tick → task_tick_fair →
// update_curr): the running thread's request ran out or its protection
// is over, and the CPU picks again; then the nohz kick that gives idle
// CPUs work.
func (s *Machine) cpuTick(k int32, gen uint32) {
	c := s.cpu
	q := &c.cpus[k]
	if !q.ticking || gen != q.tickGen {
		return
	}
	q.ticking = false
	c.updateCurr(s, k)
	if q.curr != cpuIdle && c.nrRunning(k) >= 2 && c.reschedule(k) {
		if next := c.pickEEVDF(k, -1); next != q.curr {
			c.switchTo(s, k, next, false)
		}
	}
	for j := range int32(len(c.cpus)) {
		if c.idle(j) {
			c.pull(s, j)
		}
	}
	c.balance(s, k)
	c.ensureTick(s, k)
}

// balance is the periodic load balance seen from CPU k at its tick
// (load_balance): a CPU with two or more runnable threads more than k
// gives it a waiting M that is not cache-hot, to wait in k's queue.
func (c *cpuModel) balance(s *Machine, k int32) {
	if c.cpus[k].curr == cpuIdle {
		return // an idle CPU pulls a thread to run instead (pull)
	}
	for j := range int32(len(c.cpus)) {
		if j == k || c.nrRunning(j) < c.nrRunning(k)+2 {
			continue
		}
		for _, id := range c.cpus[j].queue {
			t := &c.th[id]
			if s.now.Sub(t.lastRan) < migrationCost {
				continue // task_hot
			}
			c.updateCurr(s, j)
			c.updateCurr(s, k)
			c.migrate(t, id, j, k)
			c.unqueue(j, id)
			t.cpu = k
			c.cpus[k].queue = append(c.cpus[k].queue, id)
			return
		}
	}
}

// switchTo ends the running thread's turn on CPU k and gives the CPU to
// next, an M or loadWaitID, which pickEEVDF chose at the tick or, atWake,
// at a wake-up there.
func (c *cpuModel) switchTo(s *Machine, k, next int32, atWake bool) {
	q := &c.cpus[k]
	cur := q.curr
	nextIsLoad := next == loadWaitID
	if cur == cpuLoad {
		if nextIsLoad {
			// Another of the load's threads: the group goes on.
			c.putPrevLoad(q, s.now)
			c.runLoad(s, k)
			return
		}
		c.putPrevLoad(q, s.now)
	} else {
		vm := s.m(MID(cur))
		nm := NoM
		if next >= 0 {
			nm = MID(next)
		}
		s.emit(&Event{Kind: KindCPUOff, Rule: RuleCPUSliceOver, G: vm.CurG, P: heldP(vm), M: vm.ID, M2: nm,
			N: int(k), N2: c.nrRunning(k), D: c.slice, Flag: atWake})
		c.freeze(s, &c.th[cur])
		q.queue = append(q.queue, cur)
		c.setCurr(q, cpuIdle, s.now)
	}
	if nextIsLoad {
		c.runLoad(s, k)
	} else {
		c.resume(s, k, next, false)
	}
}

// pickNext gives idle CPU k its next thread (pick_next_task_fair): the
// eligible one with the earliest deadline, else one pulled from another
// CPU (newidle_balance).
func (c *cpuModel) pickNext(s *Machine, k int32) {
	switch next := c.pickEEVDF(k, -1); {
	case next == loadWaitID:
		c.runLoad(s, k)
	case next >= 0:
		c.resume(s, k, next, false)
	default:
		c.pull(s, k)
	}
}

// runLoad gives CPU k to one of the load's threads.
func (c *cpuModel) runLoad(s *Machine, k int32) {
	q := &c.cpus[k]
	c.setCurr(q, cpuLoad, s.now)
	q.loadRunVR = q.loadVR
	c.loadRequest(q)
	q.loadExec = s.now
	c.ensureTick(s, k)
}

// pull moves a waiting M from the busiest CPU to idle CPU k
// (newidle_balance, the nohz idle balance): the one that waited longest
// of those not cache-hot where they wait.
func (c *cpuModel) pull(s *Machine, k int32) {
	from, pick := int32(-1), int32(-1)
	for j := range int32(len(c.cpus)) {
		if j == k {
			continue
		}
		for _, id := range c.cpus[j].queue {
			t := &c.th[id]
			if t.frozen && s.now.Sub(t.lastRan) < migrationCost {
				continue // task_hot
			}
			if pick < 0 || t.offSince < c.th[pick].offSince {
				from, pick = j, id
			}
		}
	}
	if pick < 0 {
		return
	}
	t := &c.th[pick]
	c.updateCurr(s, from)
	c.updateCurr(s, k)
	c.migrate(t, pick, from, k)
	c.unqueue(from, pick)
	t.cpu = k
	c.ensureTick(s, from)
	c.resume(s, k, pick, true)
}

func (c *cpuModel) unqueue(k, id int32) {
	q := &c.cpus[k]
	for i, x := range q.queue {
		if x == id {
			q.queue = append(q.queue[:i], q.queue[i+1:]...)
			return
		}
	}
}

// resume gives CPU k to waiting thread id: a woken thread's step runs
// now, a preempted one's wake-up moves later by the time it waited, and
// a signal that came meanwhile is handled.
func (c *cpuModel) resume(s *Machine, k, id int32, pulled bool) {
	t := &c.th[id]
	m := s.m(MID(id))
	waited := s.now.Sub(t.offSince)
	// Every wait began with a cpu-off event (place, commit, switchTo).
	s.emit(&Event{Kind: KindCPUOn, Rule: RuleCPUResume, G: m.CurG, P: heldP(m), M: m.ID, N: int(k), D: waited, Flag: pulled})
	c.unqueue(k, id)
	t.waited += waited
	q := &c.cpus[k]
	c.setCurr(q, id, s.now)
	t.state = thRunning
	t.cpu = k
	t.pulled = pulled
	t.execFrom = s.now
	t.prot = t.dl // set_next_entity: RUN_TO_PARITY
	switch {
	case t.deferred:
		t.deferred = false
		if m.ID == s.mon.M {
			s.agenda.Push(s.now, wake{kind: wakeSysmon, m: m.ID, gen: s.mon.gen})
		} else {
			s.wakeMAt(m, s.now, m.next)
		}
	case t.frozen:
		t.frozen = false
		// A spinning thread (next stepNone) has no wake-up to move: it
		// just computes again.
		if (waited > 0 || t.held) && m.next != stepNone {
			if g := m.CurG; g != NoG && s.g(g).inCPU {
				s.g(g).cpuEnd = s.g(g).cpuEnd.Add(waited)
			}
			s.wakeMAt(m, m.wakeAt.Add(waited), m.next)
		}
		t.held = false
	}
	if t.sig {
		t.sig = false
		s.agenda.Push(s.now, wake{kind: wakeSignal, m: m.ID, g: t.sigG, gen: t.sigGen})
	}
	c.ensureTick(s, k)
}

// cpus checks the kernel's scheduler against the Ms (CheckInvariants):
// each thread is where its state says, once; a thread on a CPU or
// preempted has work, and one asleep has none; a CPU with a queue runs
// something and has its tick coming.
func (c *checker) cpus() {
	s := c.s
	cm := s.cpu
	if cm == nil {
		return
	}
	queued := make([]int, len(cm.th))
	for k := range cm.cpus {
		q := &cm.cpus[k]
		if q.incoming != cpuIdle {
			c.bad("CPU%d has M%d coming between steps", k, q.incoming)
		}
		switch {
		case q.curr >= 0:
			if t := &cm.th[q.curr]; t.state != thRunning || t.cpu != int32(k) {
				c.bad("CPU%d runs M%d, which is %d on CPU%d", k, q.curr, t.state, t.cpu)
			}
		case q.curr == cpuLoad:
			if q.nload == 0 {
				c.bad("CPU%d runs a load thread but has none", k)
			}
		case len(q.queue) > 0 || q.nload > 0:
			c.bad("CPU%d is idle with %d Ms and %d load threads waiting", k, len(q.queue), q.nload)
		}
		if len(q.queue) > 0 && !q.ticking {
			c.bad("CPU%d has Ms waiting and no tick coming", k)
		}
		for _, id := range q.queue {
			queued[id]++
			if t := &cm.th[id]; t.state != thWaiting || t.cpu != int32(k) {
				c.bad("M%d is in CPU%d's queue but is %d on CPU%d", id, k, t.state, t.cpu)
			}
		}
	}
	for id := range cm.th {
		t := &cm.th[id]
		if int(id) >= len(s.ms) {
			c.bad("a kernel thread M%d with no M", id)
			continue
		}
		m := s.ms[id]
		if (t.state == thWaiting) != (queued[id] == 1) {
			c.bad("M%d is %d and in %d queues", id, t.state, queued[id])
		}
		work := s.needsCPU(m)
		switch {
		case t.state == thSleeping && work:
			c.bad("M%d is asleep for the kernel but has work (%d)", id, m.next)
		case t.state == thWaiting && t.frozen && !work:
			c.bad("M%d lost its CPU with no work", id)
		case t.state == thRunning && !work && m.wakeAt != s.now && MID(id) != s.mon.M:
			c.bad("M%d is on CPU%d with no work", id, t.cpu)
		}
	}
}
