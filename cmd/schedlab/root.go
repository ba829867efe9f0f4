package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRun   = 1 // the scenario ran and ended badly (deadlock, panic, invariant)
	exitUsage = 2 // bad flags, unreadable or invalid files
)

// version says which schedlab this is: the module's version, the commit
// it was built from, and the Go and platform that built it, from the
// binary's build information (runtime/debug.ReadBuildInfo):
//
//	schedlab v1.2.0 (commit 183c99d1e0a4, 2026-11-20T10:00:00Z), go1.26.8 linux/amd64
//	schedlab devel (commit 183c99d1e0a4, modified), go1.26.8 linux/amd64
//	schedlab devel (no commit recorded: go run and go test record none), go1.26.8 linux/amd64
func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionFrom(bi, ok)
}

// versionFrom is version from given build information.
func versionFrom(bi *debug.BuildInfo, ok bool) string {
	goVersion := runtime.Version()
	if ok && bi.GoVersion != "" {
		goVersion = bi.GoVersion
	}
	v, rev := moduleVersion(bi, ok)
	where := "no commit recorded: go run and go test record none"
	if rev != "" {
		where = "commit " + rev
	}
	return "schedlab " + v + " (" + where + "), " + goVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// Set by scripts/release.sh (-ldflags -X), for a build whose information
// lacks them: Go records no commit for a build of a git worktree, nor with
// -buildvcs=false.
var (
	releaseVersion string
	releaseCommit  string
)

// moduleVersion is the module's version ("devel" for a build of a
// checkout, which Go marks "(devel)") and the commit, with its time and
// whether the checkout had changes, when the build recorded them.
func moduleVersion(bi *debug.BuildInfo, ok bool) (v, rev string) {
	v = "devel"
	if releaseVersion != "" {
		v = releaseVersion
	}
	if !ok {
		return v, releaseCommit
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	var when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v, releaseCommit
	}
	if when != "" {
		rev += ", " + when
	}
	if modified {
		rev += ", modified"
	}
	return v, rev
}

// versionOnly is the module's version and short commit, "v1.2.0" or
// "devel+183c99d1e0a4", for a line that names the build.
func versionOnly() string {
	bi, ok := debug.ReadBuildInfo()
	v, rev := moduleVersion(bi, ok)
	if rev, _, _ = strings.Cut(rev, ","); v == "devel" && rev != "" {
		v += "+" + rev
	}
	return v
}

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
	// Every error reaches the terminal here. Its lines and tabs are its
	// own layout (a hint on the next line); anything else that acts on a
	// terminal came from a file or a trace, and is shown, not sent.
	fmt.Fprintln(stderr, "schedlab:", safetext.TermLines(err.Error()))
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
and print traces and checks.

Exit status: 0 when everything went as the scenario expects; 1 when a run
ended badly (a deadlock or panic it does not expect, the event limit, a
question the run cannot answer, a real program that could not be built or
run); 2 for a mistake in the command line or in
a scenario file.`,
		Version:       version(),
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
		return usageError{fmt.Errorf("%w\n\tsee: %s --help", err, cmd.CommandPath())}
	})
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newRunCmd(stdout), newListCmd(stdout), newCheckCmd(stdout, stderr), newCompareCmd(stdout), newBenchCmd(stdout, stderr), newTUICmd(stderr), newExerciseCmd(stdout), newExportCmd(stdout), newTraceCmd(stdout), newRealCmd(stdout), newVerifyCmd(stdout), newClassCmd(stdout), newTranslateCmd(stdout), newCalibrateCmd(stdout))
	// cobra's completion command prints its help and exits 0 for a shell
	// it does not know: make that a usage error naming the shells.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			var shells []string
			for _, sub := range c.Commands() {
				shells = append(shells, sub.Name())
			}
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usageError{fmt.Errorf("no completion for %q: want one of %s", args[0], strings.Join(shells, ", "))}
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, args []string) error {
				return usageError{fmt.Errorf("completion needs a shell: one of %s", strings.Join(shells, ", "))}
			}
		}
	}
	return root
}
