package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTUIUnderTmux runs the built binary in a real terminal (tmux): it
// starts the UI, steps, opens the help, and quits, reading the pane as a
// person would see it.
func TestTUIUnderTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it under tmux; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed, so the end-to-end UI test cannot run (.ci/run installs it)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "schedlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A server of our own, so the test never touches anyone's sessions.
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { tmux("kill-server") })
	// When the UI exits, the shell records its status and signals the
	// "done" channel.
	status := filepath.Join(dir, "status")
	cmd := fmt.Sprintf("TERM=xterm-256color %s tui steal 2>%s.err; echo $? > %s; tmux -S %s wait-for -S done",
		bin, status, status, sock)
	if out, err := tmux("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", cmd); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// Keep the pane, and so the server, after the UI exits, so that the
	// wait below still has a server to ask.
	if out, err := tmux("set-option", "-t", "e2e", "remain-on-exit", "on"); err != nil {
		t.Fatalf("tmux set-option: %v\n%s", err, out)
	}
	// waitFor polls the pane until it contains want.
	waitFor := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			pane, err := tmux("capture-pane", "-p", "-t", "e2e")
			if err == nil && strings.Contains(pane, want) {
				return pane
			}
			if time.Now().After(deadline) {
				t.Fatalf("the pane never showed %q; it shows:\n%s", want, pane)
			}
		}
	}
	// The status bar is the last row drawn: once it is there, so is the
	// rest of the first frame.
	waitFor("Work stealing")
	pane := waitFor("q quit")
	for _, want := range []string{"P0", "P1", "timeline", "events", "go-start", "G1 (main) starts on P0", "? help"} {
		if !strings.Contains(pane, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, pane)
		}
	}
	for range 5 {
		tmux("send-keys", "-t", "e2e", "l")
	}
	waitFor("event 6 ")
	tmux("send-keys", "-t", "e2e", "Left")
	waitFor("event 5 ")
	tmux("send-keys", "-t", "e2e", "?")
	waitFor("esc or ? closes")
	tmux("send-keys", "-t", "e2e", "Escape")
	tmux("send-keys", "-t", "e2e", "q")
	// Blocks until the UI has exited and the shell has signalled.
	if out, err := tmux("wait-for", "done"); err != nil {
		t.Fatalf("waiting for the UI to exit: %v\n%s", err, out)
	}
	code, _ := os.ReadFile(status)
	stderr, _ := os.ReadFile(status + ".err")
	if strings.TrimSpace(string(code)) != "0" || len(stderr) != 0 {
		t.Fatalf("the UI exited with status %q and stderr %q", code, stderr)
	}
}
