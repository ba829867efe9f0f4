package main

import (
	"os"
	"strings"
	"testing"
)

// README shows the output of these commands right after it names them;
// the output must be what the command prints today. (The UI's screens are
// held by tui's tests; bench measures this machine, so it is not held.)
func TestREADMEOutputs(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, args := range []string{
		"compare burst",
		"exercise runnext --seed 2 --answers",
		"compare steal --policies default,no-steal,steal-all,global-fifo",
		"exercise steal --seed 3 --format md --answers",
	} {
		mention := "`go run ./cmd/schedlab " + args + "`"
		at := strings.Index(readme, mention)
		if at < 0 {
			t.Errorf("README no longer shows %s", mention)
			continue
		}
		// A block of Markdown is fenced with four backticks, since it
		// holds fences of its own.
		rest := readme[at:]
		fence, opening := "```", "\n```\n"
		if strings.Contains(args, "--format md") {
			fence, opening = "````", "\n````markdown\n"
		}
		open := strings.Index(rest, opening)
		if open < 0 {
			t.Errorf("no block after %s", mention)
			continue
		}
		block := rest[open+len(opening):]
		block = block[:strings.Index(block, "\n"+fence+"\n")+1]
		code, out, errOut := cli(t, strings.Fields(args)...)
		if code != 0 {
			t.Errorf("%s: exit %d, %s", args, code, errOut)
			continue
		}
		if block != out {
			t.Errorf("README's output of %q is stale; it prints:\n%s", args, out)
		}
	}
}

// README shows docs/tour.svg, which must be what its command writes.
func TestREADMETimeline(t *testing.T) {
	want, err := os.ReadFile("../../docs/tour.svg")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "export", "tour", "--format", "svg")
	if code != 0 || out != string(want) {
		t.Errorf("docs/tour.svg is stale (exit %d, %s): go run ./cmd/schedlab export tour --format svg -o docs/tour.svg", code, errOut)
	}
}
