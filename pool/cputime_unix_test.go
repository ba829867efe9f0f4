//go:build unix

package pool_test

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time, user and system, the test process has used
// so far.
func processCPUTime() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
