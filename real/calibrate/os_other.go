//go:build !linux

package calibrate

import (
	"errors"
	"time"
)

// measured: calibrate measures Linux only; elsewhere --costs still reads
// a profile measured there.
const measured = false

func contextSwitch(int) []float64          { return nil }
func nanosleepSlack(int) []float64         { return nil }
func nanosleepSlackLong(int) []float64     { return nil }
func nanosleepSlackLongBusy(int) []float64 { return nil }
func syscallCost(int) []float64            { return nil }
func pipeWrite(int) []float64              { return nil }
func netpollWake(int) []float64            { return nil }
func twoCPUs() (int, int)                  { return -1, -1 }
func pinToCPU(int)                         {}

// PackRounds measures Linux's placement of a woken thread (wakepack_linux.go).
func PackRounds(bool, time.Duration, PackDuty, int) ([]PackRound, float64, error) {
	return nil, 0, errors.New("measures Linux's scheduler, and runs on Linux only")
}
