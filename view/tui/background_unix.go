//go:build unix

package tui

import (
	"os"
	"time"

	"golang.org/x/term"
)

// askBackground asks the controlling terminal for its background, in raw
// mode so that the answer is neither echoed nor held for a line, and
// gives the terminal back as it was.
func askBackground(wait time.Duration) (light, known bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false, false
	}
	defer tty.Close()
	// The descriptor is reached through SyscallConn, not Fd, which would
	// put the file in blocking mode and so void its read deadline.
	conn, err := tty.SyscallConn()
	if err != nil {
		return false, false
	}
	var state *term.State
	var rawErr error
	if err := conn.Control(func(fd uintptr) { state, rawErr = term.MakeRaw(int(fd)) }); err != nil || rawErr != nil {
		return false, false
	}
	defer conn.Control(func(fd uintptr) { _ = term.Restore(int(fd), state) })
	return query(tty, wait)
}
