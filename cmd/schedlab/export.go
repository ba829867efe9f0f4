package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/recorded"
	"github.com/schedlab/schedlab/real/verify"
	"github.com/schedlab/schedlab/view/export"
)

func newExportCmd(stdout io.Writer) *cobra.Command {
	var (
		sim            simFlags
		format, output string
		from, to       time.Duration
		width          int
		psFlag, fit    string
		traceFile, vs  string
		scenario       bool
		rec            recordFlags
	)
	cmd := &cobra.Command{
		Use:   "export NAME|FILE | export --trace FILE",
		Short: "Write a run or a runtime trace as a Perfetto trace, an SVG timeline or a Markdown handout",
		Long: `export writes a run of a scenario for tools outside the terminal:

  --format perfetto  Chrome trace-event JSON, for the Perfetto UI
                     (ui.perfetto.dev, Open trace file), chrome://tracing
                     or speedscope: a track per P with a slice per
                     goroutine run, the Ms, instants for steals, overflows,
                     preemptions and retakes, a counter for every queue
                     (rings, runnext, global queue, idle Ps, spinning Ms,
                     pools), and an arrow from what woke each goroutine
                     to its next run.
  --format svg       a timeline for slides: a lane per P with a bar per
                     goroutine run in the UI's colours, markers for steals,
                     preemptions, syscalls, retakes and overflows, the
                     global queue as a strip, and a legend of what it
                     shows; --from, --to, --ps choose what, --width and
                     --fit how big (--fit 16:9 --width 1280 is a slide of
                     1280x720, however many Ps).
  --format gotrace   a Go execution trace, as runtime/trace writes it (Go
                     1.26's format), for go tool trace and gotraceui: the
                     goroutines' and Ps' changes of state on each thread,
                     at the model's times; no stacks, GC or queues, which
                     the format has and the model does not.
  --format md        a handout: the program as a table of goroutines and
                     actions, the run's timeline (with -o NAME.md, the
                     image NAME.svg beside it), the notes in the order the
                     run meets them with the events around each, how the
                     run ended, and questions with their answers last.
` + recordingHelp + `

--trace FILE exports a real program's runtime trace instead (Go 1.22 or
later: runtime/trace, go test -trace, schedlab real --trace, schedlab bench
--trace) in the same three formats: its goroutines' runs on each P, the
wake-ups, syscalls and retakes it records (a runtime trace has no queues).
With --scenario, a trace of schedlab real is numbered as its scenario.

--vs real sets the model's run beside a real run of the same scenario,
built and run once as schedlab real does (this needs the go command):
two processes of one Perfetto file, or two timelines of one SVG on one
time axis. --vs FILE takes that real run from a trace schedlab real
--trace wrote instead of running one.`,
		Example: `  schedlab export steal --format perfetto -o steal.json
  schedlab export tour --format md -o tour.md     # and tour.svg beside it
  schedlab export tour --format svg --to 25ms -o tour.svg
  schedlab export burst --procs 64 --format svg --ps 0-7 --fit 16:9 -o slide.svg
  schedlab export steal --format perfetto --policy no-steal -o no-steal.json
  schedlab export steal --format gotrace -o steal.trace && go tool trace steal.trace
  schedlab export --trace prog.trace --format perfetto -o prog.json
  schedlab export steal --vs real --format svg -o steal-vs-real.svg
  schedlab export tour --format cast -o tour.cast
  schedlab export tour --format gif --size 80x24 --theme light -o tour.gif`,
		Args: func(cmd *cobra.Command, args []string) error {
			if traceFile != "" {
				if len(args) > 0 {
					return usageError{fmt.Errorf("--trace %s exports a trace: leave out the scenario %q", traceFile, args[0])}
				}
				return nil
			}
			return exactArgs("a scenario name or file (or --trace FILE)")(cmd, args)
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "perfetto" && format != "md" && format != "svg" && format != "gotrace" && !isRecording(format) {
				return usageError{fmt.Errorf("--format %q: use perfetto, md, svg, gotrace, cast or gif", format)}
			}
			if isRecording(format) {
				// A recording is the UI's own frames, note by note.
				if traceFile != "" || vs != "" {
					return usageError{fmt.Errorf("--format %s records a scenario's run in the UI: leave out --trace and --vs", format)}
				}
				over, err := sim.overrides(cmd)
				if err != nil {
					return err
				}
				sc, err := loadScenario(args[0], over)
				if err != nil {
					return err
				}
				return writeRecording(sc, over, format, output, rec, stdout)
			}
			if format == "gotrace" && output == "" && isTerminal(stdout) {
				return usageError{errors.New("--format gotrace writes a binary file: give it one with -o FILE")}
			}
			if from < 0 || to < 0 || (to > 0 && to <= from) {
				return usageError{fmt.Errorf("--from %v --to %v: want 0 <= from < to", from, to)}
			}
			if width < 400 || width > 20000 {
				return usageError{fmt.Errorf("--width %d: want 400 to 20000 pixels", width)}
			}
			aspect, err := parseFit(fit)
			if err != nil {
				return err
			}
			svgOpts := export.SVGOptions{From: from, To: to, Width: width, Aspect: aspect}
			// The files are made by their first write, so that a mistake
			// found before the export starts leaves no file, nor empties
			// one.
			var out io.Writer = stdout
			file := &lazyFile{path: output}
			if output != "" {
				defer file.Close()
				out = file
			}
			var done error
			switch {
			case traceFile != "":
				if err := modelOnly(cmd, "seed", "procs", "until", "max-events", "policy", "noise"); err != nil {
					return err
				}
				if vs != "" {
					return usageError{errors.New("--vs sets a scenario's run beside a real one: leave out --trace")}
				}
				if format == "gotrace" {
					return usageError{fmt.Errorf("%s is a runtime trace already: go tool trace %s opens it", traceFile, traceFile)}
				}
				done = exportTrace(traceFile, scenario, format, output, out, psFlag, svgOpts)
			default:
				if scenario {
					return usageError{errors.New("--scenario numbers a trace's goroutines: it goes with --trace")}
				}
				done = exportScenario(cmd, args[0], &sim, format, output, out, vs, psFlag, svgOpts)
			}
			if done != nil {
				if file.err != nil && !errors.Is(file.err, os.ErrClosed) {
					return usageError{fmt.Errorf("-o: %w", file.err)} // the file could not be made
				}
				return done
			}
			if err := file.Close(); err != nil {
				return runError{err}
			}
			return nil
		},
	}
	sim.register(cmd, "stop")
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "perfetto", "perfetto (trace-event JSON), md (a handout), svg (a timeline for slides) gotrace (a Go execution trace), cast (an asciinema recording) or gif")
	rec.register(cmd)
	fl.DurationVar(&from, "from", 0, "svg: the timeline starts at this simulated time")
	fl.DurationVar(&to, "to", 0, "svg: the timeline ends at this simulated time (default: the run's end)")
	fl.IntVar(&width, "width", export.DefaultWidth, "svg: the image's width in pixels")
	fl.StringVar(&psFlag, "ps", "", "svg: the Ps to draw, as 0-7 or 0,2,5-7 (default: all)")
	fl.StringVar(&fit, "fit", "", "svg: the image's shape, as 16:9, its lanes sharing the height (default: lanes of their natural height)")
	fl.StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	fl.StringVar(&traceFile, "trace", "", "export this runtime trace instead of a scenario's run")
	fl.BoolVar(&scenario, "scenario", false, "with --trace: number goroutines as the scenario does (a trace from schedlab real)")
	fl.StringVar(&vs, "vs", "", "perfetto or svg: the model beside a real run, built and run now (real) or from a trace of schedlab real (a file)")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions("perfetto", "md", "svg", "gotrace", "cast", "gif"))
	_ = cmd.RegisterFlagCompletionFunc("fit", fixedCompletions("16:9", "4:3", "16:10"))
	return cmd
}

