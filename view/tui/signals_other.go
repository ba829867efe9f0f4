//go:build !unix

package tui

import (
	"os"
	"os/signal"
)

func notifyEnding(ch chan<- os.Signal) (stop func()) {
	signal.Notify(ch, os.Interrupt)
	return func() { signal.Stop(ch) }
}

// suspendSelf does nothing where there is no job control.
func suspendSelf() {}
