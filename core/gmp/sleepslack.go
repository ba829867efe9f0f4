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
const (
	shortSleep = 200 * time.Microsecond
	longSleep  = 10 * time.Millisecond
)

// sleepSlack is how much the kernel lengthens a timed sleep of d:
// UsleepSlack up to shortSleep, UsleepSlackLong from longSleep, and in
// between on the line through them in log(d). Without UsleepSlackLong
// (the defaults, a profile of format 10 or older), UsleepSlack whatever
// the length.
func (k *Costs) sleepSlack(d time.Duration) time.Duration {
	switch {
	case k.UsleepSlackLong == 0 || d <= shortSleep:
		return k.UsleepSlack
	case d >= longSleep:
		return k.UsleepSlackLong
	}
	f := math.Log(float64(d)/float64(shortSleep)) / math.Log(float64(longSleep)/float64(shortSleep))
	return k.UsleepSlack + time.Duration(math.Round(f*float64(k.UsleepSlackLong-k.UsleepSlack)))
}

// syscallSlack is what a syscall action of d lasts beyond d and Syscall:
// SyscallSlack, which verify sets to UsleepSlack because the real
// program's syscall is a nanosleep, and for a long call as much more as a
// sleep of d gets beyond a short one. 0 when SyscallSlack is: a
// scenario's syscall lasts what it says.
func (k *Costs) syscallSlack(d time.Duration) time.Duration {
	if k.SyscallSlack == 0 {
		return 0
	}
	return k.SyscallSlack + k.sleepSlack(d) - k.UsleepSlack
}
