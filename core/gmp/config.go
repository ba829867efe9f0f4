package gmp

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Costs are the durations of the runtime's own work. The runtime's code
// takes time too; giving each operation a small, fixed cost decides the
// order in which concurrent Ms act, instead of leaving it to tie-breaking.
// The defaults are round numbers of the right order of magnitude for a
// current x86-64 Linux machine.
type Costs struct {
	// Newproc is the cost of a go statement (newproc + newproc1).
	Newproc time.Duration
	// NewG is what a go statement costs more when the free lists hold no
	// dead goroutine's descriptor to reuse, and newproc1 allocates a g and
	// its stack (malg): about 1µs against 80ns on the machine
	// schedlab calibrate measured (go_create_fresh). The creator spends it
	// before the go-create, as newproc1 allocates before it emits
	// GoCreate, and Newproc after. 0 by default, so
	// that every built-in run and golden trace is as before; a profile
	// from calibrate sets it.
	NewG time.Duration
	// FreshSpans spreads NewG over a run's fresh go statements as the
	// runtime pays it, in a lump on the one that begins a new span of
	// stacks or of gs (malg.go). The zero value charges NewG on each;
	// only verify sets it, so that every other run is as before.
	FreshSpans FreshSpans
	// Schedule is the time from a G leaving its M (gopark's mcall, goexit,
	// gosched) to the decision findRunnable takes. A runnext waits only
	// this long for its own P, which is why a P usually runs it before a
	// thief's 3µs back-off ends.
	Schedule time.Duration
	// ParkGrowth is how Schedule, after a park, grows with the user code
	// the thread ran since its last switch (parkgap.go). None by default:
	// every park costs Schedule. Only verify sets it, with a profile's
	// traced figures, so that every other run is as before.
	ParkGrowth ParkGrowth
	// ScheduleExit and ScheduleYield are Schedule after a G exits
	// (goexit0, which frees the G first) and after it yields (goschedImpl,
	// for runtime.Gosched and a preemption, which puts it on the global
	// queue under the scheduler's lock first); 0 means Schedule. A trace
	// shows this time as an idle P between the G's stop and the next
	// start, longer after these two than after a park. Only verify sets
	// them, from a profile's traced figures, so that every other run is
	// as before.
	ScheduleExit, ScheduleYield time.Duration
	// Execute is the time from execute() choosing a G to that G's next
	// action: gogo's switch, then the return from gopark through the
	// operation the G blocked in. The runtime's trace shows the G starting
	// at the choice (execute emits GoStart), and a P's runnext is already
	// empty while this time passes.
	Execute time.Duration
	// ChanOp is the cost of a channel operation's work, which comes before
	// its effect (chan.go). The same cost, after their effect, stands for
	// the other synchronising actions that do not park: a wait that finds
	// nothing to wait for, semaphore, errgroup and pool calls.
	ChanOp time.Duration
	// Syscall is the entersyscall+exitsyscall overhead added to a system
	// call's own duration.
	Syscall time.Duration
	// SyscallSlack is what a syscall action lasts beyond its duration
	// and Syscall: schedlab real's programs make it a nanosleep, which the
	// kernel's timer slack lengthens as it does a usleep (a 20µs syscall
	// lasts about 85µs on a quiet Linux machine). Only verify sets it
	// (UsleepSlack, the measured nanosleep slack), so that every other
	// run is as before: a scenario's syscall lasts what it says.
	SyscallSlack time.Duration
	// WakeM is the time from startm waking a parked M (futex wake) to that
	// M running.
	WakeM time.Duration
	// WakeCall is what that wake-up costs the thread that makes it: the
	// futex wake system call, which on a virtual machine sends the idle
	// CPU an interrupt through the hypervisor. The M whose step woke the
	// M goes on that much later (startm). None by default; a profile from
	// calibrate sets it (real/calibrate's wake_call).
	WakeCall time.Duration
	// NewM is the time from startm creating a thread (newm, clone) to that
	// thread running.
	NewM time.Duration
	// PreemptSignal is the delay between preemptone sending SIGURG and the
	// target thread acting on it.
	PreemptSignal time.Duration
	// NetpollWake is the delay between an fd becoming ready (or
	// netpollBreak) and the M blocked in epoll_wait running again.
	NetpollWake time.Duration
	// NetpollJitter is how much later than NetpollWake that M may run
	// under Config.Noise (uniform from 0 to it). The defaults take four
	// times NetpollWake; a profile measures it (calibrate's netpoll_wake,
	// its 90th percentile less its 10th).
	NetpollJitter time.Duration
	// Spin is one round of a goroutine spinning on a held sync.Mutex:
	// runtime_doSpin's procyield(30), thirty PAUSE instructions. PAUSE
	// takes from ~10 cycles (older Intel) to ~140 (Skylake and later);
	// the default is 30 of them measured on an AMD EPYC, 0.71µs, the
	// machine scripts/mutexretake was measured on. A profile of format 9
	// measures this machine's (calibrate's mutex_spin): an Intel Xeon at
	// 2.5GHz took 137ns, and its spinners give up five times sooner.
	Spin time.Duration
	// UsleepSlack is how much the kernel lengthens every usleep (Linux's
	// default timer slack is 50µs). It is why sysmon's 20µs sleeps are
	// longer in practice and its 10ms sleeps last about 10.05ms.
	UsleepSlack time.Duration
	// UsleepSlackLong is the slack of a sleep of 10ms or more, where it
	// is more than a short sleep's on a machine whose idle CPU takes
	// longer to run the woken thread the longer it idled (sleepslack.go):
	// from 200µs to 10ms a sleep's slack rises from UsleepSlack to this.
	// None by default, nor in a profile of format 10 or older: every
	// sleep then has UsleepSlack.
	UsleepSlackLong time.Duration
	// UsleepSlackLongBusy is the slack of a sleep of 10ms or more that
	// begins while another thread computes (sleepslack.go's besideWork):
	// on a virtual machine less than with the machine idle, whose CPUs
	// take longer to come back. Zero (the defaults, a profile of format
	// 12 or older): such a sleep takes UsleepSlackLong too.
	UsleepSlackLongBusy time.Duration
	// UsleepWake and UsleepJitter are, with Config.Noise, how much later
	// than its slack a usleep's thread runs: at least UsleepWake, and up
	// to UsleepJitter more, drawn evenly. The timer fires at the end of
	// its slack; the kernel then has to wake the sleeping thread, which
	// on a busy CPU waits for the scheduler to let it preempt. On the
	// project's machine (AMD EPYC, 2 CPUs, timer slack 50µs) a
	// nanosleep(20µs) with the other CPU idle is late 66µs at its 10th
	// percentile and 77µs at its 90th (schedlab calibrate, 500 sleeps),
	// and a nanosleep(10ms) beside two busy threads 65 and 86µs: so the
	// wake-up costs 15µs and up to 20µs more. Without noise a usleep
	// lasts exactly its time and its slack, the idealised figure the
	// built-ins' notes give.
	UsleepWake, UsleepJitter time.Duration
	// Print is fmt.Println's formatting of a short line, before its
	// write (print.go).
	Print time.Duration
	// FirstPrint is what a program's first print costs more before its
	// write: fmt's first use (measured 1 to 18µs, median about 5µs, on
	// the AMD EPYC; a profile from calibrate sets this machine's,
	// first_print).
	FirstPrint time.Duration
	// Write is the write system call of a printed line (Syscall's
	// overhead comes on top).
	Write time.Duration
	// FirstWrite is what the program's first write costs more: the pipe
	// to the reader of its output, the reader's wake-up and, traced, the
	// tracer's first system call all used for the first time (3-7µs at
	// the median on the project's machine, calibrate's first_write). 0 in
	// the defaults, whose FirstPrint holds it.
	FirstWrite time.Duration
	// EndMark is what main does after its last action before it returns:
	// in a program schedlab real generates, the end mark, a
	// runtime/trace.Log whose event closes the window verify measures.
	// The process's first log call interns its strings and takes a stack
	// before the runtime stamps the event: 501-922ns, median 545ns, on the
	// project's AMD EPYC (go run ./scripts/endmark). Only verify sets it,
	// so that every other run is as before.
	EndMark time.Duration
	// IdleWake is, with Noise, how much later than WakeM a thread parked
	// for a while starts when startm wakes it (idlewake.go). None by
	// default; a profile from calibrate sets it.
	IdleWake IdleWake
	// WakePreempt is, with Noise and no CPU model, the chance that a
	// thread woken by a running one takes the waker's CPU at once and
	// starts microseconds later instead of WakeM's (wakepreempt.go).
	// None by default; only verify sets it, on several Ps, so that every
	// other run is as before.
	WakePreempt WakePreempt
	// WakePack is the chance that the kernel puts a woken thread beside
	// its waker, on a busy CPU, where CPUs are modelled (wakepack.go).
	// None by default, as upstream Linux; a profile from calibrate sets
	// this machine's (wake_pack).
	WakePack WakePack
	// WorkPace is how many times its written time a computation takes
	// before Noise stretches and stalls it (compute): a real program's cpu
	// action is a loop calibrated by its undisturbed pace, and a long run
	// of it goes slower. Zero, or 1, is the written time: only verify sets
	// it, so that every other run is as before.
	WorkPace float64
}

