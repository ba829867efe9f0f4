//go:build !unix

package pool_test

import "time"

// processCPUTime is not measured off Unix; the benchmarks then report no
// cpu-ns/op.
func processCPUTime() (time.Duration, bool) { return 0, false }
