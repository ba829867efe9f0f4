package main

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/real/rtrace"
)

// The trace holds every goroutine's creation, and those that blocked
// woken.
func TestTheTraceHasEveryGoroutine(t *testing.T) {
	const n = 2500
	var buf bytes.Buffer
	if err := traced(&buf, n); err != nil {
		t.Skipf("cannot trace here: %v", err)
	}
	sum, err := rtrace.Read(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Goroutines < n || sum.Kinds["go-unblock"] < n/2 || sum.Kinds["go-exit"] < n {
		t.Errorf("%d goroutines created, %d woken, %d exited; want at least %d, %d, %d",
			sum.Goroutines, sum.Kinds["go-unblock"], sum.Kinds["go-exit"], n, n/2, n)
	}
}
