//go:build linux

package main

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/scripts/internal/probetest"
)

// The share counts the rounds on the waker's CPU; the line gives the
// waits on each side, the middle one of an even count being the upper.
func TestSummarize(t *testing.T) {
	us := time.Microsecond
	share, line := summarize([]calibrate.PackRound{{Packed: true, Wait: 3 * us}, {Packed: false, Wait: 40 * us}, {Packed: true, Wait: 5 * us}, {Packed: false, Wait: 20 * us}, {Packed: false, Wait: 30 * us}}, -1)
	want := "5 rounds: 2 on the waker's CPU (wait median 5µs, max 5µs), 3 elsewhere (median 30µs)"
	if share != 40 || line != want {
		t.Errorf("got %v%% and %q, want 40%% and %q", share, line, want)
	}
	share, line = summarize([]calibrate.PackRound{{Packed: false, Wait: 9 * us}}, 46.4)
	if want := "1 rounds: 0 on the waker's CPU (wait median -, max -), 1 elsewhere (median 9µs); the waker computed 46% of the run"; share != 0 || line != want {
		t.Errorf("got %v%% and %q, want 0%% and %q", share, line, want)
	}
}

// A series prints the load, a line per run and a summary; where the kernel
// puts the thread depends on the machine and is not checked. Bad flags are
// usage errors.
func TestSeriesRuns(t *testing.T) {
	bin := probetest.Build(t, "vcpupack")
	if runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs")
	}
	lines := probetest.Lines(t, bin, "-runs", "2", "-rounds", "5", "-prev", "other", "-sleep", "200us")
	run := regexp.MustCompile(`^run [12]: 5 rounds: \d on the waker's CPU \(wait median \S+, max \S+\), \d elsewhere \(median \S+\)$`)
	if len(lines) != 5 || !run.MatchString(lines[1]) || !run.MatchString(lines[2]) ||
		!strings.HasPrefix(lines[4], "woken on the waker's CPU (%, the sleeper on another CPU before, asleep 200µs), 2 runs: median ") {
		t.Fatalf("want the load, two run lines, the load and a summary, got:\n%s", strings.Join(lines, "\n"))
	}
	lines = probetest.Lines(t, bin, "-runs", "1", "-rounds", "3", "-sleep", "2ms", "-busy", "50")
	computed := regexp.MustCompile(`^run 1: 3 rounds: .*; the waker computed \d+% of the run$`)
	if len(lines) != 4 || !computed.MatchString(lines[1]) || !strings.Contains(lines[3], "asleep 2ms, the waker computing 50% of each millisecond), 1 runs: ") {
		t.Fatalf("want the waker's share computed in the run's line and the summary, got:\n%s", strings.Join(lines, "\n"))
	}
	lines = probetest.Lines(t, bin, "-runs", "1", "-rounds", "2", "-prev", "other", "-sleep", "1ms", "-busy", "30", "-period", "4ms", "-settle", "0s")
	if len(lines) != 4 || !computed.MatchString(strings.Replace(lines[1], "2 rounds", "3 rounds", 1)) ||
		!strings.Contains(lines[3], "asleep 1ms, the waker computing 30% of each 4ms, for 0s before the first round), 1 runs: ") {
		t.Fatalf("want the waker's period and settling time in the summary, got:\n%s", strings.Join(lines, "\n"))
	}
	probetest.UsageErrors(t, bin, [][]string{{"-runs", "0"}, {"-rounds", "0"}, {"-sleep", "2s"}, {"-prev", "mine"}, {"-busy", "5"}, {"-busy", "101"},
		{"-period", "50us"}, {"-period", "2s"}, {"-settle", "-1s"}, {"-settle", "11s"}, {"extra"}}, "usage", "must be")
}
