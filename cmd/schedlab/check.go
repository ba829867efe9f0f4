package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/gofront"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/teach/quiz"
	"github.com/schedlab/schedlab/view/tracelog"
)

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var sim simFlags
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Validate scenario files, and run them to find deadlocks and panics",
		Long: `check parses each scenario file and reports every mistake as
file:line:col with a hint. A Go program (FILE.go) is read as docs/go-subset.md
says, and every construct outside the subset is reported, each at its line. A file that parses is then run with the model's
invariants checked after every event, so a deadlock or a panic (a close of
a closed channel, a send on one) is reported at the line that causes it.
A scenario that declares expect: deadlock (or panic) passes when its run
ends that way, and fails when it does not. The questions a scenario asks
(ask:) are settled against the run: check fails if the run never reaches
one, nothing answers it, or its answer is not among its choices. A question
whose answer is forced (the run offers no other choice, or decided it before
the question is asked) passes with a warning on stderr naming its line.

check also warns, without failing, where a note or a question may not
land on what it names: a note the run never reaches, a note naming
goroutines or Ps (G3, P1) none of which an event is about while it is the
latest note, a question naming a goroutine or a P other than the one its
answer is about.

The simulation flags check the files as run and tui would show them.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("check needs at least one scenario file or built-in name")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			o := tracelog.Options{Overrides: over, Check: true, NoEvents: true}
			var usage, runs []error
			for _, arg := range args {
				sc, err := gofront.LoadFrom(arg, stdin, gofront.Options{})
				if err != nil {
					usage = append(usage, err)
					continue
				}
				if err := sc.Validate(o.Config(sc)); err != nil {
					usage = append(usage, err)
					continue
				}
				end, m, err := tracelog.Run(sc, o, io.Discard)
				if err != nil {
					usage = append(usage, err)
					continue
				}
				if !sc.AsExpected(end) {
					if end.Err == nil {
						end.Err = fmt.Errorf("%s: the scenario expects a %s, but the run ended with %s at %v", sc.File, sc.Expect, end.Reason, m.Now())
					}
					runs = append(runs, end.Err)
					continue
				}
				qs, warns, err := quiz.SettleWarn(o.Config(sc), sc.Program(), sc.Asks)
				for _, w := range warns {
					fmt.Fprintln(stderr, safetext.Term(w))
				}
				if err != nil {
					runs = append(runs, err)
					continue
				}
				expected := ""
				if sc.Expect != gmp.Running {
					expected = ", as the scenario expects"
				}
				asked := ""
				if len(qs) > 0 {
					asked = ", " + plural(len(qs), "question", "questions") + " answered by the run"
				}
				warnings := scenarios.Landings(sc, o.Config(sc))
				warned := ""
				if len(warnings) > 0 {
					warned = ", " + plural(len(warnings), "warning", "warnings")
				}
				fmt.Fprintf(stdout, "%s: ok (%s at %v%s, %d events%s)%s\n", safetext.Term(sc.File), end.Reason, m.Now(), expected, m.Emitted(), asked, warned)
				for _, w := range warnings {
					fmt.Fprintln(stdout, w)
				}
			}
			switch {
			case len(usage) > 0:
				return usageError{errors.Join(append(usage, runs...)...)}
			case len(runs) > 0:
				return runError{errors.Join(runs...)}
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	return cmd
}

// plural writes "1 question" or "3 questions".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
