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
	"strconv"
	"strings"
	"time"
)

// first_write and traced_first_write, format 7's figures, and first_print
// and traced_first_print, format 10's: what a program's first line costs
// more than its later ones, untraced and while runtime/trace records,
// before its write (fmt formatting it) and in it. A program schedlab real
// runs prints its lines with fmt.Println to a pipe that its parent reads
// (os/exec's copying goroutine, parked in the network poller between
// lines). Its first print finds fmt's code and data cold (paged in, its
// printer allocated); its first write finds the pipe, the parent's
// wake-up and, traced, the tracer's first system call event all cold. On
// the project's machine, in fresh processes that compute 2ms before each
// of six writes, the first write took 11µs (median; 5-27µs p10-p90)
// against 8µs for the later ones untraced, and 15µs (5-62µs) against 8µs
// traced; a traced run of forever-cooperative spends 11-30µs in its one
// write. In five traced runs of print-order-2p on the Intel Xeon, main
// ran 7-24µs (median 18µs) from its last go statement to its first
// print's write, where a later print ran about 1µs before its write; the
// model's default FirstPrint is 5µs.
// pipe_write is a later write's cost; these are what the first adds.

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
	// firstWriteLine is what each copy prints, a line at a time.
	firstWriteLine = "schedlab"
)

// firstWriteEnv marks a copy of the program that firstLines started: its
// value says whether the copy traces ("traced") or not ("untraced").
const firstWriteEnv = "SCHEDLAB_CALIBRATE_FIRST_WRITE"

// firstLineExtras are what a program's first line costs more than its
// later ones, one sample a copy: print before the write, write in it.
type firstLineExtras struct {
	print, write []float64
}

// firstLines measures the four figures, copies copies each, the traced
// and the untraced copies taking turns.
func firstLines(ctx context.Context, copies int) (untraced, traced firstLineExtras, err error) {
	exe, err := os.Executable()
	if err != nil {
		return untraced, traced, fmt.Errorf("first_write runs a copy of this program: %w", err)
	}
	for range min(copies, firstWriteCopies) {
		for _, tr := range []bool{false, true} {
			print, write, err := childFirstLine(ctx, exe, tr)
			if err != nil {
				return untraced, traced, fmt.Errorf("first_write: %w", err)
			}
			x := &untraced
			if tr {
				x = &traced
			}
			x.print = append(x.print, print)
			x.write = append(x.write, write)
		}
	}
	return untraced, traced, nil
}

// childFirstLine runs a copy of the program exe that prints its lines,
// reads them from its standard output as schedlab real reads a program's,
// and returns what its first line's formatting took more than that of a
// second line printed at once, fmt warm, and what its first write took
// more than the median of its later ones, each after firstWriteIdle.
func childFirstLine(ctx context.Context, exe string, traced bool) (print, write float64, err error) {
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
			return 0, 0, ctx.Err()
		}
		return 0, 0, fmt.Errorf("%v %s", err, quote(strings.TrimSpace(stderr.String())))
	}
	if want := strings.Repeat(firstWriteLine+"\n", firstWriteLines+1); stdout.String() != want {
		return 0, 0, fmt.Errorf("the copy of the program wrote %q, want %q", quote(stdout.String()), want)
	}
	times, err := parseStarts([]byte(stderr.String()), 2*firstWriteLines+1)
	if err != nil {
		return 0, 0, err
	}
	writes := make([]float64, firstWriteLines)
	for i := range writes {
		writes[i] = times[2*i+1]
	}
	return times[0] - times[2*firstWriteLines], writes[0] - median(slices.Clone(writes[1:])), nil
}

// firstWriteChild, in a copy of the program firstLines started, prints
// its lines to standard output with fmt.Fprintln, each after computing
// firstWriteIdle, the first followed at once by one more, and writes to
// standard error, in nanoseconds, for each line after a computation how
// long fmt took before it wrote and how long the write took, then how
// long fmt took before the extra line's write. The copy's own code uses
// fmt for nothing before its first line, as a scenario's program uses it
// for nothing before its first print. The later lines' formatting is
// not the baseline: after the computation it took 0.3-0.9µs untraced
// and, traced, 0.9-7µs, where a line printed at once took 0.2-0.3µs
// either way (eight copies on the Intel Xeon, five of them traced).
func firstWriteChild(mode string, stdout *os.File, stderr io.Writer) int {
	if mode != "traced" && mode != "untraced" {
		io.WriteString(stderr, firstWriteEnv+"="+strconv.Quote(quote(mode))+": want traced or untraced\n")
		return 2
	}
	runtime.GOMAXPROCS(1)
	if mode == "traced" {
		if err := trace.Start(io.Discard); err != nil {
			io.WriteString(stderr, err.Error()+"\n")
			return 1
		}
	}
	w := &stampedWriter{f: stdout}
	// printLine prints a line and says how long fmt took before its write.
	printLine := func() (time.Duration, error) {
		t0 := time.Now()
		_, err := fmt.Fprintln(w, firstWriteLine)
		return w.began.Sub(t0), err
	}
	var times [2*firstWriteLines + 1]time.Duration
	for i := range firstWriteLines {
		runtime.KeepAlive(computeFor(firstWriteIdle))
		formatted, err := printLine()
		times[2*i], times[2*i+1] = formatted, w.took
		if err == nil && i == 0 {
			// A second line at once: fmt warm, and nothing between the
			// two lines to slow the second's formatting.
			times[2*firstWriteLines], err = printLine()
		}
		if err != nil {
			io.WriteString(stderr, err.Error()+"\n")
			return 1
		}
	}
	if mode == "traced" {
		trace.Stop()
	}
	var b []byte
	for _, d := range times {
		b = strconv.AppendInt(b, d.Nanoseconds(), 10)
		b = append(b, '\n')
	}
	stderr.Write(b)
	return 0
}

// stampedWriter writes to f and notes when its last write began and how
// long it took: where fmt's formatting of a line ends and its write
// system call begins.
type stampedWriter struct {
	f     *os.File
	began time.Time
	took  time.Duration
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	w.began = time.Now()
	n, err := w.f.Write(p)
	w.took = time.Since(w.began)
	return n, err
}
