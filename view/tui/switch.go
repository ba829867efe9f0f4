package tui

import (
	"strings"

	"github.com/schedlab/schedlab/core/gofront"
	"github.com/schedlab/schedlab/core/sim"
)

// Switch is what the UI was asked to become when it stopped: another
// scenario (o), or the same one in the other view (v). The command that
// started the UI builds the new one and runs it on the same terminal.
type Switch struct {
	Scenario string // a built-in's name or a file
	Split    bool   // the split view of its pool's tasks, raw against pool
	// At is the simulated moment to open at (Options.StartAt): v keeps
	// the time it switches at.
	At sim.Time
}

// Next returns the switch asked for, or nil when the user quit.
func (a *App) Next() *Switch { return a.next }

// source is the name the scenario was opened by.
func (a *App) source() string {
	if a.opts.Source != "" {
		return a.opts.Source
	}
	return a.sess.Scenario().Name
}

// open switches to the scenario name, once it loads.
func (a *App) open(name string) {
	name = strings.TrimSpace(name)
	switch name {
	case "":
		a.message = "no scenario named: type a built-in (schedlab list) or a file"
		return
	case "-":
		a.message = "standard input is the terminal here: open a built-in or a file"
		return
	}
	if _, err := gofront.Load(name); err != nil {
		// The error's first line, and its did-you-mean as the command
		// line gives it (the list of built-ins is the picker's).
		msg, hint, _ := strings.Cut(err.Error(), "\n")
		if _, guess, ok := strings.Cut(hint, "did you mean "); ok {
			guess, _, _ = strings.Cut(guess, "?")
			msg += "; did you mean " + guess + "?"
		}
		a.message = msg
		return
	}
	a.next = &Switch{Scenario: name}
	a.quit()
}

// toggleView switches between the full view and the split view of the
// scenario's pool tasks, raw goroutines against the pool.
func (a *App) toggleView() {
	next, why := a.runs.other(a.source())
	if next == nil {
		a.message = why
		return
	}
	next.At = a.runs.now()
	a.next = next
	a.quit()
}