// exportScenario exports a run of the scenario name, alone or (vs) beside
// a real run of it.
func exportScenario(cmd *cobra.Command, name string, sim *simFlags, format, output string, out io.Writer, vs, psFlag string, o export.SVGOptions) error {
	over, err := sim.overrides(cmd)
	if err != nil {
		return err
	}
	if isRuntimeTrace(name) {
		return usageError{fmt.Errorf("%s is a runtime trace, not a scenario: export it with schedlab export --trace %s", name, name)}
	}
	sc, err := loadScenario(name, over)
	if err != nil {
		return err
	}
	cfg := sc.ConfigWith(over)
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", sc.File, err)}
	}
	if psFlag != "" {
		if o.Ps, err = parsePs(psFlag, cfg.Procs); err != nil {
			return usageError{err}
		}
	}
	var x export.Exporter
	switch {
	case vs != "":
		if format == "md" || format == "gotrace" {
			return usageError{errors.New("--vs makes a Perfetto file or a timeline: use --format perfetto or svg")}
		}
		realName, real, err := realRunOf(cmd, sc, cfg, vs)
		if err != nil {
			return err
		}
		if format == "perfetto" {
			x = export.NewPerfettoVersus(out, sc.Name, m, realName, real)
			break
		}
		if o.To == 0 {
			first, _ := gmp.New(cfg, sc.Program())
			first.Run()
			o.To = max(first.Now().D(), real.End())
		}
		svg, err := export.NewSVGVersus(out, sc.Name+": the model above a real run", m, realName, real, o)
		if err != nil {
			return usageError{err}
		}
		x = svg
	case format == "perfetto":
		x = export.NewPerfetto(out, sc.Name, m)
	case format == "gotrace":
		x = export.NewGoTrace(out, m)
	case format == "md" && output == "":
		x = export.NewHandout(out, sc, m, export.HandoutOptions{})
	case format == "md":
		// The handout's timeline is an image beside it.
		image := besideImage(output)
		svg, err := newSVG(sc, cfg, &lazyFile{path: image}, m, o)
		if err != nil {
			return usageError{err}
		}
		defer svg.file.Close()
		x = export.Both(export.NewHandout(out, sc, m, export.HandoutOptions{Timeline: filepath.Base(image)}), svg)
	default:
		svg, err := newSVG(sc, cfg, out, m, o)
		if err != nil {
			return usageError{err}
		}
		x = svg
	}
	end := export.Run(m, x)
	if err := x.End(m); err != nil {
		return runError{err}
	}
	if !sc.AsExpected(end) {
		return runError{fmt.Errorf("the run ended with %s: %v", end.Reason, end.Err)}
	}
	return nil
}

