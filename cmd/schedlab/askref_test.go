package main

import (
	"strings"
	"testing"
)

// A question about a P or a goroutine the run cannot have is a mistake in
// the file: check and run --check both refuse it as one (exit 2), with the
// same message at the line and column of the name, and --procs, which
// changes how many Ps there are, is taken into account by both.
func TestAskAboutWhatCannotExist(t *testing.T) {
	for _, c := range []struct{ name, src, at, says string }{
		{"fact P", "procs: 1\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - cpu: 2ms\nask:\n  - on: go-create\n    answer: {next-on: P99}\n",
			":7:23: ", "next-on: P99 names a P the run does not have: with procs 1 it has only P0"},
		{"moment P", "procs: 2\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - cpu: 2ms\nask:\n  - on: {kind: go-create, p: P7}\n    answer: {next-on: P0}\n",
			":6:30: ", "p: P7 names a P the run does not have: with procs 2 it has P0 to P1"},
		{"fact G", "procs: 1\nmain:\n  - go: {count: 2, do: [{cpu: 1ms}]}\n  - wait: children\nask:\n  - on: go-create\n    answer: {where: G4}\n",
			":7:21: ", "where: G4 names a goroutine no run of this program has: its goroutines are at most G1 (main) to G3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeScenario(t, "ask.yaml", c.src)
			var msgs []string
			// Every command that runs the file refuses it alike, before
			// it runs anything (real and tui before building or drawing).
			for _, args := range [][]string{{"check", path}, {"run", "--check", path}, {"run", "--format", "none", path},
				{"compare", path}, {"export", path, "--format", "md"}, {"tui", path}, {"real", path}, {"verify", path}} {
				code, _, errOut := cli(t, args...)
				if code != 2 || !strings.Contains(errOut, path+c.at+c.says) {
					t.Errorf("%s: exit %d, want 2 and %q at %s\n%s", strings.Join(args, " "), code, c.says, c.at, errOut)
				}
				msgs = append(msgs, errOut)
			}
			if msgs[0] != msgs[1] {
				t.Errorf("check and run --check say different things:\n%s\n%s", msgs[0], msgs[1])
			}
		})
	}
	// With --procs 100 P99 exists: neither command refuses the file.
	path := writeScenario(t, "ask.yaml", "procs: 1\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - cpu: 2ms\nask:\n  - on: go-create\n    answer: {next-on: P99}\n")
	for _, args := range [][]string{{"check", "--procs", "100", path}, {"run", "--check", "--procs", "100", path}} {
		if code, _, errOut := cli(t, args...); code == 2 || strings.Contains(errOut, "does not have") {
			t.Errorf("%s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
	}
}
