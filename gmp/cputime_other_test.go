//go:build !unix

package gmp

import "time"

// cpuTime is not measured here; the benchmarks report 0 for it.
func cpuTime() time.Duration { return 0 }
