package main

import (
	"strings"
	"testing"
)

// FuzzCLI runs the headless commands with arbitrary arguments: whatever
// they are, the command ends with status 0, 1 or 2, and an error is said
// on stderr, in a line that starts with "schedlab: ".
func FuzzCLI(f *testing.F) {
	for _, seed := range []string{
		"steal", "steal --seed 7 --procs 3", "tour --format jsonl", "steal --until 0s", "steal --policy no-stael",
		"nosuch", "- --max-events 0", "burst --modes raw,pool", "steal --policies default,no-steal",
		"runnext --seed 3 --answers --format md", "--bogus", "steal --max-events 50", "--policies",
	} {
		for _, cmd := range []string{"run", "check", "compare", "exercise", "list"} {
			f.Add(cmd, seed)
		}
	}
	f.Fuzz(func(t *testing.T, cmd, args string) {
		switch cmd {
		case "run", "check", "compare", "exercise", "list":
		default:
			return // bench measures the machine and tui needs a terminal
		}
		argv := append([]string{cmd}, strings.Fields(args)...)
		// Keep each run short: the model's limits are what is fuzzed,
		// not the machine's patience.
		if cmd != "list" && cmd != "exercise" {
			argv = append(argv, "--max-events", "20000")
		}
		old := stdin
		stdin = strings.NewReader(args)
		defer func() { stdin = old }()
		code, _, errOut := cli(t, argv...)
		if code < 0 || code > 2 {
			t.Fatalf("%q: exit %d", argv, code)
		}
		if code != 0 && !strings.HasPrefix(errOut, "schedlab: ") {
			t.Fatalf("%q: exit %d with stderr %q", argv, code, errOut)
		}
	})
}
