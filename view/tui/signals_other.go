//go:build !unix

package tui

import (
	"os"
	"os/signal"
)

// signalName names a signal: where only the interrupt ends the UI, its
// own name.
func signalName(sig os.Signal) string {
	if sig == os.Interrupt {
		return "SIGINT"
	}
	return sig.String()
}

func notifyEnding(ch chan<- os.Signal) (stop func()) {
	signal.Notify(ch, os.Interrupt)
	return func() { signal.Stop(ch) }
}

// suspendSelf does nothing where there is no job control.
func suspendSelf() {}
