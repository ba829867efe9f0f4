//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time, user and system, that the process's
// threads have used so far, and whether it could be read.
func Process() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