// DefaultCosts returns the default costs.
func DefaultCosts() Costs {
	return Costs{
		Newproc:       time.Microsecond,
		Schedule:      50 * time.Nanosecond,
		Execute:       150 * time.Nanosecond,
		ChanOp:        100 * time.Nanosecond,
		Syscall:       100 * time.Nanosecond,
		WakeM:         5 * time.Microsecond,
		NewM:          20 * time.Microsecond,
		PreemptSignal: 2 * time.Microsecond,
		NetpollWake:   5 * time.Microsecond,
		NetpollJitter: 20 * time.Microsecond,
		Spin:          700 * time.Nanosecond,
		UsleepSlack:   50 * time.Microsecond,
		UsleepWake:    15 * time.Microsecond,
		UsleepJitter:  20 * time.Microsecond,
		Print:         200 * time.Nanosecond,
		FirstPrint:    5 * time.Microsecond,
		Write:         400 * time.Nanosecond,
	}
}

// Config sets up a simulation.
type Config struct {
	// Procs is GOMAXPROCS.
	Procs int
	// Seed feeds the one random generator (steal order, drawn durations).
	Seed uint64
	// Until stops the run at this simulated time even if goroutines remain.
	// 0 means no limit other than MaxEvents.
	Until time.Duration
	// MeasureIdle measures work conservation: the time Ps idle while
	// runnable Gs wait (Machine.IdleWhileRunnable; workcons.go).
	MeasureIdle bool
	// Noise makes thread wake-ups and timed waits late by seeded random
	// amounts, as on a real machine (noise.go); off, the model is exact.
	Noise bool
	// Policy is a what-if change to the scheduler's rules (policy.go);
	// the zero Policy is Go 1.26's.
	Policy Policy
	// MaxEvents stops a run that has not ended after this many events
	// (0: DefaultMaxEvents): the run ends with the reason EventLimit.
	MaxEvents int
	// Horizon is the simulated time at which a run that has not ended
	// stops, with the reason CenturyLimit (0: MaxSimTime, the most the
	// clock holds). Only tests set it lower: at one sysmon wake-up a
	// minute, a century is a hundred million events.
	Horizon time.Duration
	// Costs of the runtime's own operations. The zero Costs means
	// DefaultCosts, as the zero MaxEvents means DefaultMaxEvents: a
	// machine whose every operation is free is never what a run wants.
	Costs Costs
	// SchedTrace, if set, makes sysmon produce a GODEBUG=schedtrace line
	// every SchedTrace of simulated time. As in the runtime this also
	// keeps sysmon out of its deep sleep (an observer effect, R6.3).
	SchedTrace time.Duration
	// SchedDetail adds the scheddetail=1 lines for every P, M and G.
	SchedDetail bool
	// Check verifies the model's invariants after every step and stops the
	// run with the first violation.
	Check bool
	// WarmStart starts the run as the runtime is when main.main starts:
	// idle threads already made, P0's schedtick advanced (warmstart.go).
	// Off, the run starts on a bare machine, as every golden trace does.
	WarmStart bool
	// CPUs is how many CPUs the Ms share, scheduled by a model of Linux's
	// EEVDF (cpus.go). 0, the default, models no kernel: every M that can
	// run runs at once, as with a CPU for every thread. That is not
	// CPUs = Procs: sysmon and the threads without a P are threads too,
	// and a woken one waits while the running thread is within its
	// request.
	CPUs int
	// SysmonPrelude is how long sysmon has run beside a busy main before
	// main's first action: a program that computes first (schedlab real's
	// programs calibrate their cpu loop for 20ms) starts its scenario with
	// sysmon's sleep backed off towards 10ms, since neither a preemption
	// nor a busy P resets the back-off, and sysmon then looks too seldom
	// to retake a P from a syscall of a few milliseconds (sysmon.go,
	// startSysmon). 0, the default, starts sysmon at its first 20µs sleep,
	// as every golden trace does; only verify sets it.
	SysmonPrelude time.Duration
	// Load is how many always-runnable threads of other programs share
	// the CPUs with the Ms (cpus.go). With Load and no CPUs, the CPUs are
	// as many as Ps.
	Load int
	// NoCauses leaves Event.Cause at -1 for every event, for a run whose
	// sinks never read it (the text trace, --format none, benchmarks): the
	// bookkeeping that finds each event's cause (cause.go) is then
	// skipped.
	NoCauses bool
	// Tracer runs the goroutines runtime/trace adds to a program it
	// records: its CPU-sample reader, which wakes every 100ms, its
	// advancer, which cuts a generation every second, and its writer,
	// which writes the header and then runs first whenever a trace buffer
	// is full (tracer.go). schedlab verify sets it, its real runs being
	// traced; a run without it is the program untraced.
	Tracer bool
	// TracerLead, with Tracer, is how long before the scenario's start
	// the tracer's go statements woke an idle thread. A real program's
	// main makes runtime/trace.Start's go statements, whose wakep wakes a
	// thread for an idle P, then finishes its start before the scenario's
	// first act; the model starts the tracer's goroutines with the
	// scenario, so that thread's wake-up is this far along at 0, and it
	// starts this much sooner (never before 0; tracer.go,
	// tracerWakep). 0, the default, wakes it at 0; only verify sets it.
	TracerLead time.Duration
}

