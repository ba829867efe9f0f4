package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/real/recorded"
	"github.com/schedlab/schedlab/real/verify"
	"github.com/schedlab/schedlab/view/tui"
)

// viewFlags say how the interactive views draw: the root command, tui
// and trace share them.
type viewFlags struct {
	mono    bool
	theme   string
	ascii   bool
	noMouse bool
}

func (f *viewFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.mono, "mono", false, "no colours (also when NO_COLOR is set); the same as --theme mono")
	fl.StringVar(&f.theme, "theme", "auto", "colours: "+strings.Join(tui.Themes, ", ")+" (auto: default or light, as the terminal's background; projector: no dim grey anywhere, for a room at the back, dark or light as the background)")
	fl.BoolVar(&f.ascii, "ascii", false, "draw only ASCII characters (the default when the locale is not UTF-8, e.g. LANG=C over SSH)")
	fl.BoolVar(&f.noMouse, "no-mouse", false, "leave the mouse to the terminal, for selecting text (clicks otherwise find goroutines and the wheel scrolls)")
	_ = cmd.RegisterFlagCompletionFunc("theme", fixedCompletions(tui.Themes...))
}

// options checks the flags and returns the view's options.
func (f *viewFlags) options() (tui.Options, error) {
	if !slices.Contains(tui.Themes, f.theme) {
		return tui.Options{}, usageError{fmt.Errorf("--theme %q: use %s", f.theme, strings.Join(tui.Themes, ", "))}
	}
	o := tui.Options{Mono: f.mono, Theme: f.theme, ASCII: f.ascii || !tui.UTF8Locale(), NoMouse: f.noMouse}
	// The terminal is asked for its background only when a theme
	// depends on it, and not when a test draws on a screen of its own.
	if (f.theme == "auto" || f.theme == "projector") && !f.mono && screenFor == nil {
		o.Light, _ = tui.Background()
	}
	return o, nil
}

// uiFlags are the flags of the UI, shared by the root command and tui.
type uiFlags struct {
	sim   simFlags
	view  viewFlags
	quiz  bool
	split string
	vs    string
	// Presenting: --present, the session it publishes, a follower's
	// --notes-for, and --watch.
	present          bool
	session, follows string
	watch            bool
}

func (f *uiFlags) register(cmd *cobra.Command) {
	f.sim.register(cmd, "stop")
	f.view.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&f.quiz, "quiz", false, "ask questions as the run goes: the scenario's own (ask:) and the model's at its decisions; answer with 1–4 or a click")
	fl.StringVar(&f.split, "split", "", "two runs side by side, in lockstep: the scenario's tasks two ways (two of raw, pool, semaphore, errgroup, e.g. raw,pool), or the scenario under two policies (e.g. default,no-steal)")
	_ = cmd.RegisterFlagCompletionFunc("split", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return splitPairs(), cobra.ShellCompDirectiveNoFileComp
	})
	fl.StringVar(&f.vs, "vs", "", "real: the model beside one real run of the same scenario (built and run as schedlab real does), aligned on time")
	fl.BoolVar(&f.present, "present", false, "presenter mode: playback pauses at each note and question, the note shows large, no key hints, b blanks the screen, ' jumps to a mark")
	fl.StringVar(&f.session, "session", "class", "--present: the name a second terminal follows the presenter by (--notes-for)")
	fl.StringVar(&f.follows, "notes-for", "", "follow the presenter of this session on a second terminal: the note on screen and the next one to come")
	fl.BoolVar(&f.watch, "watch", false, "read the scenario file again when it is saved, and go back to the same moment")
	_ = cmd.RegisterFlagCompletionFunc("vs", fixedCompletions("real"))
}

// splitPairs lists every --split value: each pair of modes, in the order
// taskmode lists them, then the runtime's rules against each policy.
func splitPairs() []string {
	var out []string
	for i, a := range taskmode.All {
		for _, b := range taskmode.All[i+1:] {
			out = append(out, a.String()+","+b.String())
		}
	}
	for _, name := range gmp.PolicyNames()[1:] {
		if !strings.Contains(name, "=") {
			out = append(out, "default,"+name)
		}
	}
	return out
}

