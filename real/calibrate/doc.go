// Package calibrate measures what the runtime's own work costs on this
// machine (schedlab calibrate) and turns the measurements into the model's
// costs, gmp.Costs (--costs FILE, and verify by default).
//
// # The figures
//
// Measure measures Linux, whose futex, nanosleep and CPU affinity the
// figures are about; on other systems it says so, and --costs still reads
// a profile measured on Linux. Each figure is taken Options.Samples times
// (500 by default) after a few thrown away, and kept as its median, 10th
// and 90th percentiles, minimum and maximum. Durations are in nanoseconds.
// The figures taken in the program itself are taken in turn,
// Options.Rounds times over (10 by default), each time with their share
// of the samples, so that each is of the calibration's seconds: the Intel
// Xeon VM the project measured on changes pace within seconds, and a
// figure taken all at once (--rounds 1) was of whichever pace held then
// (verify.Pace). first_write and wake_after_idle, taken in fresh copies
// of the program, come after, once.
//
//   - futex_wake: the one-way time of a ping-pong through unbuffered
//     channels between two goroutines locked to threads of their own, with
//     GOMAXPROCS=1: each hop hands the P to the other thread and wakes it
//     with a futex, and this thread sleeps on one. The threads are held to
//     two CPUs (where the process may use two): a wake-up from one CPU to
//     another, startm's usual one. On an AMD EPYC VM, nine calibrations so
//     held gave p10 17-24µs (mostly 17-19), where two threads left to the
//     kernel shared a CPU in some runs and not in others: p10 7µs, 18µs
//     and 31µs on the same day.
//   - context_switch: a hop between two threads held to one CPU
//     (sched_setaffinity) through two pipes: a write, the reader's wake-up
//     and switch-in, its read.
//   - nanosleep_slack: how much longer than asked nanosleep(20µs) takes:
//     the system call under the runtime's usleep, sysmon's shortest sleep.
//   - nanosleep_slack_long: the same for nanosleep(10ms), sysmon's
//     longest sleep, 100 samples at most. The timer slack is the same, but
//     on a virtual machine a CPU idle longer takes longer to run the woken
//     thread: on the project's Intel Xeon VM a 20µs or 200µs sleep came
//     back 55µs late at the median, a 10ms one 125-128µs.
//   - nanosleep_slack_long_busy: the same while a goroutine computes on
//     another thread, as sysmon sleeps beside a program's work. On the
//     project's AMD EPYC VM its 10th percentile was 75-84µs where the
//     machine idle gave 86-160µs: a busy machine's idle CPU wakes sooner.
//   - sleep_slack: how much longer than asked time.Sleep(1ms) takes: the
//     runtime's timer, the thread's wait in the network poller or on a
//     futex, the kernel's slack and wake-up.
//   - syscall: a one-byte write to /dev/null through package syscall,
//     which enters and leaves the runtime's system-call state.
//   - timer_slack: the kernel's timer slack, from /proc/self/timerslack_ns
//     ("procfs"), or where that cannot be read the 10th percentile of
//     nanosleep_slack ("measured").
//   - go_create: a go statement's cost to its creator, on one P (the new
//     goroutines wait until the creator blocks): 100 statements timed
//     together.
//   - go_first_run: from a go statement to the new goroutine's first
//     instruction, on one P with the creator blocking at once.
//   - handoff: the one-way time of a ping-pong between two goroutines on
//     one P and one thread: the runtime's own hand-off.
//   - cpu_work: the speed of real/prog/cpuwork's loop, the one a
//     scenario's cpu action runs for real, in iterations per microsecond.
//   - go_create_fresh: go_create when no dead goroutine's descriptor is
//     left to reuse: every goroutine it makes stays blocked to the end (a
//     thousand made first take up what the earlier figures left on the
//     free lists), so each go statement allocates a g and its stack. At
//     most 1000 samples of 20.
//   - traced_go_create, traced_handoff: go_create and handoff again while
//     runtime/trace records the program (into nothing): each go
//     statement, block, wake-up and start then writes a trace event, with
//     a stack for some. On an AMD EPYC, 84ns and 130ns untraced, 174ns
//     and 335ns traced.
//   - traced_park_gap, traced_exit_gap, traced_yield_gap: the idle P a
//     trace shows between a goroutine's stop and the next start, on one
//     P, after a park (a channel ping-pong), an exit (goroutines that
//     compute about 10µs and end, as a scenario's do: ending at once, the
//     exit's path is in the caches and its gap a fifth shorter) and a
//     runtime.Gosched (two goroutines yielding in turn),
//     read from the trace with package rtrace. The trace's clock steps by
//     64ns, so each sample is the mean of 16 gaps in a row. At most 2000
//     samples, the trace being held in memory.
//   - pipe_write: the write(2) of a short line to a pipe whose reader, a
//     thread of its own, waits for it in read: the write wakes the
//     reader, as a scenario's print wakes schedlab real's parent, which
//     reads the program's output from a pipe. Writer and reader are held
//     to two CPUs (where the process may use two), as a program and its
//     reader mostly are: 6.2-6.6µs on an AMD EPYC VM (4µs on one CPU),
//     where a byte to /dev/null (syscall) takes 0.2µs.
//   - wake_after_idle: on 2 Ps, main sleeps 2, 3, 5 or 8ms, then makes a
//     goroutine and computes 5ms; a round's time runs from the go
//     statement to the goroutine's first instruction, and a round is late
//     when that is over 0.5ms. Not a spread of one duration but, at each
//     idle time, the rounds, how many were late and how late those were
//     (their minimum, 10th percentile, median, 90th percentile and
//     maximum, all 0 when none was). Each idle time's rounds (at most 100)
//     run in a row in four fresh copies of the program, after 5 thrown
//     away in each (idlewake.go says why). On the AMD EPYC VM, five
//     calibrations found 4-15% late after 2ms, 29-66% after 3ms, 36-65%
//     after 5ms and 65-78% after 8ms, late by 0.7-3.8ms (p10-p90): the
//     woken thread waits for a scheduler tick on the busy CPU it last ran
//     on.
//   - wake_call: what a wake-up of a parked thread costs the thread that
//     makes it. A goroutine, computing 300µs between sends, sends on an
//     unbuffered channel to a receiver parked in its receive; with
//     GOMAXPROCS=2 the send readies the receiver and wakes the other P's
//     parked thread (wakep, a futex) before it returns. Each sample is
//     such a send less the median of the same send with GOMAXPROCS=1,
//     which readies the receiver and wakes no thread (wakecall.go). On
//     the AMD EPYC VM, 7.3-8.1µs (p10-p90), where the send alone takes
//     0.15µs: the hypervisor carries the idle CPU's interrupt.
//   - first_write and traced_first_write: what a program's first write
//     to its standard output costs more than its later ones. Twenty fresh
//     copies of the program each, untraced and traced (runtime/trace
//     recording) in turn, write six lines to a pipe that calibrate reads
//     as schedlab real reads a program's output (os/exec's copying
//     goroutine), each after computing 2ms, when the reader has gone back
//     to sleep; a copy's sample is its first write less the median of its
//     later five (firstwrite.go). On the AMD EPYC VM, three calibrations
//     gave medians of 4.9-5.8µs untraced and 5.4-6.4µs traced, with a
//     long tail (p90 12-40µs): the pipe's first use, its reader's first
//     wake-up and, traced, the tracer's first system call event.
//   - first_print and traced_first_print: what a program's first
//     fmt.Println takes more before its write, fmt's first use (its code
//     paged in, its printer allocated). The same copies print each line
//     with fmt.Fprintln into a writer that notes when fmt calls it, and
//     print one more line at once after the first; a copy's sample is the
//     first line's formatting less that line's, fmt warm
//     (firstwrite.go). On the Intel Xeon, three calibrations gave medians
//     of 8.1-11.2µs untraced and 10.1-12.4µs traced (p10-p90 about
//     4-15µs), where five traced real runs of print-order-2p show main
//     running 7-24µs from its last go statement to its first print's
//     write, and a later print about 1µs before its write.
//   - netpoll_wake: the network poller's wake-up. On 2 Ps with nothing
//     else to run, a goroutine reads a non-blocking timerfd armed 2ms
//     ahead through an os.File, which parks it in the poller as a real
//     program's net action does; a sample runs from the timer's expiry
//     (CLOCK_MONOTONIC) to the read's return. At most 200 samples
//     (netpollwake.go). On the AMD EPYC VM, three calibrations gave
//     29-46µs at the 10th percentile and 50-54µs at the 90th; a probe of
//     fresh processes 25-30µs and 30-35µs. A run stays mostly in one of
//     two modes, about 27µs and about 48µs.
//   - mutex_spin: one round of a goroutine spinning on a held
//     sync.Mutex, the runtime's sync.runtime_doSpin (procyield(30)),
//     reached by go:linkname: the time of a batch of 100 rounds over 100,
//     at most 500 samples (mutexspin.go). A PAUSE instruction's length
//     is the CPU's: the AMD EPYC VM's default took 0.71µs a round, an
//     Intel Xeon at 2.5GHz 137ns (500 samples, p10 to p90 137-196ns).
//   - wake_pack: how often the kernel puts a woken thread beside its
//     waker, on the waker's busy CPU, rather than on an idle one. Two
//     threads on the first two CPUs the process may use: the waker
//     computes on the first, pinned there, 30%, 60% or 75% of each
//     millisecond and sleeps the rest (75%: past the edge where this
//     project's machine stops packing; all of it before 28 November);
//     the sleeper runs 50µs on the waker's CPU (beside) or the other one
//     (away), then may run on either, and sleeps 0.5, 2 or 8ms in
//     read(2) until the waker writes; getcpu(2) then says where the
//     kernel put it (PackRounds, wakepack_linux.go). Not a spread of one duration but, for each of
//     the waker's shares (a row, with the share it computed, its sleeps
//     lasting their timer slack longer than asked) and each sleep, the
//     share of rounds woken beside the waker, beside and away. The rounds
//     (at most 40 a case) run in four fresh copies of the program each,
//     with the runtime's preemption signals off, after the waker has kept
//     to its share for 100ms; a machine with one CPU measures no rows. On
//     the Intel Xeon VM, whose kernel packs on purpose (sched_vcpu_pack),
//     a calibration found, beside a waker computing 28% of the time,
//     90-98% of the rounds packed away and 95-100% beside; at 54%,
//     43-80% away and 90-100% beside; beside a waker that always
//     computes, 0% away and 0-10% beside (the first calibrations' last
//     row); at 71%, 0-18% away. Upstream Linux packs none away,
//     and beside only within its migration cost, 0.5ms.
//
// # What each sets in the model
//
//	figure            statistic  gmp.Costs fields
//	futex_wake        p10        WakeM, and NetpollWake in a profile of
//	                             formats 1 to 7 (its NetpollJitter four
//	                             times that, as the defaults')
//	nanosleep_slack   p10        UsleepSlack (UsleepWake 0: the slack
//	                  p90 - p10  UsleepJitter  measured holds the wake-up)
//	syscall           median     Syscall
//	go_create         median     Newproc
//	handoff           median     ChanOp, Schedule, Execute, scaled together
//	                             so that the model's hop takes the median
//	                             (ModelHop runs the model to find its hop)
//	go_create_fresh   median     NewG: less go_create's median (none, 0,
//	                             in a profile of format 1)
//	traced_go_create  median     Newproc, for verify only
//	traced_handoff    median     ChanOp, Schedule, Execute, for verify
//	                             only, scaled as handoff's
//	traced_exit_gap   median     ScheduleExit, for verify only
//	traced_yield_gap  median     ScheduleYield, for verify only
//	traced_park_gap   median     Schedule, for verify only, Execute giving
//	                             up as much (costs.go's switchGaps); with
//	                             cpu_work, ParkGrowth's At, the probe's
//	                             work, that Schedule grows from
//	pipe_write        median     Write (in a profile of formats 1 to 3,
//	                             the default)
//	wake_after_idle   each point IdleWake: at each idle time, the late
//	                             rounds' share, late by their p10 to p90
//	                             (none in a profile of formats 1 to 4)
//	wake_call         median     WakeCall (none in a profile of formats
//	                             1 to 5)
//	first_write       median     FirstWrite (none in a profile of formats
//	                             1 to 6)
//	traced_first_write median    FirstWrite, for verify only
//	first_print       median     FirstPrint (in a profile of formats 1
//	                             to 9, the default)
//	traced_first_print median    FirstPrint, for verify only
//	netpoll_wake      p10        NetpollWake
//	                  p90 - p10  NetpollJitter
//	mutex_spin        median     Spin (in a profile of formats 1 to 8,
//	                             the default)
//	nanosleep_slack_long p10     UsleepSlackLong (none in a profile of
//	                             formats 1 to 10: every sleep then has
//	                             UsleepSlack)
//	wake_pack         each row   WakePack: the rows' utilisations, the
//	                             sleeps, and the shares beside and away
//	                             (none in a profile of formats 1 to 11,
//	                             nor with no rows: no thread is packed)
//	nanosleep_slack_long_busy p10 UsleepSlackLongBusy, a long sleep's
//	                             slack while another thread computes
//	                             (none in a profile of formats 1 to 12:
//	                             such a sleep has UsleepSlackLong)
//	context_switch, sleep_slack, timer_slack, go_first_run, cpu_work:
//	                  none: kept to read beside the others, and for a model
//	                  of the machine's CPUs
//	not measured: NewM and PreemptSignal keep the defaults.
//
// verify compares the model with traced real runs, and the tracer is an
// instrument with a cost of its own on every scheduler event: it times the
// model with Profile.TracedCosts, the traced figures in place of
// go_create, handoff, first_write and first_print. Every other command (run, tui, export) uses
// Profile.Costs, untraced. The traced figures are measured as the
// untraced ones are, never fitted to what verify finds.
//
// The costs the model makes late under Config.Noise (a woken thread, a
// usleep, a netpoll wake-up) take the fast end, the 10th percentile: they
// are the undisturbed time, and the noise adds the lateness a real machine
// shows. The costs it never makes late take the median.
//
// # The profile
//
// A profile is one JSON object, written by Profile.Write and read by Read:
//
//	{
//	  "format": "schedlab-costs/13",
//	  "measured": "2026-05-04T10:20:30Z",         RFC 3339
//	  "machine": {
//	    "goos": "linux", "goarch": "amd64",        GOOS and GOARCH
//	    "cpu_model": "AMD EPYC",                   /proc/cpuinfo's model name
//	    "cpus": 2,                                 CPUs the process may use
//	    "go": "go1.26.8",                          the runtime that measured
//	    "load_before": 0.52, "load_after": 0.61    one-minute load average (optional)
//	  },
//	  "figures": {
//	    "futex_wake": {"samples": 500, "median_ns": 6600, "p10_ns": 5700,
//	                   "p90_ns": 18600, "min_ns": 4800, "max_ns": 1505000},
//	    … each duration figure alike …
//	    "timer_slack": {"ns": 50000, "source": "procfs"},
//	    "cpu_work": {"samples": 500, "median_per_us": 722, "p10_per_us": 719,
//	                 "p90_per_us": 723, "min_per_us": 3.9, "max_per_us": 725},
//	    "go_create_fresh": {…}, "traced_go_create": {…}, "traced_handoff": {…},
//	    "traced_park_gap": {…}, "traced_exit_gap": {…}, "traced_yield_gap": {…},
//	    "pipe_write": {…}, "wake_call": {…}, "first_write": {…},
//	    "traced_first_write": {…}, "netpoll_wake": {…}, "mutex_spin": {…},
//	    "first_print": {…}, "traced_first_print": {…}, "nanosleep_slack_long": {…},
//	    "wake_after_idle": {"late_after_ns": 500000, "points": [
//	      {"idle_ns": 2000000, "rounds": 100, "late": 4, "late_min_ns": 1100000,
//	       "late_p10_ns": 1219192, "late_median_ns": 2340000,
//	       "late_p90_ns": 3775781, "late_max_ns": 3900000},
//	      … one for each idle time, four at most, in ascending order …
//	    ]},
//	    "wake_pack": {"rounds": 40, "sleeps_ns": [500000, 2000000, 8000000], "rows": [
//	      {"busy_percent": 30, "util": 0.28, "beside": [0.95, 1, 1], "away": [0.9, 0.95, 0.98]},
//	      … one for each share of computing, three in ascending order, or none …
//	    ]},
//	    "nanosleep_slack_long_busy": {…}
//	  }
//	}
//
// Every field is required but the loads. Profiles of the older formats
// are still read. One of schedlab-costs/12 has no
// nanosleep_slack_long_busy (and may not): a long sleep of its model
// beside work has the idle machine's slack, as before, and verify's
// report says so. One of schedlab-costs/11 has no wake_pack either (and may
// not): its model packs no woken thread, and verify's report says so.
// One of schedlab-costs/10 has no nanosleep_slack_long
// (and may not): every sleep of its model has the short sleep's slack, as
// before, and verify's report says so. One of schedlab-costs/9 has
// neither first_print nor
// traced_first_print (and may not): its FirstPrint is the default, and
// verify's report says so. One of schedlab-costs/8 has no mutex_spin
// either (and may not): its Spin is the default, and verify's report
// says so. One of
// schedlab-costs/7 has no netpoll_wake either (and may
// not): its NetpollWake is futex_wake's 10th percentile and its
// NetpollJitter four times that, and verify's report says so. One of
// schedlab-costs/6 has neither first_write nor
// traced_first_write either (and may not): its FirstWrite is 0, as the
// defaults', and verify's report says so. One of schedlab-costs/5 has no
// wake_call either (and may not):
// its WakeCall is 0, as the defaults', and verify's report says so. One
// of schedlab-costs/4 has no wake_after_idle either (and may
// not): its IdleWake is empty, as the defaults', and verify's report says
// so. One of schedlab-costs/3 has no pipe_write either (and may not):
// its Write is the default. One of schedlab-costs/2 has none of the three gaps
// (and may not): verify's ScheduleExit and ScheduleYield are 0, Schedule,
// and its report says the gaps are missing. One of schedlab-costs/1 has
// none of go_create_fresh, traced_go_create and traced_handoff either:
// its NewG is 0 and verify times the model with its untraced costs,
// saying so. A profile is untrusted input,
// shared as a scenario is: Parse refuses a file over 1 MiB, text that is
// not UTF-8 or not JSON, a field it does not know or given twice, a format
// other than schedlab-costs/13, /12, /11, /10, /9, /8, /7, /6, /5, /4, /3, /2 or /1, and any figure that is missing, not
// positive, over one second (a rate over 10⁶ per µs), or out of order
// (min ≤ p10 ≤ median ≤ p90 ≤ max), a count of samples outside 1–10⁷,
// wake_after_idle's points not 1 to 4 or not in ascending order, a point's
// rounds outside 1–10⁷ or late rounds above them, or its late statistics
// not 0 when no round was late, wake_pack's sleeps not 3 in ascending
// order, its rows not 3 (or none) with shares of computing and
// utilisations rising, or a share outside 0-1,
// CPUs outside 1–65536, a name that is empty, over 200 characters or not
// printable, each with the file, line and column and the field's path.
//
// The machine's CPU count and load are recorded, not used: a model of the
// machine's CPUs (--cpus, --load) can take its defaults from them. A
// layout that adds fields gets a new format name.
package calibrate
