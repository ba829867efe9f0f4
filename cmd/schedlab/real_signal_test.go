//go:build linux

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/schedlab/schedlab/internal/childproc"
)

// TestSignalsEndTheRealRun delivers each signal that ends schedlab to this
// very process while real (or verify) runs a program that never ends, once
// the program has said it is running: the command ends the program's
// process group, removes its temporary folder, and says it was
// interrupted, naming no folder.
func TestSignalsEndTheRealRun(t *testing.T) {
	child := childproc.Build(t)
	file := writeScenario(t, "two.yaml", "procs: 2\nmain:\n  - go: {count: 2, do: [{cpu: 200us}]}\n  - wait: children\n")
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		says string
	}{
		{syscall.SIGTERM, []string{"real", file}, "interrupted (terminated signal received)"},
		{syscall.SIGHUP, []string{"real", file}, "interrupted (hangup signal received)"},
		{syscall.SIGINT, []string{"real", file}, "interrupted (interrupt signal received)"},
		{syscall.SIGTERM, []string{"verify", file, "--runs", "1", "--seeds", "1"}, "interrupted (terminated signal received)"},
	} {
		t.Run(c.args[0]+"-"+c.sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			childproc.Go(t, child, "ok", "block")
			t.Setenv("TMPDIR", tmp)
			ready := childproc.Ready(t)
			sent := make(chan int, 1)
			go func() {
				pid, ok := <-ready
				if !ok {
					return
				}
				sent <- pid
				syscall.Kill(os.Getpid(), c.sig)
			}()
			code, _, errOut := cli(t, c.args...)
			var pid int
			select {
			case pid = <-sent:
			default:
				t.Fatalf("%q ended before its program ran: exit %d, %s", c.args, code, errOut)
			}
			if code != exitRun || !strings.Contains(errOut, c.says) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitRun, c.says)
			}
			if strings.Contains(errOut, tmp) {
				t.Errorf("the error names a temporary folder: %s", errOut)
			}
			if !childproc.GroupGone(pid) {
				t.Errorf("the program's process group %d outlives the signal", pid)
			}
			left, _ := os.ReadDir(tmp)
			for _, e := range left {
				t.Errorf("%s is left in the temporary folder", e.Name())
			}
		})
	}
}
