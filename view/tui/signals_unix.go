//go:build unix

package tui

import (
	"os"
	"os/signal"
	"syscall"
)

// endingSignals are the signals that end the program: the UI stops on
// them, so the terminal is restored (raw mode, the alternate screen, the
// cursor) before the process exits.
var endingSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT}

// signalName names the ending signals as kill -l does.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}

// notifyEnding delivers the ending signals on ch until stop is called.
func notifyEnding(ch chan<- os.Signal) (stop func()) {
	signal.Notify(ch, endingSignals...)
	return func() { signal.Stop(ch) }
}

// suspendSelf stops the process as a shell's ctrl-z would, the terminal
// given back while it is stopped; it returns when the shell continues it.
func suspendSelf() { _ = syscall.Kill(0, syscall.SIGTSTP) }
