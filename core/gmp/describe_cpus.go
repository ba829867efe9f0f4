package gmp

import "time"

// cpuWords tells what the kernel's scheduler does to the Ms when CPUs are
// modelled (cpus.go): in Linux's words, vruntime, slices, run queues.
var cpuWords = words{
	RuleCPUWait: func(d *Describer, b []byte, e *Event) []byte {
		if e.NewThread() {
			b = appendf(b, "%v, a new thread, finds no CPU idle: placed with the least vruntime on CPU%d, it waits in its run queue with %d runnable threads for the running one's slice to end",
				e.M, e.Cpu(), e.Runnable())
		} else if lead := roundUs(e.Lead()); lead > 0 {
			b = appendf(b, "%v wakes but no CPU is idle, and it is only %v of vruntime behind CPU%d's thread, not enough to preempt it: it waits in CPU%d's run queue with %d runnable threads",
				e.M, lead, e.Cpu(), e.Cpu(), e.Runnable())
		} else {
			b = appendf(b, "%v wakes but no CPU is idle, and it has had more CPU time than CPU%d's thread: it waits in CPU%d's run queue with %d runnable threads",
				e.M, e.Cpu(), e.Cpu(), e.Runnable())
		}
		return offCPU(b, e)
	},
	RuleCPUWakeupPreempt: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v wakes %v of vruntime behind %v on CPU%d, more than the %v wake-up granularity, and preempts it",
			e.Preemptor(), roundUs(e.Lead()), e.M, e.Cpu(), e.WakeupGran())
		return offCPU(b, e)
	},
	RuleCPUSliceOver: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v has had its %v slice of CPU%d (%d runnable threads share it): at the tick the kernel gives CPU%d to ",
			e.M, roundUs(e.Slice()), e.Cpu(), e.Runnable(), e.Cpu())
		if e.Next() == NoM {
			b = append(b, "another program's thread"...)
		} else {
			b = appendf(b, "%v", e.Next())
		}
		return offCPU(b, e)
	},
	RuleCPUResume: func(d *Describer, b []byte, e *Event) []byte {
		if e.Pulled() {
			return appendf(b, "idle CPU%d pulls %v from a busy CPU's run queue (idle balance): it runs again after %v off a CPU", e.Cpu(), e.M, roundUs(e.OffFor()))
		}
		return appendf(b, "%v gets CPU%d after %v off a CPU", e.M, e.Cpu(), roundUs(e.OffFor()))
	},
}

// offCPU ends a sentence about a thread left without a CPU with what it
// holds: a P it holds does not run either.
func offCPU(b []byte, e *Event) []byte {
	if e.P == NoP {
		return appendf(b, "; %v is off-CPU", e.M)
	}
	return appendf(b, "; %v holds %v but is off-CPU", e.M, e.P)
}

// roundUs rounds a duration of a microsecond or more to the microsecond:
// vruntimes and waits are exact to the nanosecond, which reads as noise.
func roundUs(d time.Duration) time.Duration {
	if d >= time.Microsecond || d <= -time.Microsecond {
		return d.Round(time.Microsecond)
	}
	return d
}
