package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
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
	root := &cobra.Command{
		Use:   "schedlab",
		Short: "See how the Go scheduler and goroutine pools work",
		Long: `schedlab simulates the Go 1.26 G/M/P scheduler rule by rule and shows
it step by step. Run it with no arguments for the interactive view of the
default scenario, or use the commands below for traces and checks.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\n\tsee: schedlab %s --help", err, cmd.Name())}
	})
	root.AddCommand(newRunCmd(stdout), newListCmd(stdout), newCheckCmd(stdout))
	return root
}
