package gmp

import (
	"math"
	"time"
)

// A timed sleep's slack grows with its length on the project's machine (a
// KVM guest with 2 vCPUs, Linux, timer slack 50µs). A thread locked to its
// OS thread, the other CPU idle, load 0.2, 60 to 200 nanosleeps a length,
// twice: 20µs and 200µs sleeps came back 55µs late at the median, 1ms
// sleeps 77-95µs, 3ms 103-107µs, 10ms and 30ms 125-133µs. The kernel's
// timer slack is the same for all; what grows is the time from the timer
// to the thread running, on a CPU that has been idle longer. Between 200µs
// and 10ms the measured lateness rises about evenly in the logarithm of the
// length, so the model takes the line through Costs.UsleepSlack at
// shortSleep and Costs.UsleepSlackLong at longSleep, flat beyond either.
// It lengthens sysmon's sleeps, an idle M's epoll wait for a timer and,
// in verify, a syscall action (a nanosleep in the real program).
//
// A long sleep comes back sooner while another CPU computes: on the
// project's AMD VM a 10ms nanosleep overshot by 86-160µs at its 10th
// percentile with the machine idle and by 75-79µs beside a thread that
// computes, three runs of each; a 20µs one by 67-68µs either way. The
// runtime's sysmon sleeps beside the program's work: in timer-1p's real
// program under perf, its 10ms sleeps overshot by 75µs at the 10th
// percentile (median 109µs), where calibrate's idle probe said 140µs.
// So a sleep that begins while another thread of the program is on a
// CPU, or other programs load the CPUs, takes Costs.UsleepSlackLongBusy
// at its long end when a profile has it (besideWork).
const (
	shortSleep = 200 * time.Microsecond
	longSleep  = 10 * time.Millisecond
)

// sleepSlack is how much the kernel lengthens a timed sleep of d:
// UsleepSlack up to shortSleep, the long slack from longSleep, and in
// between on the line through them in log(d). The long slack is
// UsleepSlackLong, or UsleepSlackLongBusy for a sleep beside work (busy)
// where a profile measured it. Without UsleepSlackLong (the defaults, a
// profile of format 10 or older), UsleepSlack whatever the length.
func (k *Costs) sleepSlack(d time.Duration, busy bool) time.Duration {
	long := k.UsleepSlackLong
	if busy && k.UsleepSlackLongBusy > 0 {
		long = k.UsleepSlackLongBusy
	}
	switch {
	case long == 0 || d <= shortSleep:
		return k.UsleepSlack
	case d >= longSleep:
		return long
	}
	f := math.Log(float64(d)/float64(shortSleep)) / math.Log(float64(longSleep)/float64(shortSleep))
	return k.UsleepSlack + time.Duration(math.Round(f*float64(long-k.UsleepSlack)))
}

// besideWork says whether a sleep that m begins now has work beside it:
// another of the program's threads on a CPU (running a goroutine, or the
// scheduler's search for one, not backing off in a sleep of its own), or
// other programs' threads loading the CPUs. m, the sleeper, does not
// count; sysmon's thread never does, being in neither state.
func (s *Machine) besideWork(m MID) bool {
	if s.cfg.Load > 0 {
		return true
	}
	for _, o := range s.ms {
		if o.ID != m && (o.State == MRunning || o.State == MScheduler && !o.Backoff) {
			return true
		}
	}
	return false
}

// longBesideWork is besideWork for a sleep of d that m begins now, when
// d is long enough for the work beside it to change its slack; a sleep of
// shortSleep or less has the same slack either way, and the Ms are not
// looked at.
func (s *Machine) longBesideWork(m MID, d time.Duration) bool {
	return d > shortSleep && s.besideWork(m)
}

// syscallSlack is what a syscall action of d that m makes lasts beyond d
// and Syscall: SyscallSlack, which verify sets to UsleepSlack because the
// real program's syscall is a nanosleep, and for a long call as much more
// as a sleep of d gets beyond a short one. 0 when SyscallSlack is: a
// scenario's syscall lasts what it says.
func (s *Machine) syscallSlack(m MID, d time.Duration) time.Duration {
	k := &s.cfg.Costs
	if k.SyscallSlack == 0 {
		return 0
	}
	return k.SyscallSlack + k.sleepSlack(d, s.longBesideWork(m, d)) - k.UsleepSlack
}