// parseSplit reads --split: two modes of a pool's tasks, or two what-if
// policies.
func parseSplit(v string) ([]taskmode.Mode, []gmp.Policy, error) {
	modes, merr := taskmode.Parse(v)
	if merr == nil && len(modes) == 2 {
		return modes, nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) == 2 {
		var pols []gmp.Policy
		for _, p := range parts {
			pol, err := gmp.ParsePolicy(strings.TrimSpace(p))
			if err != nil {
				break
			}
			pols = append(pols, pol)
		}
		if len(pols) == 2 {
			return nil, pols, nil
		}
	}
	if merr == nil {
		merr = fmt.Errorf("want two, e.g. raw,pool")
	}
	return nil, nil, usageError{fmt.Errorf("--split %q: want two modes (raw, pool, semaphore, errgroup) or two policies (e.g. default,no-steal): %w", v, merr)}
}

// haveTerminal reports why the UI cannot open a terminal, or nil: tcell
// draws on the controlling terminal, /dev/tty.
func haveTerminal() error {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	return f.Close()
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
	opts, err := f.view.options()
	if err != nil {
		return err
	}
	if f.quiz && f.split != "" {
		return usageError{fmt.Errorf("--quiz asks about one run: leave out --split")}
	}
	if (f.present || f.follows != "") && (f.split != "" || f.vs != "") {
		return usageError{fmt.Errorf("--present and --notes-for show one run: leave out --split and --vs")}
	}
	if f.present && f.follows != "" {
		return usageError{fmt.Errorf("--notes-for follows a presenter from a second terminal: leave out --present there")}
	}
	for _, name := range []string{f.follows, f.session} {
		if name != "" {
			if _, err := tui.SessionPath(name); err != nil {
				return usageError{err}
			}
		}
	}
	if f.watch {
		if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
			return usageError{fmt.Errorf("--watch reads a scenario file again when it is saved; %q is not a file", name)}
		}
	}
	opts.Present, opts.NotesFor = f.present, f.follows
	if f.present {
		opts.Session = f.session
	}
	if f.vs != "" {
		if f.vs != "real" {
			return usageError{fmt.Errorf("--vs %q: the one thing to set the model beside is real", f.vs)}
		}
		if f.quiz || f.split != "" {
			return usageError{fmt.Errorf("--vs real shows two runs of its own: leave out --quiz and --split")}
		}
		return runVsReal(name, over, opts, stderr)
	}
	if f.split != "" {
		_, policies, err := parseSplit(f.split)
		if err != nil {
			return err
		}
		if policies != nil && over.Policy != nil {
			return usageError{fmt.Errorf("--split %s names the policies of its two runs: leave out --policy", f.split)}
		}
	}
	split := f.split
	for {
		app, err := buildUI(name, split, f.quiz, over, opts)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(name); f.watch && err == nil && fi.Mode().IsRegular() && split == "" {
			file := name
			app.Watch(file, func() (*scenarios.Scenario, gmp.Config, error) {
				sc, err := loadScenario(file, over)
				if err != nil {
					return nil, gmp.Config{}, err
				}
				return sc, sc.ConfigWith(over), nil
			})
		}
		var screen tcell.Screen
		if screenFor != nil {
			screen = screenFor()
		} else if err := haveTerminal(); err != nil {
			return usageError{fmt.Errorf("the UI needs a terminal (%v); for a trace instead, run: schedlab run %s", err, name)}
		}
		if err := app.Run(screen); err != nil {
			return runError{err}
		}
		// o and v stop the UI to become another: a scenario, or the
		// other view of this one. A scenario opened from inside the UI
		// was loaded there already, so an error now is a run's.
		next := app.Next()
		if next == nil {
			return nil
		}
		name, split = next.Scenario, ""
		if next.Split {
			split = "raw,pool"
		}
		opts.StartAt = next.At // v keeps the moment
	}
}

