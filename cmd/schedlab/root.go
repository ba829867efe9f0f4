package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/scenarios"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRun   = 1 // the scenario ran and ended badly (deadlock, panic, invariant)
	exitUsage = 2 // bad flags, unreadable or invalid files
)

// usageError marks errors in what the user asked for.
type usageError struct{ error }

// runError marks a scenario that ran and failed; its message is printed
// as is.
type runError struct{ error }

// execute runs the command line args and returns the exit status. Tests
// call it directly.
func execute(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "schedlab:", err)
	var re runError
	if errors.As(err, &re) {
		return exitRun
	}
	return exitUsage
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	var ui uiFlags
	root := &cobra.Command{
		Use:   "schedlab",
		Short: "See how the Go scheduler and goroutine pools work",
		Long: `schedlab simulates the Go 1.26 G/M/P scheduler rule by rule and shows
it step by step. With no arguments it opens the interactive view of the
default scenario (` + scenarios.DefaultName + `); the commands below open others
and print traces and checks.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q\n\tsee: schedlab --help (to open a scenario: schedlab tui %s)", args[0], args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUI(cmd, scenarios.DefaultName, &ui, stderr)
		},
	}
	ui.register(root)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\n\tsee: schedlab %s --help", err, cmd.Name())}
	})
	root.AddCommand(newRunCmd(stdout), newListCmd(stdout), newCheckCmd(stdout), newCompareCmd(stdout), newBenchCmd(stdout, stderr), newTUICmd(stderr), newExerciseCmd(stdout))
	return root
}
