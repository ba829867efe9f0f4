//go:build linux

// Package childproc lets tests run real/prog/testdata/child, a stand-in for
// the go command and for a real program, and stop it where they choose:
// it builds the child, puts it on PATH as go, and gives the PID the child
// sends when it is ready, so that a test interrupts a build or a run at a
// point it controls instead of after a sleep.
package childproc

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// Build builds the child into a temporary folder of t's and returns its
// path. Call it before Go, which takes the real go command off PATH.
func Build(t testing.TB) string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("childproc: no source path")
	}
	src := filepath.Join(filepath.Dir(here), "..", "..", "real", "prog", "testdata", "child")
	bin := filepath.Join(t.TempDir(), "child")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the child: %v\n%s", err, out)
	}
	return bin
}

// Go makes child the only go on PATH, doing what mode says (see the
// child's REALPROG_TEST_GO), and has the programs it builds do what prog
// says (REALPROG_TEST_PROG).
func Go(t testing.TB, child, mode, prog string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(child, filepath.Join(dir, "go")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("REALPROG_TEST_GO", mode)
	t.Setenv("REALPROG_TEST_PROG", prog)
}

// Ready makes a FIFO the child writes its PID to when it is ready (see
// REALPROG_TEST_READY) and returns a channel that delivers that PID. The
// FIFO is opened for reading and writing, so that neither side waits for
// the other to open it, and closed when t ends.
func Ready(t testing.TB) <-chan int {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "ready")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	t.Setenv("REALPROG_TEST_READY", fifo)
	pids := make(chan int, 1)
	go func() {
		line, err := bufio.NewReader(f).ReadString('\n')
		if err != nil {
			return
		}
		pid, err := strconv.Atoi(line[:len(line)-1])
		if err == nil {
			pids <- pid
		}
	}()
	return pids
}

// GroupGone reports whether no process is left in process group pgid.
func GroupGone(pgid int) bool {
	return syscall.Kill(-pgid, 0) == syscall.ESRCH
}
