package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The table is printed whole; a mode that ends in a way the scenario
// does not declare (here the semaphore mode: its nested acquire
// deadlocks where the nonblocking pool rejects) makes compare exit 1,
// saying which.
func TestCompareText(t *testing.T) {
	code, out, errOut := cli(t, "compare", "nested-nonblocking")
	if code != exitRun || !strings.Contains(errOut, "semaphore: ") || !strings.Contains(errOut, "deadlock") ||
		strings.Contains(errOut, "pool: ") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ls := lines(out)
	if !strings.HasPrefix(ls[0], "nested-nonblocking — ") || !strings.Contains(ls[0], "procs 2 · seed 1") {
		t.Errorf("title line %q", ls[0])
	}
	header := strings.Fields(ls[2])
	if strings.Join(header, " ") != "raw pool semaphore errgroup" {
		t.Errorf("header %q", ls[2])
	}
	for _, row := range []string{"makespan", "goroutines created", "peak live goroutines", "stack memory", "peak local queue",
		"peak global queue", "steals", "preemptions", "sched latency p50", "sched latency p99", "longest wait to run",
		"P idle while Gs wait", "worker reuse", "workers purged", "tasks rejected"} {
		if !strings.Contains(out, row) {
			t.Errorf("no %q row:\n%s", row, out)
		}
	}
}

func TestCompareJSONAndModes(t *testing.T) {
	code, out, errOut := cli(t, "compare", "burst", "--modes", "raw,pool", "--format", "json", "--procs", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Procs int `json:"procs"`
		Modes []struct {
			Mode           string `json:"mode"`
			Goroutines     int    `json:"goroutines"`
			PeakLive       int    `json:"peak_live"`
			WorkersStarted int    `json:"workers_started"`
		} `json:"modes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if rep.Procs != 2 || len(rep.Modes) != 2 || rep.Modes[0].Mode != "raw" || rep.Modes[1].Mode != "pool" {
		t.Fatalf("report %+v", rep)
	}
	// The pool of 8 never runs more than 8 workers, besides main.
	if p := rep.Modes[1]; p.PeakLive > 9 || p.WorkersStarted > 8 || rep.Modes[0].Goroutines != 10001 {
		t.Fatalf("report %+v", rep)
	}
}

func TestCompareErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "steal"}, "submits no tasks to a pool"},
		{[]string{"compare", "burst", "--modes", "raw,threads"}, `unknown mode "threads"`},
		{[]string{"compare", "burst", "--format", "csv"}, `unknown format "csv"`},
		{[]string{"compare", "burst", "--procs", "0"}, "--procs 0"},
		{[]string{"compare"}, "compare needs a scenario name or file"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

// A scenario that expects a deadlock passes check and run when it
// deadlocks, and fails both when it does not.
func TestExpectedDeadlock(t *testing.T) {
	code, out, errOut := cli(t, "check", "nested-submit")
	if code != exitOK || !strings.Contains(out, "deadlock at") || !strings.Contains(out, "as the scenario expects") {
		t.Fatalf("check: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "run", "nested-submit")
	if code != exitOK || !strings.Contains(out, "all goroutines are asleep") || !strings.Contains(out, "the scenario expects this deadlock") {
		t.Fatalf("run: exit %d:\n%s", code, out)
	}
	path := writeScenario(t, "x.yaml", "procs: 1\nexpect: deadlock\nmain: [{cpu: 1ms}]\n")
	code, _, errOut = cli(t, "check", path)
	if code != exitRun || !strings.Contains(errOut, "expects a deadlock, but the run ended with main returned") {
		t.Fatalf("check of a scenario that does not deadlock: exit %d, %q", code, errOut)
	}
	path = writeScenario(t, "y.yaml", "procs: 1\nexpect: hang\nmain: [{cpu: 1ms}]\n")
	code, _, errOut = cli(t, "check", path)
	if code != exitUsage || !strings.Contains(errOut, `y.yaml:2:9: unknown ending "hang"`) {
		t.Fatalf("check of expect: hang: exit %d, %q", code, errOut)
	}
}
