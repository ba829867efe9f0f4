package pool

import (
	"testing"
	"unsafe"
)

// A worker costs its record, a closure for its goroutine and a channel; ants
// spends 48+16+112 bytes on the same. This keeps the record from growing by
// accident.
func TestWorkerRecordFitsIn48Bytes(t *testing.T) {
	if n := unsafe.Sizeof(worker[func()]{}); n > 48 {
		t.Fatalf("worker record is %d bytes, want at most 48", n)
	}
	if n := unsafe.Sizeof(worker[struct{ a, b, c int }]{}); n > 48 {
		t.Fatalf("worker record depends on T: %d bytes", n)
	}
}
