package cputime

import (
	"runtime"
	"testing"
)

// Work done between two readings shows in them, and they never go back.
func TestProcessGrowsWithWork(t *testing.T) {
	before, ok := Process()
	if !ok {
		t.Skip("CPU time cannot be read on " + runtime.GOOS)
	}
	sum := 0
	for {
		for i := range 1_000_000 {
			sum += i
		}
		if after, _ := Process(); after > before {
			break
		}
	}
	if after, _ := Process(); after < before {
		t.Errorf("CPU time went back from %v to %v", before, after)
	}
	_ = sum
}
