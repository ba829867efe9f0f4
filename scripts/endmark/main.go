// Command endmark measures what a program schedlab real generates does
// between its scenario's return and the end of the window verify measures:
// the end mark, a runtime/trace.Log whose event closes the window. The
// runtime stamps a log event only after it has interned the category and
// the message in the trace's string table and taken the caller's stack,
// so the first call in a process, as the end mark is, comes with that
// work before the stamp. Each run is a fresh process that traces into a
// file on one P, as a generated program does, and times two calls with
// the clock: the first, the end mark's case, and a second, whose strings
// are interned.
//
//	go run ./scripts/endmark              # 10 runs, each a fresh process
//	go run ./scripts/endmark -runs 20
//
// The summary is of the first calls, in ns, with the median of the two
// middle ones. verify charges the model's main that long when it returns
// (gmp.Costs.EndMark, verify's endMark).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"time"

	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv marks a child process, which measures once.
const runEnv = "SCHEDLAB_ENDMARK_RUN"

func main() {
	runs := probe.RunsFlag()
	probe.SetUsage("go run ./scripts/endmark [-runs N]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	got := probe.Fresh("endmark", runEnv, *runs, nil, once)
	fmt.Printf("the end mark's trace.Log, a process's first (ns), %s\n", probe.Summarize(got).MeanMedian())
}

// once times this process's first two trace.Log calls, with the end
// mark's category and message, and returns the first, in nanoseconds,
// and the run's line.
func once() (float64, string) {
	runtime.GOMAXPROCS(1)
	dir, err := os.MkdirTemp("", "endmark")
	if err != nil {
		probe.Fail("endmark", err)
	}
	defer os.RemoveAll(dir)
	stop, err := probe.Trace(filepath.Join(dir, "trace.out"))
	if err != nil {
		probe.Fail("endmark", err)
	}
	defer stop()
	ctx := context.Background()
	t0 := time.Now()
	trace.Log(ctx, rtrace.EndMarkCategory, rtrace.EndMarkMessage)
	t1 := time.Now()
	trace.Log(ctx, rtrace.EndMarkCategory, rtrace.EndMarkMessage)
	t2 := time.Now()
	first, second := t1.Sub(t0), t2.Sub(t1)
	return float64(first), fmt.Sprintf("first trace.Log %dns, second %dns", first.Nanoseconds(), second.Nanoseconds())
}
