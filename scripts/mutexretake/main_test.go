package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// The command runs the workload as its own processes and prints the load
// before and after, a line per run and a summary with a median and a
// range; a bad argument is a usage error. The figures depend on the
// machine and are not checked.
func TestMeasures(t *testing.T) {
	bin := probetest.Build(t, "mutexretake")
	lines := probetest.Lines(t, bin, "-runs", "2")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^load before: `),
		regexp.MustCompile(`^run 1: \d+ of 799 acquisitions by the previous holder \([0-9.]+%\) in `),
		regexp.MustCompile(`^run 2: \d+ of 799 acquisitions`),
		regexp.MustCompile(`^load after: `),
		regexp.MustCompile(`^re-takes by the previous holder \(%\), 2 runs: median [0-9.]+, range [0-9.]+–[0-9.]+$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"extra"}})

	// -detail adds the contended stretch to each run's line.
	lines = probetest.Lines(t, bin, "-runs", "1", "-detail")
	re := regexp.MustCompile(`^run 1: \d+ of 799 .*; while all contend: \d+ of \d+ \([0-9.]+%\), streaks \[[0-9@.ms ]*\]$`)
	if len(lines) < 2 || !re.MatchString(lines[1]) {
		t.Errorf("with -detail, got:\n%s", strings.Join(lines, "\n"))
	}
}

// contended counts the re-takes up to the first goroutine's last round
// and lists the streaks of that stretch where they began.
func TestContended(t *testing.T) {
	ms := func(i int) time.Duration { return time.Duration(i) * time.Millisecond }
	// Goroutine 1 takes it three times, 2 once, 1 twice, then 3's
	// hundred rounds end the stretch; what comes after is left out.
	var holders []int
	var at []time.Duration
	for i, h := range []int{1, 1, 1, 2, 1, 1} {
		holders, at = append(holders, h), append(at, ms(i))
	}
	for range rounds {
		holders, at = append(holders, 3), append(at, ms(len(at)))
	}
	holders, at = append(holders, 3, 3), append(at, ms(len(at)), ms(len(at)+1))
	got := contended(holders, at)
	want := "while all contend: 102 of 105 (97.1%), streaks [3@0.00ms 2@4.00ms 100@6.00ms]"
	if got != want {
		t.Errorf("contended = %q, want %q", got, want)
	}
	if got := contended(nil, nil); got != "while all contend: 0 of 0 (0.0%), streaks []" {
		t.Errorf("contended of nothing = %q", got)
	}
}
