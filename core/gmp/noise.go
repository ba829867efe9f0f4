package gmp

import "time"

// Noise. The model's costs are exact: a woken thread runs exactly WakeM
// later, sysmon's 10ms sleep lasts exactly 10ms plus the timer slack.
// Exact costs make runs periodic, and a periodic run can keep meeting the
// same phase: sysmon that always looks while the M is between goroutines
// never preempts a ping-pong; a thief whose 3µs back-off always ends just
// after the hand-off always steals runnext. A real machine wakes threads
// late by amounts that vary (futex wake-ups, the kernel's timer slack,
// epoll's millisecond rounding, the OS scheduler), which breaks such
// phases. With Config.Noise each such wait is late by a further amount,
// and a computation's wall time stretches by up to 4% (interrupts, other
// threads on the CPU), each drawn from the run's seeded generator, so a run stays byte-identical for
// its seed while different seeds land in different phases.
//
// Noise is off by default: exact runs give the idealised traces the
// built-ins' notes explain, and every published case holds without it.
// schedlab's noise: key and --noise flag turn it on.

// cpuStretch: with Noise, a compute action takes up to 1/cpuStretch
// longer than written.
const cpuStretch = 25

// late is a wait of base, made late by up to spread when Noise is on.
func (s *Machine) late(base, spread time.Duration) time.Duration {
	if !s.cfg.Noise || spread <= 0 {
		return base
	}
	return base + time.Duration(s.rng.Int63n(int64(spread)+1))
}