// besideImage is the timeline image written beside a handout: tour.md's
// is tour.svg.
func besideImage(output string) string {
	image := strings.TrimSuffix(output, filepath.Ext(output)) + ".svg"
	if image == output {
		image += ".svg"
	}
	return image
}

// realRunOf is the real run --vs names: one built and run now (real), or
// one schedlab real traced (a file), read in the scenario's numbering.
func realRunOf(cmd *cobra.Command, sc *scenarios.Scenario, cfg gmp.Config, vs string) (string, *recorded.Run, error) {
	if err := modelOnly(cmd, "policy", "noise", "max-events"); err != nil {
		return "", nil, err
	}
	path := vs
	label := "real: " + filepath.Base(vs)
	if vs == "real" {
		if sc.Expect != gmp.Running {
			return "", nil, usageError{fmt.Errorf("%s ends with %s by design, so it is not run for real: %s", sc.Name, sc.Expect, verify.NotRunForReal(sc.Expect))}
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "building and running %s for real…\n", sc.Name)
		ctx, stop := interruptible()
		defer stop()
		s, done, err := realSession(ctx, sc, cfg, realFlags{runs: 1, timeout: time.Minute})
		if err != nil {
			return "", nil, err
		}
		defer done()
		if path, err = s.Run(ctx, 1, time.Minute); err != nil {
			return "", nil, runError{err}
		}
		label = fmt.Sprintf("real: %s, GOMAXPROCS=%d", s.Toolchain.Version, cfg.Procs)
		run, err := openTraceRun(path, true)
		if err != nil {
			return "", nil, runError{err}
		}
		return label, run, nil
	}
	run, err := openTraceRun(path, true)
	if err != nil {
		return "", nil, usageError{fmt.Errorf("--vs: %w", err)}
	}
	return label, run, nil
}