// buildUI loads the scenario and builds its UI, the split view when split
// names two modes or policies.
func buildUI(name, split string, quiz bool, over scenarios.Overrides, opts tui.Options) (*tui.App, error) {
	var modes []taskmode.Mode
	var policies []gmp.Policy
	if split != "" {
		var err error
		if modes, policies, err = parseSplit(split); err != nil {
			return nil, err
		}
	}
	sc, err := loadScenario(name, over)
	if err != nil {
		return nil, err
	}
	opts.Source = name
	var app *tui.App
	switch {
	case policies != nil:
		app, err = tui.NewPolicySplit(sc, sc.ConfigWith(over), [2]gmp.Policy{policies[0], policies[1]}, opts)
	case modes != nil:
		app, err = tui.NewSplit(sc, sc.ConfigWith(over), [2]taskmode.Mode{modes[0], modes[1]}, opts)
		if err != nil {
			err = fmt.Errorf("%s: %w", sc.File, err)
		}
	default:
		opts.Quiz = quiz
		app, err = tui.New(sc, sc.ConfigWith(over), opts)
	}
	if err != nil {
		return nil, usageError{err}
	}
	return app, nil
}

// runVsReal builds and runs the scenario's real program once, runs the
// model, and shows the two side by side.
func runVsReal(name string, over scenarios.Overrides, opts tui.Options, stderr io.Writer) error {
	sc, err := loadScenario(name, over)
	if err != nil {
		return err
	}
	if sc.Expect != gmp.Running {
		return usageError{fmt.Errorf("%s ends with %s by design, so it is not run for real: %s", sc.Name, sc.Expect, verify.NotRunForReal(sc.Expect))}
	}
	var screen tcell.Screen
	if screenFor != nil {
		screen = screenFor()
	} else if err := haveTerminal(); err != nil {
		return usageError{fmt.Errorf("the UI needs a terminal (%v); to measure instead, run: schedlab verify %s", err, name)}
	}
	cfg := sc.ConfigWith(over)
	model, _, err := recorded.FromModel(sc, cfg)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(stderr, "building and running %s for real…\n", sc.Name)
	ctx, stop := interruptible()
	defer stop()
	s, done, err := realSession(ctx, sc, cfg, realFlags{runs: 1, timeout: time.Minute})
	if err != nil {
		return err
	}
	defer done()
	path, err := s.Run(ctx, 1, time.Minute)
	if err != nil {
		return runError{err}
	}
	real, err := openTraceRun(path, true)
	if err != nil {
		return runError{err}
	}
	title := fmt.Sprintf("%s: the model (seed %d) beside a real run (%s, GOMAXPROCS=%d)", sc.Name, cfg.Seed, s.Toolchain.Version, cfg.Procs)
	if err := tui.NewTraceView(title, opts, model, real).Run(screen); err != nil {
		return runError{err}
	}
	return nil
}

// openTraceRun reads a runtime trace file for the trace view.
func openTraceRun(path string, scenario bool) (*recorded.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	run, _, err := recorded.FromTrace(bufio.NewReader(f), scenario, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return run, nil
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

With --policy, the run uses a what-if scheduler (schedlab list --policies).

With --present, the UI is for a class: playback pauses at each note and at
each of the scenario's questions, the note of the moment shows large in a
box of its own, the key hints leave the status bar, b blanks the screen and
' jumps to the moments the scenario names (marks:). The presenter's position
is published under --session's name; on a second terminal, schedlab tui
NAME --notes-for SESSION follows it, with the note on screen and the next
one to come. With --watch, the scenario file is read again when it is
saved, and the UI goes back to the same moment; a file that no longer
loads says where on the status bar, and the run shown stays.

With --vs real, the scenario is also translated into a Go program, built
and run once for real (as schedlab real does; this needs the go command),
and the model's run and the real one are shown side by side, stepped
together on time since each run's start. Both panes show what a runtime
trace can show: Ps, threads, goroutine states, a timeline and the events.`,
		Example:           "  schedlab tui steal\n  schedlab tui tour --quiz\n  schedlab tui tour --present --session talk\n  schedlab tui tour --notes-for talk\n  schedlab tui my.yaml --watch\n  schedlab tui steal --vs real\n  schedlab tui steal --policy no-steal\n  schedlab tui my.yaml --procs 4 --mono\n  schedlab tui burst --split raw,pool",
		Args:              exactArgs("a scenario name or file"),
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUI(cmd, args[0], &f, stderr)
		},
	}
	f.register(cmd)
	return cmd
}
