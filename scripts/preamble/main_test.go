package main

import (
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// The patch keeps a generated program valid Go, references the runtime's
// start time after the program's imports, and prints the preamble as the
// scenario's first statement; a program without the places to patch is
// refused rather than measured wrong.
func TestPatch(t *testing.T) {
	sc, err := scenarios.Load("forever-cooperative")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	got, err := patch(p.Main)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", got, 0); err != nil {
		t.Fatalf("the patched program is not Go: %v\n%s", err, got)
	}
	src := string(got)
	for _, want := range []string{"//go:linkname runtimeInitTime runtime.runtimeInitTime", "func scenario() {\n\tprintln(\"" + marker + "\", nanotime()-runtimeInitTime)"} {
		if !strings.Contains(src, want) {
			t.Errorf("the patched program lacks %q", want)
		}
	}
	if _, err := patch([]byte("package main\n\nfunc main() {\n}\n")); err == nil || !strings.Contains(err.Error(), "scenario") {
		t.Errorf("a program without a scenario function: %v", err)
	}
}

// The probe runs as a user runs it: a line a run and a summary with a
// median and range in µs; a bad scenario or run count is a usage error.
func TestProbeRuns(t *testing.T) {
	bin := probetest.Build(t, "preamble")
	lines := probetest.Lines(t, bin, "-runs", "1", "forever-cooperative")
	summary := regexp.MustCompile(`^1 runs: median [0-9.e+]+, range [0-9.e+]+–[0-9.e+]+ \(µs\); load `)
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "run 1: ") || !summary.MatchString(lines[2]) {
		t.Fatalf("want a header, a run line and a summary, got:\n%s", strings.Join(lines, "\n"))
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0", "tour"}, {}}, "usage", "must be at least 1")
}
