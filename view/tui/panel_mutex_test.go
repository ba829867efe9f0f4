package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The pools panel gives each mutex a row: who holds it, its mode, who
// spins and who waits in line, read from the model at the cursor.
func TestMutexRowShowsHolderModeAndQueue(t *testing.T) {
	a := newApp(t, "mutex-starvation", false)
	row := func() string {
		t.Helper()
		for _, line := range strings.Split(draw(t, a, 160, 48).text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "mu mutex") {
				return line
			}
		}
		t.Fatalf("no row for mutex mu:\n%s", draw(t, a, 160, 48).text)
		return ""
	}
	// Step until the row shows each state the scenario teaches: G2,
	// woken, loses to G4 and goes back to the front of the line; then G2
	// has waited over 1ms and the mutex starves.
	stepUntil := func(what string, ok func(string) bool) {
		t.Helper()
		for range 400 {
			if ok(row()) {
				return
			}
			key(a, tcell.KeyRight, 0)
		}
		t.Fatalf("the row never showed %s; it reads %q", what, row())
	}
	stepUntil("normal mode with G2 back at the front", func(r string) bool {
		return strings.Contains(r, "held by G4") && strings.Contains(r, "normal") && strings.Contains(r, "2 waiting, next first: G2 G3")
	})
	stepUntil("starvation mode", func(r string) bool {
		return strings.Contains(r, "starving") && strings.Contains(r, "next first: G2 G3")
	})
}

// A wait group's row shows its counter and who waits on it.
func TestWaitGroupRowShowsCounterAndWaiters(t *testing.T) {
	a := newApp(t, "waitgroup-fanout", false)
	keys(a, "]") // main's Wait
	key(a, tcell.KeyRight, 0)
	var got string
	for _, line := range strings.Split(draw(t, a, 160, 48).text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "wg wait group") {
			got = line
		}
	}
	if !strings.Contains(got, "counter 8") || !strings.Contains(got, "1 waiting: G1") {
		t.Errorf("the wait group's row reads %q", got)
	}
}

// An object of a kind gmp registers gets its row from the registry: a
// cond's shows its type, its waiters in its kind's words, and who they
// are. Stepped to where both goroutines wait on it, before the deadlock.
func TestObjectRowShowsKindStateAndWaiters(t *testing.T) {
	a := appFor(t, "procs: 1\nmutexes: [mu]\nconds: {ready: mu}\nmain:\n"+
		"  - go: {count: 1, do: [{lock: mu}, {cwait: ready}]}\n  - lock: mu\n  - cwait: ready\n")
	var got string
	for range 40 {
		for _, line := range strings.Split(draw(t, a, 160, 48).text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "ready sync.Cond") {
				got = line
			}
		}
		if strings.Contains(got, "2 waiting") {
			break
		}
		key(a, tcell.KeyRight, 0)
	}
	if !strings.Contains(got, "2 waiting: G1 G2") {
		t.Errorf("the cond's row reads %q\n%s", got, draw(t, a, 160, 48).text)
	}
	// The panel's title names every registered kind, from the registry.
	if text := draw(t, a, 200, 48).text; !strings.Contains(text, "sync.Cond: what it holds and who waits") {
		t.Errorf("the sync panel's title does not name sync.Cond:\n%s", text)
	}
}
