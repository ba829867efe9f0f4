//go:build !unix

package cputime

import "time"

// Process is not measured off Unix: it reports that it could not read it.
func Process() (time.Duration, bool) { return 0, false }