// DefaultMaxEvents bounds a run without Until.
const DefaultMaxEvents = 5_000_000

// MaxProcs bounds Procs; it keeps a typo from allocating a million Ps.
const MaxProcs = 1024

// Validate reports a configuration that cannot run.
func (c *Config) Validate() error {
	var errs []error
	if c.Procs < 1 || c.Procs > MaxProcs {
		errs = append(errs, fmt.Errorf("procs must be between 1 and %d, got %d", MaxProcs, c.Procs))
	}
	if c.Until < 0 {
		errs = append(errs, fmt.Errorf("until must not be negative, got %v", c.Until))
	}
	if c.MaxEvents < 0 {
		errs = append(errs, fmt.Errorf("max events must not be negative, got %d", c.MaxEvents))
	}
	if c.Horizon < 0 || c.Horizon > MaxSimTime {
		errs = append(errs, fmt.Errorf("horizon must be between 0 and %v, got %v", MaxSimTime, c.Horizon))
	}
	if c.CPUs < 0 || c.CPUs > MaxProcs {
		errs = append(errs, fmt.Errorf("cpus must be between 0 (as many as procs) and %d, got %d", MaxProcs, c.CPUs))
	}
	if c.Load < 0 || c.Load > MaxLoad {
		errs = append(errs, fmt.Errorf("load must be between 0 and %d threads, got %d", MaxLoad, c.Load))
	}
	if c.SysmonPrelude < 0 || c.SysmonPrelude > MaxSysmonPrelude {
		errs = append(errs, fmt.Errorf("sysmon prelude must be between 0 and %v, got %v", MaxSysmonPrelude, c.SysmonPrelude))
	}
	if c.TracerLead < 0 || c.TracerLead > MaxTracerLead {
		errs = append(errs, fmt.Errorf("tracer lead must be between 0 and %v, got %v", MaxTracerLead, c.TracerLead))
	}
	if c.TracerLead > 0 && !c.Tracer {
		errs = append(errs, fmt.Errorf("a tracer lead needs the tracer"))
	}
	if c.SchedTrace < 0 {
		errs = append(errs, fmt.Errorf("schedtrace period must not be negative, got %v", c.SchedTrace))
	}
	k := c.Costs
	for _, f := range []struct {
		name string
		d    time.Duration
	}{
		{"newproc", k.Newproc}, {"newg", k.NewG}, {"schedule", k.Schedule}, {"scheduleexit", k.ScheduleExit}, {"scheduleyield", k.ScheduleYield}, {"execute", k.Execute}, {"chanop", k.ChanOp}, {"syscall", k.Syscall}, {"syscallslack", k.SyscallSlack},
		{"wakem", k.WakeM}, {"wakecall", k.WakeCall}, {"newm", k.NewM}, {"preemptsignal", k.PreemptSignal},
		{"netpollwake", k.NetpollWake}, {"netpolljitter", k.NetpollJitter}, {"spin", k.Spin}, {"usleepslack", k.UsleepSlack}, {"usleepslacklong", k.UsleepSlackLong}, {"usleepslacklongbusy", k.UsleepSlackLongBusy},
		{"usleepwake", k.UsleepWake}, {"usleepjitter", k.UsleepJitter},
		{"print", k.Print}, {"firstprint", k.FirstPrint}, {"write", k.Write}, {"firstwrite", k.FirstWrite}, {"endmark", k.EndMark},
	} {
		if f.d < 0 {
			errs = append(errs, fmt.Errorf("cost %s must not be negative, got %v", f.name, f.d))
		}
	}
	if err := k.IdleWake.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := k.WakePack.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := k.WakePreempt.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := k.FreshSpans.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := k.ParkGrowth.validate(); err != nil {
		errs = append(errs, err)
	}
	if p := k.WorkPace; math.IsNaN(p) || p < 0 || p > maxWorkPace {
		errs = append(errs, fmt.Errorf("the work's pace must be from 0 to %v times the written time, got %v", maxWorkPace, p))
	}
	return errors.Join(errs...)
}
