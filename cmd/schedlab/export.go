package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/view/export"
)

// exporter is what export writes: a sink for the run's events and the end.
type exporter interface {
	Event(gmp.Event)
	End(*gmp.Machine) error
}

func newExportCmd(stdout io.Writer) *cobra.Command {
	var (
		sim            simFlags
		format, output string
		from, to       time.Duration
		width          int
		rec            recordFlags
	)
	cmd := &cobra.Command{
		Use:   "export NAME|FILE",
		Short: "Write a run as a Perfetto trace, an SVG timeline or a Markdown handout",
		Long: `export writes a run of a scenario for tools outside the terminal:

  --format perfetto  Chrome trace-event JSON, for the Perfetto UI
                     (ui.perfetto.dev, Open trace file) or chrome://tracing:
                     a track per P with a slice per goroutine run, the Ms,
                     instants for steals, overflows, preemptions and
                     retakes, counters for the global queue and each ring,
                     and an arrow from each event's cause to it.
  --format svg       a timeline for slides: a lane per P with a bar per
                     goroutine run in the UI's colours, markers for steals,
                     preemptions, syscalls, retakes and overflows, the
                     global queue as a strip, and a legend; --from, --to
                     and --width choose what and how wide.
  --format md        a handout: the scenario, its notes in the order the
                     run meets them with the events around each, and how
                     the run ended.
` + recordingHelp + `

A real program's trace (schedlab bench --trace FILE) opens in go tool trace;
the Perfetto UI can show a model's trace in one tab and a real one, converted
by go tool trace, in another, to hold them side by side.`,
		Example: `  schedlab export steal --format perfetto -o steal.json
  schedlab export tour --format md > tour.md
  schedlab export tour --format svg --to 25ms -o tour.svg
  schedlab export steal --format perfetto --policy no-steal -o no-steal.json
  schedlab export tour --format cast -o tour.cast
  schedlab export tour --format gif --size 80x24 --theme light -o tour.gif`,
		Args: exactArgs("a scenario name or file"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "perfetto" && format != "md" && format != "svg" && !isRecording(format) {
				return usageError{fmt.Errorf("--format %q: use perfetto, md, svg, cast or gif", format)}
			}
			if from < 0 || to < 0 || (to > 0 && to <= from) {
				return usageError{fmt.Errorf("--from %v --to %v: want 0 <= from < to", from, to)}
			}
			if width < 400 || width > 20000 {
				return usageError{fmt.Errorf("--width %d: want 400 to 20000 pixels", width)}
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			sc, err := loadScenario(args[0], over)
			if err != nil {
				return err
			}
			if isRecording(format) {
				return writeRecording(sc, over, format, output, rec, stdout)
			}
			cfg := sc.ConfigWith(over)
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				return usageError{fmt.Errorf("%s: %w", sc.File, err)}
			}
			out := stdout
			if output != "" {
				f, err := os.Create(output)
				if err != nil {
					return usageError{fmt.Errorf("-o: %w", err)}
				}
				defer f.Close()
				out = f
			}
			var x exporter
			switch format {
			case "perfetto":
				x = export.NewPerfetto(out, sc.Name, sc.Program(), cfg.Procs)
			case "md":
				x = export.NewHandout(out, sc)
			default:
				if to == 0 {
					// The timeline's scale needs the end: a first run,
					// which gives the same run, finds it.
					first, _ := gmp.New(cfg, sc.Program())
					first.Run()
					to = first.Now().D()
				}
				title := sc.Name
				if sc.Title != "" {
					title += " — " + sc.Title
				}
				x = export.NewSVG(out, title, cfg.Procs, from, to, width)
			}
			m.SetSink(x.Event)
			end := m.Run()
			if err := x.End(m); err != nil {
				return runError{err}
			}
			if f, ok := out.(*os.File); ok && output != "" {
				if err := f.Close(); err != nil {
					return runError{err}
				}
			}
			if !sc.AsExpected(end) {
				return runError{fmt.Errorf("the run ended with %s: %v", end.Reason, end.Err)}
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "perfetto", "perfetto (trace-event JSON), md (a handout), svg (a timeline for slides), cast (an asciinema recording) or gif")
	rec.register(cmd)
	fl.DurationVar(&from, "from", 0, "svg: the timeline starts at this simulated time")
	fl.DurationVar(&to, "to", 0, "svg: the timeline ends at this simulated time (default: the run's end)")
	fl.IntVar(&width, "width", 1600, "svg: the image's width in pixels")
	fl.StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("perfetto", "md", "svg", "cast", "gif"))
	return cmd
}
