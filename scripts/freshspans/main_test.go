package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// Two runs of 40 statements, quick but for 20µs at the 9th and every 16th
// after and 6µs at the 3rd and every 16th after, the 3rd itself 10µs:
// the analysis names both places, biggest first, and the first one's
// first gap alone.
func TestAnalyseFindsTheSpansPauses(t *testing.T) {
	gaps := func() []time.Duration {
		var g []time.Duration
		for n := 2; n <= 40; n++ {
			d := 300 * time.Nanosecond
			switch {
			case n == 3:
				d = 10 * time.Microsecond
			case (n-3)%span == 0:
				d = 6 * time.Microsecond
			case (n-9)%span == 0:
				d = 20 * time.Microsecond
			}
			g = append(g, d)
		}
		return g
	}
	got := analyse([][]time.Duration{gaps(), gaps()})
	for _, want := range []string{
		"2 traces, 78 go statements of main's after its first: a median 300ns apart",
		"a pause at statement 9 and every 16 after: median 20µs, p10 20µs, p90 20µs; statement 9 alone: median 20µs",
		"a pause at statement 3 and every 16 after: median 6µs, p10 6µs, p90 10µs; statement 3 alone: median 10µs (10µs-10µs)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, got)
		}
	}
	if i, j := strings.Index(got, "statement 9 and"), strings.Index(got, "statement 3 and"); i > j {
		t.Errorf("the biggest pause is not named first:\n%s", got)
	}
}

func TestAnalyseWithoutStatements(t *testing.T) {
	if got := analyse([][]time.Duration{nil}); !strings.Contains(got, "no go statements") {
		t.Errorf("got %q", got)
	}
}

// Read from a real trace, steal's (64 go statements of main's), the gaps
// are the 63 after main's first, and none is negative: main's go-creates
// come in order.
func TestMainsGapsFromATrace(t *testing.T) {
	gaps, err := mainsGaps("../../real/rtrace/testdata/cputime-steal.trace")
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 63 {
		t.Fatalf("%d gaps, want 63", len(gaps))
	}
	for i, g := range gaps {
		if g < 0 {
			t.Errorf("gap %d is %v", i, g)
		}
	}
	if _, err := mainsGaps("main.go"); err == nil {
		t.Error("a file that is no trace was read without an error")
	}
}

// Without one directory, or with one that holds no traces, the command
// says how to use it or what is missing, and fails.
func TestUsage(t *testing.T) {
	bin := probetest.Build(t, "freshspans")
	probetest.UsageErrors(t, bin, [][]string{{}, {"a", "b"}})
	out, err := exec.Command(bin, t.TempDir()).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no run-*.trace in") {
		t.Errorf("an empty directory: %v, %q", err, out)
	}
}
