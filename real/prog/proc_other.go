//go:build !linux

package prog

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// Off Linux, a cancelled run kills the process it started (go build's
// own children are left to it) and the program's memory is not bounded:
// the process groups, waitid's WNOWAIT and RLIMIT_DATA that proc_linux.go
// relies on are Linux's. The trace bound is kept by watching the file.

func runGroup(ctx context.Context, cmd *exec.Cmd, over func() bool) error {
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	done, tick := ctx.Done(), (<-chan time.Time)(nil)
	if over != nil {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case err := <-waited:
			return err
		case <-done:
			_ = cmd.Process.Kill()
			done, tick = nil, nil // once is enough: wait for the exit
		case <-tick:
			if over() {
				_ = cmd.Process.Kill()
				done, tick = nil, nil
			}
		}
	}
}

func limitedCommand(_ Limits, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	return cmd
}

// BecomeBoundedProgram does nothing off Linux, where no copy of the
// executable sets bounds (see proc_linux.go).
func BecomeBoundedProgram() {}
