package gmp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func parse(t *testing.T, src string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Parse("limits.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// A run whose steps emit no events still ends, on the step limit, and the
// message names the line it kept running and what to do.
func TestStepLimit(t *testing.T) {
	for _, c := range []struct{ name, src, line string }{
		{"a billion cpu actions", "procs: 1\nmax_events: 1000\nmain:\n  - loop: {times: 1000000000, do: [{cpu: 1us}]}\n", "limits.yaml:4:37"},
		{"zero-time loops under until", "procs: 1\nuntil: 1ms\nmax_events: 1000\nmain:\n  - loop:\n      times: 100000\n      do:\n        - loop: {times: 100000, do: [{cpu: 0s}]}\n", "limits.yaml:8:39"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := parse(t, c.src)
			m, err := gmp.New(sc.Config(), sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			end := m.Run()
			if end.Reason != gmp.EventLimit || end.Err == nil {
				t.Fatalf("ended %v (%v)", end.Reason, end.Err)
			}
			msg := end.Err.Error()
			for _, want := range []string{"stopped after 4000 steps", "cpu at " + c.line, "--max-events"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}

// A checked run of many goroutines is swept only every so often, yet a
// state broken in the middle of the run is still caught, and the last
// state is always swept.
func TestSpacedSweepsStillCatchABrokenState(t *testing.T) {
	sc := parse(t, "procs: 4\nmain:\n  - go: {count: 2000, do: [{cpu: 10us}]}\n  - wait: children\n")
	cfg := sc.Config()
	cfg.Check = true
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		if !m.Step() {
			t.Fatal("the run ended early")
		}
	}
	m.BreakForTest()
	end := m.Run()
	if end.Reason != gmp.Invariant || !strings.Contains(end.Err.Error(), "npidle") {
		t.Fatalf("a broken idle count went unnoticed: ended %v (%v)", end.Reason, end.Err)
	}
}

// A run that reaches a century of simulated time ends with its own reason,
// not the event limit's: it is the model's clock that ran out, and raising
// --max-events would not help. This is the real horizon: about 105 million
// sysmon wake-ups (a deep sleep lasts a minute at most), a few seconds.
func TestCenturyLimitIsItsOwnEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a century of sysmon wake-ups takes seconds")
	}
	sc := parse(t, "procs: 1\nmax_events: 200000000\nmain:\n  - loop: {times: 200, do: [{sleep: 8760h}]}\n")
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	end := m.Run()
	if end.Reason != gmp.CenturyLimit || end.Err == nil {
		t.Fatalf("ended %v (%v), want %v", end.Reason, end.Err, gmp.CenturyLimit)
	}
	if m.Now().D() < gmp.MaxSimTime-time.Minute || m.Emitted() >= 200000000 {
		t.Errorf("ended at %v after %d events: not at the century", m.Now(), m.Emitted())
	}
	if got := end.Reason.String(); got != "century limit" {
		t.Errorf("the end reason reads %q", got)
	}
	if msg := end.Err.Error(); !strings.Contains(msg, "century") || !strings.Contains(msg, "limits.yaml:4:") {
		t.Errorf("message %q does not name the century and the line", msg)
	}
}
