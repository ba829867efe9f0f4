//go:build unix

package gmp

import (
	"time"

	// Renamed: the tests' program builder has a syscall of its own.
	sys "syscall"
)

// cpuTime is the CPU time the process has used, all threads together. On
// a machine shared with other work a run's wall time counts the time it
// waited for a CPU; its CPU time does not, so the benchmarks report both.
func cpuTime() time.Duration {
	var ru sys.Rusage
	if err := sys.Getrusage(sys.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
