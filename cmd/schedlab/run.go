package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/view/tracelog"
)

func newRunCmd(stdout io.Writer) *cobra.Command {
	var (
		sim    simFlags
		format string
		sched  time.Duration
		check  bool
		detail bool
		quiet  bool
	)
	cmd := &cobra.Command{
		Use:   "run NAME|FILE",
		Short: "Print the trace of a scenario",
		Long: `run simulates a scenario (a built-in name or a YAML file) and prints every
scheduler event with the sentence that explains it and the runtime function
it models.

With --schedtrace, sysmon also prints a line in the format of
GODEBUG=schedtrace every period of simulated time, as the runtime does;
like the real flag, this keeps sysmon out of its deep sleep.`,
		Example: `  schedlab run steal
  schedlab run steal --format jsonl | jq .kind
  schedlab run preempt --schedtrace 10ms --quiet
  schedlab run my.yaml --seed 7 --procs 4 --check`,
		Args:              exactArgs("a scenario name or file"),
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := tracelog.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			o := tracelog.Options{Format: f, Overrides: over, Check: check,
				SchedTrace: sched, Detail: detail, NoEvents: quiet}
			if quiet && sched == 0 {
				return usageError{errors.New("--quiet leaves out the events, so it needs --schedtrace")}
			}
			if detail && sched == 0 {
				return usageError{errors.New("--scheddetail needs --schedtrace")}
			}
			if sched < 0 {
				return usageError{fmt.Errorf("--schedtrace %v: want a positive period such as 10ms", sched)}
			}
			sc, err := loadScenario(args[0], over)
			if err != nil {
				return err
			}
			end, _, err := tracelog.Run(sc, o, stdout)
			if err != nil {
				return err
			}
			if !sc.AsExpected(end) {
				if end.Err == nil {
					return runError{fmt.Errorf("%s: the scenario expects a %s, but the run ended with %s", sc.File, sc.Expect, end.Reason)}
				}
				return runError{end.Err}
			}
			if end.Err != nil {
				// The failure the scenario is about: say it, but it is no
				// error. JSON lines keep stdout to JSON: the end record
				// says it there, and people read it on stderr.
				out := stdout
				if f == tracelog.JSONL {
					out = cmd.ErrOrStderr()
				}
				fmt.Fprintf(out, "# %s\n# (the scenario expects this %s)\n", safetext.TermLines(end.Err.Error()), end.Reason)
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "output format: text, jsonl, or none (only how the run ended)")
	fl.BoolVar(&check, "check", false, "verify the model's invariants after every event")
	fl.DurationVar(&sched, "schedtrace", 0, "print a GODEBUG=schedtrace line every period of simulated time")
	fl.BoolVar(&detail, "scheddetail", false, "with --schedtrace, add the scheddetail=1 lines for each P, M and G")
	fl.BoolVarP(&quiet, "quiet", "q", false, "with --schedtrace, print only the schedtrace lines (no events, no notes)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "jsonl", "none"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// exactArgs requires one argument and says what it should be.
func exactArgs(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch len(args) {
		case 1:
			return nil
		case 0:
			return usageError{fmt.Errorf("%s needs %s\n\tsee: schedlab list, schedlab %s --help", cmd.Name(), what, cmd.Name())}
		}
		return usageError{fmt.Errorf("%s takes one argument (%s), got %d", cmd.Name(), what, len(args))}
	}
}
