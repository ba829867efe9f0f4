package prog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// Every process package prog starts (go env, go build, the program) leads a
// process group of its own, and the whole group is killed when the run is
// cancelled: go build's compilers and linker are its children, and a
// killed go command would leave them running. The leader is waited for
// with WNOWAIT first, so that it stays a zombie while its group is
// killed: its process ID, which is the group's ID, cannot be given to
// another process before it is reaped, and no signal reaches a stranger.

// pPID is waitid's idtype for one process ID (P_PID in <sys/wait.h>).
const pPID = 1

// runGroup runs cmd as the leader of a new process group until it exits,
// ctx ends, or over (if set, asked every watchEvery) says it has gone too
// far; in the last two cases the whole group is killed. Any member left
// when the leader has exited is killed too. It returns cmd.Wait's error.
func runGroup(ctx context.Context, cmd *exec.Cmd, over func() bool) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A process that left the group (setsid) could hold the output pipe
	// open: Wait stops copying from it after this long.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() {
		waitExited(pgid)
		close(exited)
	}()
	done, tick := ctx.Done(), (<-chan time.Time)(nil)
	if over != nil {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		tick = t.C
	}
wait:
	for {
		select {
		case <-exited:
			break wait
		case <-done:
			killGroup(pgid)
			done, tick = nil, nil // once is enough: wait for the exit
		case <-tick:
			if over() {
				killGroup(pgid)
				done, tick = nil, nil
			}
		}
	}
	killGroup(pgid)
	return cmd.Wait()
}

// waitExited returns when process pid has exited, without reaping it.
func waitExited(pid int) {
	var info [128]byte // siginfo_t, which this call need not read
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return
		}
	}
}

func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// limitsEnv carries a program's bounds to the copy of this executable
// that sets them and then becomes the program (see BecomeBoundedProgram).
const limitsEnv = "SCHEDLAB_REALPROG_LIMITS"

// limitedCommand is the command that runs bin with args under the
// memory and trace bounds of l. Go's exec has no hook between fork and
// exec, so the child is this very executable (/proc/self/exe, which holds
// even if the file has been replaced since), whose main calls
// BecomeBoundedProgram: it sets the limits with setrlimit and then
// executes bin in its place: the limits hold from
// the program's first instruction, enforced by the kernel.
//
// The memory bound is RLIMIT_DATA, the process's private writable
// memory: a Go program reserves far more address space than it uses
// (RLIMIT_AS would stop it at start-up), and reading its resident size
// from /proc now and then would let a quick allocation through between
// two looks. A program over the bound fails to map memory and the runtime
// stops it ("fatal error: runtime: out of memory"). The trace bound is
// RLIMIT_FSIZE: a write past it fails, so the file never grows past it.
func limitedCommand(l Limits, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = append([]string{bin}, args...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=data=%d,fsize=%d", limitsEnv, l.Memory, l.Trace))
	return cmd
}

// BecomeBoundedProgram returns at once unless this process is the copy
// of the executable that limitedCommand started; that copy sets the
// bounds and becomes the program, and never returns. A main that runs
// real programs (schedlab's, and the test binaries of packages that do)
// calls it first thing; nothing happens at import.
func BecomeBoundedProgram() {
	if v, ok := os.LookupEnv(limitsEnv); ok {
		os.Exit(execLimited(v))
	}
}

// execLimited sets the limits v names on this process and executes
// os.Args[0] with os.Args in its place; it returns only on failure, with
// the exit status to end with. Nothing runs unbounded: a limit that
// cannot be set ends here.
func execLimited(v string) int {
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "schedlab: cannot run the program within its bounds: %v\n", err)
		return 127
	}
	os.Unsetenv(limitsEnv)
	// limitedCommand names the program by its full path; anything else
	// is not its call.
	if !filepath.IsAbs(os.Args[0]) {
		return fail(fmt.Errorf("%q is not a full path", os.Args[0]))
	}
	limits := map[string]int{"data": syscall.RLIMIT_DATA, "fsize": syscall.RLIMIT_FSIZE}
	set := map[int]uint64{}
	for _, kv := range strings.Split(v, ",") {
		k, n, _ := strings.Cut(kv, "=")
		res, known := limits[k]
		bytes, err := strconv.ParseUint(n, 10, 64)
		if !known || err != nil || bytes == 0 {
			return fail(fmt.Errorf("%s=%q: want data=BYTES,fsize=BYTES", limitsEnv, v))
		}
		set[res] = bytes
	}
	if len(set) != len(limits) {
		return fail(fmt.Errorf("%s=%q: want data=BYTES,fsize=BYTES", limitsEnv, v))
	}
	for res, bytes := range set {
		// A tighter limit the user set already stays: raising a hard
		// limit is not this process's to do.
		var have syscall.Rlimit
		if err := syscall.Getrlimit(res, &have); err != nil {
			return fail(err)
		}
		bytes = min(bytes, have.Max)
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: bytes, Max: bytes}); err != nil {
			return fail(err)
		}
	}
	return fail(syscall.Exec(os.Args[0], os.Args, os.Environ()))
}