// exportTrace exports the runtime trace in path.
func exportTrace(path string, scenario bool, format, output string, out io.Writer, psFlag string, o export.SVGOptions) error {
	f, err := os.Open(path)
	if err != nil {
		return usageError{fmt.Errorf("cannot read the trace: %w", err)}
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	run, sum, err := recorded.FromTrace(bufio.NewReader(f), scenario, size)
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", path, err)}
	}
	run.Label = "real: " + filepath.Base(path)
	if psFlag != "" {
		if o.Ps, err = parsePs(psFlag, run.Procs()); err != nil {
			return usageError{err}
		}
	}
	title := "Runtime trace " + filepath.Base(path)
	switch format {
	case "perfetto":
		err = export.WriteRecordedPerfetto(out, run.Label, run)
	case "svg":
		err = export.WriteRecordedSVG(out, title, run, o)
	default:
		var h export.HandoutOptions
		if output != "" {
			image := besideImage(output)
			img := &lazyFile{path: image}
			err = export.WriteRecordedSVG(img, title, run, o)
			if cerr := img.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				break
			}
			h.Timeline = filepath.Base(image)
		}
		err = export.WriteTraceHandout(out, title, run, sum, h)
	}
	if err != nil {
		return usageError{err}
	}
	return nil
}

// isRuntimeTrace says whether the file at path starts as a runtime trace
// does ("go 1.22 trace").
func isRuntimeTrace(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	return bytes.HasPrefix(head[:n], []byte("go 1.")) && bytes.Contains(head[:n], []byte(" trace"))
}

// parsePs reads --ps: Ps and ranges of Ps, "0-7" or "0,2,5-7", each once
// and each one the run has.
func parsePs(s string, procs int) ([]int, error) {
	var ps []int
	seen := map[int]bool{}
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("--ps %q: want Ps such as 0-7 or 0,2,5-7", s)
		}
		if b >= procs {
			return nil, fmt.Errorf("--ps %q: the run has Ps 0 to %d", s, procs-1)
		}
		for p := a; p <= b; p++ {
			if seen[p] {
				return nil, fmt.Errorf("--ps %q: P%d twice", s, p)
			}
			seen[p] = true
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// parseFit reads --fit, "16:9", as the image's width over its height; ""
// is 0, lanes of their natural height.
func parseFit(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	w, h, ok := strings.Cut(s, ":")
	a, err1 := strconv.Atoi(w)
	b, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || a < 1 || b < 1 || a > 100 || b > 100 || float64(a)/float64(b) > 10 || float64(b)/float64(a) > 10 {
		return 0, fmt.Errorf("--fit %q: want a shape such as 16:9 or 4:3", s)
	}
	return float64(a) / float64(b), nil
}

// lazyFile is an output file made by its first write.
type lazyFile struct {
	path string
	f    *os.File
	err  error
}

func (l *lazyFile) Write(b []byte) (int, error) {
	if l.f == nil && l.err == nil {
		l.f, l.err = os.Create(l.path)
	}
	if l.err != nil {
		return 0, fmt.Errorf("-o: %w", l.err)
	}
	return l.f.Write(b)
}

// Close closes the file, if it was made; a second call does nothing.
func (l *lazyFile) Close() error {
	if l.f == nil {
		return nil
	}
	f := l.f
	l.f, l.err = nil, os.ErrClosed
	return f.Close()
}

// svgFile is a timeline and the file it is written to, if it has one of
// its own.
type svgFile struct {
	*export.SVG
	file io.Closer
}

// End ends the timeline and closes its own file.
func (s svgFile) End(m *gmp.Machine) error {
	err := s.SVG.End(m)
	if s.file != nil {
		if cerr := s.file.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// newSVG starts sc's timeline on w over o, titled by the scenario. Its
// scale needs the run's end: without o.To a first run, which gives the
// same run, finds it.
func newSVG(sc *scenarios.Scenario, cfg gmp.Config, w io.Writer, m *gmp.Machine, o export.SVGOptions) (svgFile, error) {
	if o.To == 0 {
		first, err := gmp.New(cfg, sc.Program())
		if err != nil {
			return svgFile{}, err
		}
		first.Run()
		o.To = first.Now().D()
	}
	if o.To <= o.From {
		return svgFile{}, fmt.Errorf("--from %v is at or after the run's end, %v", o.From, o.To)
	}
	title := sc.Name
	if sc.Title != "" {
		title += " — " + sc.Title
	}
	s, err := export.NewSVG(w, title, m, o)
	if err != nil {
		return svgFile{}, err
	}
	f, _ := w.(*lazyFile)
	if f == nil {
		return svgFile{SVG: s}, nil
	}
	return svgFile{SVG: s, file: f}, nil
}
