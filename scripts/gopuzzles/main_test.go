package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// A puzzle the front end reads runs both ways and gets a summary with its
// runs and load, each side's outputs and the verdict; one it refuses is
// named with the reason; a bad run count is a usage error. The Memory
// Model's channel example leaves the runtime no choice, so its verdict is
// checked.
func TestGoPuzzlesRun(t *testing.T) {
	bin := probetest.Build(t, "gopuzzles")
	dir := "../../core/gofront/testdata/puzzles/"
	text := strings.Join(probetest.Lines(t, bin, "-runs", "2", "-seeds", "2", dir+"memory-model-channel.go", dir+"pike-daisy-chain.go"), "\n")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^memory-model-channel\.go: procs 2, go1\.\S+, 2 real runs \(load .+ → .+\), model seeds 1-2 with noise$`),
		regexp.MustCompile(`(?m)^  real:       2× "hello, world"$`),
		regexp.MustCompile(`(?m)^  model cold: 2× "hello, world"$`),
		regexp.MustCompile(`(?m)^  commonest: .*: the same$`),
		regexp.MustCompile(`(?m)^pike-daisy-chain\.go: not read \(the front end refuses it: .*a printed value that depends on a value received`),
		regexp.MustCompile(`(?m)^1 of 1 puzzles read give`),
	} {
		if !want.MatchString(text) {
			t.Errorf("no line matching %s in:\n%s", want, text)
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}}, "usage:")
}
