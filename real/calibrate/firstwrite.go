package calibrate

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/trace"
	"slices"
	"strings"
	"time"
)

// first_write and traced_first_write, format 7's figures: what a
// program's first write to its standard output costs more than its later
// ones, untraced and while runtime/trace records. A program schedlab real
// runs writes its lines to a pipe that its parent reads (os/exec's copying
// goroutine, parked in the network poller between lines), and its first
// write finds the pipe, the parent's wake-up and, traced, the tracer's
// first system call event all cold. On the project's machine, in fresh
// processes that compute 2ms before each of six writes, the first write
// took 11µs (median; 5-27µs p10-p90) against 8µs for the later ones
// untraced, and 15µs (5-62µs) against 8µs traced; a traced run of
// forever-cooperative spends 11-30µs in its one write. pipe_write is a
// later write's cost; these are what the first adds.

const (
	// firstWriteLines is how many lines each copy writes: the first, and
	// the later ones whose median it is compared with.
	firstWriteLines = 6
	// firstWriteIdle is how long a copy computes before each write: the
	// parent's reader has long gone back to sleep, as it has between a
	// scenario's lines (a write a few microseconds after another finds
	// it still awake and takes under a microsecond).
	firstWriteIdle = 2 * time.Millisecond
	// firstWriteCopies is how many fresh copies of the program each
	// figure takes, one sample each.
	firstWriteCopies = 20
	// firstWriteLine is what each copy writes.
	firstWriteLine = "schedlab\n"
)

// firstWriteEnv marks a copy of the program that firstWrites started: its
// value says whether the copy traces ("traced") or not ("untraced").
const firstWriteEnv = "SCHEDLAB_CALIBRATE_FIRST_WRITE"

// firstWrites measures both figures, copies copies each, the traced and
// the untraced copies taking turns.
func firstWrites(ctx context.Context, copies int) (untraced, traced []float64, err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("first_write runs a copy of this program: %w", err)
	}
	for range min(copies, firstWriteCopies) {
		for _, tr := range []bool{false, true} {
			extra, err := childFirstWrite(ctx, exe, tr)
			if err != nil {
				return nil, nil, fmt.Errorf("first_write: %w", err)
			}
			if tr {
				traced = append(traced, extra)
			} else {
				untraced = append(untraced, extra)
			}
		}
	}
	return untraced, traced, nil
}

// childFirstWrite runs a copy of the program exe that writes its lines,
// reads them from its standard output as schedlab real reads a program's,
// and returns what its first write took more than the median of its
// later ones.
func childFirstWrite(ctx context.Context, exe string, traced bool) (float64, error) {
	mode := "untraced"
	if traced {
		mode = "traced"
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), firstWriteEnv+"="+mode)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, fmt.Errorf("%v %s", err, quote(strings.TrimSpace(stderr.String())))
	}
	if want := strings.Repeat(firstWriteLine, firstWriteLines); stdout.String() != want {
		return 0, fmt.Errorf("the copy of the program wrote %q, want %q", quote(stdout.String()), want)
	}
	writes, err := parseStarts([]byte(stderr.String()), firstWriteLines)
	if err != nil {
		return 0, err
	}
	later := slices.Clone(writes[1:])
	slices.Sort(later)
	return writes[0] - Quantile(later, 0.5), nil
}

// firstWriteChild, in a copy of the program firstWrites started, writes
// its lines to standard output, each after computing firstWriteIdle, and
// the time of each write in nanoseconds, a line each, to standard error.
func firstWriteChild(mode string, stdout *os.File, stderr io.Writer) int {
	if mode != "traced" && mode != "untraced" {
		fmt.Fprintf(stderr, "%s=%q: want traced or untraced\n", firstWriteEnv, quote(mode))
		return 2
	}
	runtime.GOMAXPROCS(1)
	if mode == "traced" {
		if err := trace.Start(io.Discard); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	line := []byte(firstWriteLine)
	var times [firstWriteLines]time.Duration
	for i := range times {
		runtime.KeepAlive(computeFor(firstWriteIdle))
		t0 := time.Now()
		_, err := stdout.Write(line)
		times[i] = time.Since(t0)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if mode == "traced" {
		trace.Stop()
	}
	for _, d := range times {
		fmt.Fprintln(stderr, d.Nanoseconds())
	}
	return 0
}
