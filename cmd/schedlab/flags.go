package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/gmp"
)

// The simulation's flags, as run, compare and tui read them. --seed is a
// string so that its error can quote what was typed.

// parseSeed reads a --seed value.
func parseSeed(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > math.MaxInt64 {
		return 0, usageError{fmt.Errorf("--seed %q: want a whole number from 0 to %d", s, int64(math.MaxInt64))}
	}
	return v, nil
}

// checkProcs checks a --procs value that was given.
func checkProcs(procs int) error {
	if procs < 1 || procs > gmp.MaxProcs {
		return usageError{fmt.Errorf("--procs %d: want 1 to %d", procs, gmp.MaxProcs)}
	}
	return nil
}
