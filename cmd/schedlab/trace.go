package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/view/tracelog"
	"github.com/schedlab/schedlab/view/tui"
)

func newTraceCmd(stdout io.Writer) *cobra.Command {
	var (
		format   string
		scenario bool
		view     viewFlags
	)
	cmd := &cobra.Command{
		Use:   "trace FILE",
		Short: "Read a real program's runtime trace in the model's words",
		Long: `trace reads a runtime trace of a real Go program (Go 1.22 or later: one
written by runtime/trace, go test -trace, or schedlab bench --trace). In a
terminal it opens the trace in the interactive view (--format tui): the Ps
and their threads, goroutine states, a timeline and the events, stepped
forward and back like a model's run. Otherwise (--format text) it prints
its scheduler events with the model's kinds and a sentence each (go-create,
go-start, go-stop, go-block, go-unblock, go-exit, syscall-enter,
syscall-exit, proc-start, proc-stop, proc-steal), then a summary: the Ps and
threads seen, the goroutines created, and how long each P ran goroutines.

A runtime trace records what goroutines and Ps did, not the scheduler's
queues: it cannot show runnext, a P's ring, the global queue, or which
goroutines a steal took. Those are what schedlab run shows of the model.

With --scenario, a trace written by a program schedlab real generated is
read in the scenario's numbering (G1 main, then G2, G3… in order of
creation, as the model numbers them), and the runtime's own goroutines
(the GC's workers, the trace reader) are counted apart; the summary then
says how long before its scenario main made runtime/trace.Start's first
go statement, whose wakep wakes a thread for an idle P.`,
		Example: `  schedlab bench --modes pool --runs 1 --trace pool.trace && schedlab trace pool.trace
  schedlab trace prog.trace --format jsonl | jq .kind
  schedlab real steal --trace steal.trace && schedlab trace steal.trace --scenario`,
		Args: exactArgs("a trace file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format == "" {
				format = "text"
				if out, ok := stdout.(*os.File); ok && term.IsTerminal(int(out.Fd())) {
					format = "tui"
				}
			}
			if format != "text" && format != "jsonl" && format != "none" && format != "tui" {
				return usageError{fmt.Errorf("--format %q: use tui, text, jsonl or none", format)}
			}
			if format == "tui" {
				opts, err := view.options()
				if err != nil {
					return err
				}
				return traceUI(args[0], scenario, opts)
			}
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{fmt.Errorf("cannot read the trace: %w", err)}
			}
			defer f.Close()
			w := bufio.NewWriterSize(stdout, 256<<10)
			var buf []byte
			sum, err := rtrace.ReadWith(bufio.NewReader(f), rtrace.Options{Scenario: scenario}, func(e rtrace.Event) {
				switch format {
				case "text":
					fmt.Fprintf(w, "%12s  %-5s %-8s  %-13s  %s\n", sim.FormatMillis(e.T), id("P", e.P), id("M", e.M), e.Kind, safetext.Term(e.Describe()))
				case "jsonl":
					buf = append(buf[:0], `{"t":`...)
					buf = strconv.AppendInt(buf, int64(e.T), 10)
					buf = append(buf, `,"kind":"`...)
					buf = append(buf, e.Kind...)
					buf = append(buf, '"')
					for _, f := range []struct {
						k string
						v int64
					}{{"g", e.G}, {"g2", e.G2}, {"p", e.P}, {"m", e.M}} {
						if f.v >= 0 {
							buf = append(buf, `,"`+f.k+`":`...)
							buf = strconv.AppendInt(buf, f.v, 10)
						}
					}
					if e.Reason != "" {
						buf = append(buf, `,"reason":`...)
						buf = tracelog.AppendJSONString(buf, e.Reason)
					}
					buf = append(buf, `,"why":`...)
					buf = tracelog.AppendJSONString(buf, e.Describe())
					buf = append(buf, "}\n"...)
					w.Write(buf)
				}
			})
			if err != nil {
				w.Flush()
				return usageError{fmt.Errorf("%s: %w", args[0], err)}
			}
			if format != "jsonl" {
				fmt.Fprintf(w, "# %d scheduler events over %s; %d goroutines created; %d Ps, %d threads\n",
					sum.Events, sim.FormatMillis(sum.Span), sum.Goroutines, sum.Ps, sum.Ms)
				ps := make([]int64, 0, len(sum.Running))
				for p := range sum.Running {
					ps = append(ps, p)
				}
				sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
				for _, p := range ps {
					share := 0.0
					if sum.Span > 0 {
						share = 100 * float64(sum.Running[p]) / float64(sum.Span)
					}
					fmt.Fprintf(w, "# P%d ran goroutines for %s (%.1f%%)\n", p, sim.FormatMillis(sum.Running[p]), share)
				}
				if scenario {
					fmt.Fprintf(w, "# %d runtime goroutines set apart, with %d events\n", sum.RuntimeGoroutines, sum.RuntimeEvents)
					if sum.TracerLead > 0 {
						fmt.Fprintf(w, "# main began the scenario %s after runtime/trace.Start's first go statement\n", sim.FormatMillis(sum.TracerLead))
					}
				}
				fmt.Fprintln(w, "# (a runtime trace does not record run queues: runnext, the rings and the global queue are the model's to show)")
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "tui (the interactive view; the default in a terminal), text (the default otherwise), jsonl, or none (the summary alone)")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("tui", "text", "jsonl", "none"))
	cmd.Flags().BoolVar(&scenario, "scenario", false, "number goroutines as the scenario does and set the runtime's apart (a trace from schedlab real)")
	view.register(cmd)
	return cmd
}

// traceUI opens a trace in the trace view.
func traceUI(path string, scenario bool, opts tui.Options) error {
	var screen tcell.Screen
	if screenFor != nil {
		screen = screenFor()
	} else if err := haveTerminal(); err != nil {
		return usageError{fmt.Errorf("the interactive view needs a terminal (%v); for text instead: schedlab trace %s --format text", err, path)}
	}
	run, err := openTraceRun(path, scenario)
	if err != nil {
		return usageError{fmt.Errorf("cannot read the trace: %w", err)}
	}
	run.Label = "real: " + path
	if err := tui.NewTraceView("schedlab trace "+path, opts, run).Run(screen); err != nil {
		return runError{err}
	}
	return nil
}

// id writes P3 or M12, or - for none.
func id(prefix string, v int64) string {
	if v < 0 {
		return "-"
	}
	return prefix + strconv.FormatInt(v, 10)
}
