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
// and a computation's wall time stretches by up to 2% and is now and then
// stalled (compute), each drawn from the run's seeded generator, so a run
// stays byte-identical for its seed while different seeds land in
// different phases.
//
// Noise is off by default: exact runs give the idealised traces the
// built-ins' notes explain, and every published case holds without it.
// schedlab's noise: key and --noise flag turn it on.

// cpuStretch: with Noise, a compute action takes up to 1/cpuStretch
// longer than written, 1% on average, 1.5% with the stalls below. The real
// loop, timed by scripts/cpustretch under runtime/trace on one P, ran
// 0.6-0.8% longer than written on average (10 runs each, load 0.5 and
// 2.3), interruptions included; judged against the recorded series of
// real runs, a model at that mean made the one-P computing makespans
// shorter than the real ones, which hold costs the model does not have
// (docs/fidelity.md, Noise), and 4%, the bound before, longer.
const cpuStretch = 50

// A CPU busy with user code still loses it now and then to the kernel: the
// timer tick and other interrupts, which on a virtual machine also exit to
// the hypervisor. scripts/cpustall measures these stalls as the gaps in a
// loop that reads the clock, on threads the other processes cannot preempt
// (chrt -f 1): on the AMD EPYC virtual machine the project measures on,
// about 350 a second on each busy CPU, of 13-17µs (median 14µs); what
// else the machine runs only adds to them. The stretch above cannot stand
// for them: it spreads the lost time thinly over every computation, while
// a stall takes it at once, long enough to outlast a sync.Mutex spinner's
// four rounds of procyield(30) (runtime_canSpin's limit, about 2.9µs) when
// it hits the holder. The spinner then parks, its P goes idle, and the
// holder takes the mutex again until the idle P steals the waiter Unlock
// woke into the holder's runnext (runqgrab's usleep(3)): the re-takes of
// issue 24's contended mutex come from these episodes.
const (
	stallEvery = 2900 * time.Microsecond // the mean CPU time between two stalls
	stallLen   = 14 * time.Microsecond   // one stall's length
)

// compute is how long a computation of d takes on the CPU: d at the
// work's pace (Costs.WorkPace), and with Noise stretched by up to
// 1/cpuStretch and stalled once every stallEvery on average (a whole
// number of stalls for the whole periods in d, and one more with the
// chance the rest of d gives).
func (s *Machine) compute(d time.Duration) time.Duration {
	if p := s.cfg.Costs.WorkPace; p > 0 && p != 1 && d > 0 {
		d = time.Duration(float64(d) * p)
	}
	if !s.cfg.Noise || d <= 0 {
		return d
	}
	t := s.late(d, d/cpuStretch)
	n := int64(d / stallEvery)
	if s.rng.Int63n(int64(stallEvery)) < int64(d%stallEvery) {
		n++
	}
	return t + time.Duration(n)*stallLen
}

// NoiseWorkMean is how many times its written time a computation takes on
// average with Noise: the stretch's mean and the stalls' share. A caller
// that knows a real computation's mean pace divides it by this for
// Costs.WorkPace, so that the two together give that pace.
func NoiseWorkMean() float64 {
	return 1 + 1/(2*float64(cpuStretch)) + float64(stallLen)/float64(stallEvery)
}

// maxWorkPace bounds Costs.WorkPace: a computation twice as long as
// written is no machine's pace, but a mistake.
const maxWorkPace = 2

// late is a wait of base, made late by up to spread when Noise is on.
func (s *Machine) late(base, spread time.Duration) time.Duration {
	if !s.cfg.Noise || spread <= 0 {
		return base
	}
	return base + time.Duration(s.rng.Int63n(int64(spread)+1))
}
