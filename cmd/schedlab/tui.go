package main

import (
	"fmt"
	"io"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/taskmode"
	"github.com/schedlab/schedlab/tui"
)

// uiFlags are the flags of the UI, shared by the root command and tui.
type uiFlags struct {
	sim   simFlags
	mono  bool
	quiz  bool
	split string
}

func (f *uiFlags) register(cmd *cobra.Command) {
	f.sim.register(cmd, "stop")
	fl := cmd.Flags()
	fl.BoolVar(&f.mono, "mono", false, "no colours (also when NO_COLOR is set)")
	fl.BoolVar(&f.quiz, "quiz", false, "ask questions as the run goes: the scenario's own (ask:) and the model's at its decisions; answer with 1–4 or a click")
	fl.StringVar(&f.split, "split", "", "show the scenario's tasks run two ways side by side, in lockstep: two of raw, pool, semaphore, errgroup (e.g. raw,pool)")
	_ = cmd.RegisterFlagCompletionFunc("split", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return splitPairs(), cobra.ShellCompDirectiveNoFileComp
	})
}

// splitPairs lists every --split value: each pair of modes, in the order
// taskmode lists them.
func splitPairs() []string {
	var out []string
	for i, a := range taskmode.All {
		for _, b := range taskmode.All[i+1:] {
			out = append(out, a.String()+","+b.String())
		}
	}
	return out
}

// screenFor lets tests run the UI on a simulation screen; nil means the
// terminal.
var screenFor func() tcell.Screen

// runUI loads the scenario and builds the UI first, so that a bad file or
// flag is reported before the terminal switches to the UI.
func runUI(cmd *cobra.Command, name string, f *uiFlags, stderr io.Writer) error {
	over, err := f.sim.overrides(cmd)
	if err != nil {
		return err
	}
	if f.quiz && f.split != "" {
		return usageError{fmt.Errorf("--quiz asks about one run: leave out --split")}
	}
	var modes []taskmode.Mode
	if f.split != "" {
		if modes, err = taskmode.Parse(f.split); err != nil || len(modes) != 2 {
			if err == nil {
				err = fmt.Errorf("want two modes, e.g. raw,pool")
			}
			return usageError{fmt.Errorf("--split %q: %w", f.split, err)}
		}
	}
	sc, err := scenarios.Load(name)
	if err != nil {
		return usageError{err}
	}
	var app *tui.App
	if modes != nil {
		app, err = tui.NewSplit(sc, sc.ConfigWith(over), [2]taskmode.Mode{modes[0], modes[1]}, tui.Options{Mono: f.mono})
		if err != nil {
			err = fmt.Errorf("%s: %w", sc.File, err)
		}
	} else {
		app, err = tui.New(sc, sc.ConfigWith(over), tui.Options{Mono: f.mono, Quiz: f.quiz})
	}
	if err != nil {
		return usageError{err}
	}
	var screen tcell.Screen
	if screenFor != nil {
		screen = screenFor()
	}
	return app.Run(screen)
}

func newTUICmd(stderr io.Writer) *cobra.Command {
	var f uiFlags
	cmd := &cobra.Command{
		Use:   "tui NAME|FILE",
		Short: "Step through a scenario in the terminal UI",
		Long: `tui opens the interactive view of a scenario (a built-in name or a YAML file):
the Ps with their queues, the Ms, sysmon, the netpoller and timers, a timeline
of what ran where, and the event log with a sentence for each step. Step
forward and back with the arrow keys; press ? for every key.

With --split, the tasks the scenario submits to a pool run two ways side by
side (as schedlab compare runs them), stepped together in simulated time.

With --quiz, stepping stops before the event that answers a question: the
scenario's own (ask:), then the model's at its decisions (where a new
goroutine goes, which runs next, how many a thief takes…). Answer with a
digit or a click; the answer is revealed with the event's explanation,
and the score is kept in the header. esc skips a question.

With --policy, the run uses a what-if scheduler (schedlab list --policies).`,
		Example: "  schedlab tui steal\n  schedlab tui tour --quiz\n  schedlab tui steal --policy no-steal\n  schedlab tui my.yaml --procs 4 --mono\n  schedlab tui burst --split raw,pool",
		Args:    exactArgs("a scenario name or file"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUI(cmd, args[0], &f, stderr)
		},
	}
	f.register(cmd)
	return cmd
}
