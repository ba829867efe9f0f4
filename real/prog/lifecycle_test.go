//go:build linux

package prog_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/childproc"
	"github.com/schedlab/schedlab/real/prog"
)

// interruptWhenReady cancels the returned context once the child has said
// it is ready, and returns, on got, the PID it sent and its process group
// at that moment.
func interruptWhenReady(t *testing.T) (ctx context.Context, got <-chan [2]int) {
	ready := childproc.Ready(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch := make(chan [2]int, 1)
	go func() {
		pid, ok := <-ready
		if !ok {
			return
		}
		pgid, _ := syscall.Getpgid(pid)
		ch <- [2]int{pid, pgid}
		cancel()
	}()
	return ctx, ch
}

// readyChild is what interruptWhenReady sent, once the call it
// interrupted has returned.
func readyChild(t *testing.T, got <-chan [2]int, err error) (pid, pgid int) {
	t.Helper()
	select {
	case p := <-got:
		return p[0], p[1]
	default:
		t.Fatalf("returned before the child was ready: %v", err)
	}
	return 0, 0
}

// A run interrupted while its program runs (here, one that would never
// end) ends the program's whole process group and says it was
// interrupted.
func TestInterruptEndsTheProgramsProcessGroup(t *testing.T) {
	child := childproc.Build(t)
	t.Setenv("REALPROG_TEST_PROG", "block")
	ctx, got := interruptWhenReady(t)
	err := prog.Run(ctx, child, 1, filepath.Join(t.TempDir(), "run.trace"), prog.Limits{})
	pid, pgid := readyChild(t, got, err)
	if !errors.Is(err, prog.ErrInterrupted) {
		t.Errorf("Run returned %v, want an interruption", err)
	}
	if pgid != pid {
		t.Errorf("the program ran in process group %d, not in one of its own (%d): killing its group would kill schedlab's", pgid, pid)
	}
	if !childproc.GroupGone(pid) {
		t.Errorf("process group %d outlives the interrupted run", pid)
	}
}

// A build interrupted midway leaves nothing behind: not its temporary
// folder, not the toolchain's go-build folder, not the go command; and
// its error names no folder that is gone.
func TestInterruptedBuildLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	child := childproc.Build(t)
	program := translate(t, "procs: 1\nmain:\n  - cpu: 1ms\n")
	childproc.Go(t, child, "block-build", "")
	t.Setenv("TMPDIR", tmp)
	ctx, got := interruptWhenReady(t)
	s, err := prog.Prepare(ctx, program, prog.Options{})
	pid, _ := readyChild(t, got, err)
	if s != nil || !errors.Is(err, prog.ErrInterrupted) {
		t.Errorf("Prepare returned %v, want an interruption", err)
	}
	if err != nil && strings.Contains(err.Error(), tmp) {
		t.Errorf("the error names a temporary folder: %v", err)
	}
	if !childproc.GroupGone(pid) {
		t.Errorf("go build's process group %d outlives the interrupted build", pid)
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("the interrupted build left %s in the temporary folder", e.Name())
	}
}

// go env and go build stop at the timeout with all they started, and say
// which step took too long.
func TestGoStepsStopAtTheTimeout(t *testing.T) {
	child := childproc.Build(t)
	program := translate(t, "procs: 1\nmain:\n  - cpu: 1ms\n")

	childproc.Go(t, child, "block-env", "")
	ready := childproc.Ready(t)
	_, err := prog.Prepare(context.Background(), program, prog.Options{Limits: prog.Limits{Timeout: time.Millisecond}})
	if err == nil || !strings.Contains(err.Error(), "go env GOVERSION did not finish within --timeout") {
		t.Errorf("a go env that never ends: %v", err)
	}
	select {
	case pid := <-ready:
		if !childproc.GroupGone(pid) {
			t.Errorf("go env's process group %d outlives its timeout", pid)
		}
	default: // stopped before it was ready: nothing can be left
	}

	childproc.Go(t, child, "block-build", "")
	ready = childproc.Ready(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tc := prog.Toolchain{Path: goCmd, Version: runtime.Version()}
	if err := prog.Write(dir, program, tc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = prog.Build(ctx, tc, dir)
	if err == nil || !strings.Contains(err.Error(), "go build did not finish within --timeout") {
		t.Errorf("a go build that never ends: %v", err)
	}
	select {
	case pid := <-ready:
		if !childproc.GroupGone(pid) {
			t.Errorf("go build's process group %d outlives its timeout", pid)
		}
		// Its scratch folder is in the folder the caller removes.
		if m, _ := filepath.Glob(filepath.Join(dir, ".gotmp", "go-build*")); len(m) != 1 {
			t.Errorf("go build's scratch folder is not in the build's own folder: %q", m)
		}
	default:
	}
}

// A program that would take more memory than its bound is stopped by the
// kernel's limit, and the error names the flag.
func TestMemoryIsBounded(t *testing.T) {
	child := childproc.Build(t)
	t.Setenv("REALPROG_TEST_PROG", "hog")
	err := prog.Run(context.Background(), child, 1, filepath.Join(t.TempDir(), "run.trace"), prog.Limits{Memory: 64 << 20})
	if err == nil || !strings.Contains(err.Error(), "more memory than --max-memory allows (64.0 MiB)") {
		t.Errorf("a program that allocates 512 MiB under a 64 MiB bound: %v", err)
	}
	// Under 1 MiB the runtime cannot even start, and says so otherwise.
	t.Setenv("REALPROG_TEST_PROG", "block")
	err = prog.Run(context.Background(), child, 1, filepath.Join(t.TempDir(), "run.trace"), prog.Limits{Memory: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "more memory than --max-memory allows (1.0 MiB)") {
		t.Errorf("a program under a 1 MiB bound: %v", err)
	}
}

// A program whose trace would grow past its bound is refused, and the
// file stops at the bound.
func TestTraceIsBounded(t *testing.T) {
	child := childproc.Build(t)
	t.Setenv("REALPROG_TEST_PROG", "bigtrace")
	trace := filepath.Join(t.TempDir(), "run.trace")
	err := prog.Run(context.Background(), child, 1, trace, prog.Limits{Trace: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "trace reached 1.0 MiB, the most --max-trace allows") {
		t.Errorf("a program that writes a 64 MiB trace under a 1 MiB bound: %v", err)
	}
	if fi, err := os.Stat(trace); err != nil || fi.Size() > 1<<20 {
		t.Errorf("the trace file grew past its bound: %v, %v", fi.Size(), err)
	}
}

// An --emit folder that holds anything is refused before anything is
// built, naming the folder and --force; its files are left as they were.
func TestEmitRefusesAFolderInUse(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // nothing to build with, nor need of it
	dir := t.TempDir()
	keep := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(keep, []byte("module mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	program := translate(t, "procs: 1\nmain:\n  - cpu: 1ms\n")
	_, err := prog.Prepare(context.Background(), program, prog.Options{Emit: dir})
	if !errors.Is(err, prog.ErrEmitNotEmpty) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "--force") || !strings.Contains(err.Error(), `"go.mod"`) {
		t.Errorf("Prepare into a folder holding go.mod: %v", err)
	}
	if b, _ := os.ReadFile(keep); string(b) != "module mine\n" {
		t.Errorf("the refused folder's go.mod now reads %q", b)
	}
	// --force goes on, to the toolchain.
	_, err = prog.Prepare(context.Background(), program, prog.Options{Emit: dir, Force: true})
	if err == nil || errors.Is(err, prog.ErrEmitNotEmpty) {
		t.Errorf("with Force: %v, want the missing toolchain", err)
	}
}
