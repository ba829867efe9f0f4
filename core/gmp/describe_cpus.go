package gmp

import (
	"fmt"
	"time"
)

// cpuWords tells what the kernel's scheduler does to the Ms when CPUs are
// modelled (cpus.go, eevdf.go): in Linux's words, vruntime, lag, requests
// and deadlines, run queues.
var cpuWords = words{
	RuleCPUWait: func(d *Describer, b []byte, e *Event) []byte {
		switch {
		case e.Packer() != NoM:
			b = appendf(b, "%v wakes, and the kernel puts it on CPU%d beside its waker %v, whatever the other CPUs do, as the kernel the costs were measured on packs woken threads onto a CPU with room: it waits in the run queue with %s, ",
				e.M, e.Cpu(), e.Packer(), runnable(e.Runnable()))
		case e.NewThread():
			b = appendf(b, "%v, a new thread, finds no CPU idle: placed at CPU%d's average vruntime with half a request, it waits in its run queue with %s, ",
				e.M, e.Cpu(), runnable(e.Runnable()))
		default:
			b = appendf(b, "%v wakes but no CPU is idle: it waits in CPU%d's run queue with %s, ", e.M, e.Cpu(), runnable(e.Runnable()))
		}
		switch lag, left := roundUs(e.Lag()), roundUs(e.Protected()); {
		case lag < 0:
			b = appendf(b, "having had %v more than its share there (not eligible)", -lag)
		case left > 0:
			b = appendf(b, "as the running thread has %v of its request left (run to parity)", left)
		default:
			b = append(b, "behind a thread with an earlier deadline"...)
		}
		return offCPU(b, e)
	},
	RuleCPUWakeupPreempt: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v wakes on CPU%d owed %v of its share, the eligible thread with the earliest deadline, and preempts %v, ",
			e.Preemptor(), e.Cpu(), roundUs(max(e.Lag(), 0)), e.M)
		if e.Ineligible() {
			b = append(b, "which has had more than its share"...)
		} else {
			b = append(b, "whose request has run out"...)
		}
		return offCPU(b, e)
	},
	RuleCPUSliceOver: func(d *Describer, b []byte, e *Event) []byte {
		when := "at the tick"
		if e.AtWake() {
			when = "at a wake-up there"
		}
		b = appendf(b, "%v has used its %v request of CPU%d (%d runnable threads share it): %s the kernel picks again and gives CPU%d to ",
			e.M, roundUs(e.Slice()), e.Cpu(), e.Runnable(), when, e.Cpu())
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

// runnable counts the threads runnable on a CPU.
func runnable(n int) string {
	if n == 1 {
		return "1 runnable thread"
	}
	return fmt.Sprintf("%d runnable threads", n)
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
