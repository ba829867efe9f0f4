package main

import (
	"os"
	"strings"
	"testing"
)

// The documents show the output of these commands right after they name
// them; the output must be what the command prints today. (The UI's
// screens are held by tui's tests; bench measures this machine, so it is
// not held.)
func TestDocsOutputs(t *testing.T) {
	for _, q := range []struct{ doc, args string }{
		{"docs/cli.md", "compare burst"},
		{"docs/guide.md", "exercise runnext --seed 2 --answers"},
		{"docs/scenarios.md", "compare steal --policies default,no-steal,steal-all,global-fifo"},
		{"docs/guide.md", "exercise steal --seed 3 --format md --answers"},
	} {
		data, err := os.ReadFile("../../" + q.doc)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(data)
		mention := "`go run ./cmd/schedlab " + q.args + "`"
		at := strings.Index(doc, mention)
		if at < 0 {
			t.Errorf("%s no longer shows %s", q.doc, mention)
			continue
		}
		// A block of Markdown is fenced with four backticks, since it
		// holds fences of its own.
		rest := doc[at:]
		fence, opening := "```", "\n```\n"
		if strings.Contains(q.args, "--format md") {
			fence, opening = "````", "\n````markdown\n"
		}
		open := strings.Index(rest, opening)
		if open < 0 {
			t.Errorf("%s: no block after %s", q.doc, mention)
			continue
		}
		block := rest[open+len(opening):]
		block = block[:strings.Index(block, "\n"+fence+"\n")+1]
		code, out, errOut := cli(t, strings.Fields(q.args)...)
		if code != 0 {
			t.Errorf("%s: exit %d, %s", q.args, code, errOut)
			continue
		}
		if block != out {
			t.Errorf("%s's output of %q is stale; it prints:\n%s", q.doc, q.args, out)
		}
	}
}

// docs/cli.md shows docs/tour.svg, which must be what its command writes.
func TestDocsTimeline(t *testing.T) {
	want, err := os.ReadFile("../../docs/tour.svg")
	if err != nil {
		t.Fatal(err)
	}
	cliDoc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	const command, image = "`go run ./cmd/schedlab export tour --format svg -o docs/tour.svg` gives:\n\n![", "](tour.svg)"
	if !strings.Contains(string(cliDoc), command) || !strings.Contains(string(cliDoc), image) {
		t.Errorf("docs/cli.md no longer shows tour.svg right after the command that writes it")
	}
	code, out, errOut := cli(t, "export", "tour", "--format", "svg")
	if code != 0 || out != string(want) {
		t.Errorf("docs/tour.svg is stale (exit %d, %s): go run ./cmd/schedlab export tour --format svg -o docs/tour.svg", code, errOut)
	}
}
