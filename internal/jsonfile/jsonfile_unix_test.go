//go:build unix

package jsonfile

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe is refused, not opened: opening one waits for a writer,
// and a recording or a profile anyone may name must not hang verify (a
// ReadFile that opened it would hang this test until go test's timeout).
func TestReadFileRefusesANamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tour.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if _, err := ReadFile(path, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a named pipe read as %v", err)
	}
}
