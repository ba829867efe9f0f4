package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/view/tui"
)

// Recordings (export --format cast|gif) walk the scenario note by note in
// the UI's own frames (tui.Record), for asciinema, a course page or a
// slide.

// recordFlags are export's flags for recordings.
type recordFlags struct {
	size  string
	theme string
}

func (f *recordFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.size, "size", "100x30", "cast, gif: the UI's size in cells, COLSxROWS (80x24 to 1000x500)")
	fl.StringVar(&f.theme, "theme", "default", "cast, gif: the UI's colours: default, light, projector or mono")
	_ = cmd.RegisterFlagCompletionFunc("size", fixedCompletions("80x24", "100x30", "120x40"))
	_ = cmd.RegisterFlagCompletionFunc("theme", fixedCompletions("default", "light", "projector", "mono"))
}

// isRecording says whether format is one of them.
func isRecording(format string) bool { return format == "cast" || format == "gif" }

// writeRecording records sc and writes it in format to output, or to
// stdout when output is "".
func writeRecording(sc *scenarios.Scenario, over scenarios.Overrides, format, output string, f recordFlags, stdout io.Writer) error {
	var w, h int
	if _, err := fmt.Sscanf(f.size, "%dx%d", &w, &h); err != nil || fmt.Sprintf("%dx%d", w, h) != f.size {
		return usageError{fmt.Errorf("--size %q: write COLSxROWS, such as 100x30", f.size)}
	}
	if !slices.Contains([]string{"default", "light", "projector", "mono"}, f.theme) {
		return usageError{fmt.Errorf("--theme %q: use default, light, projector or mono", f.theme)}
	}
	o := tui.Options{Theme: f.theme, Mono: f.theme == "mono", Light: f.theme == "light"}
	rec, err := tui.Record(sc, sc.ConfigWith(over), o, w, h)
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", sc.File, err)}
	}
	out := stdout
	var file *os.File
	if output != "" {
		if file, err = os.Create(output); err != nil {
			return usageError{fmt.Errorf("-o: %w", err)}
		}
		defer file.Close()
		out = file
	}
	if format == "gif" {
		err = rec.WriteGIF(out)
	} else {
		err = rec.WriteCast(out)
	}
	if err == nil && file != nil {
		err = file.Close()
	}
	if err != nil {
		return runError{err}
	}
	return nil
}

// recordingHelp is export's help for the recordings.
var recordingHelp = strings.TrimPrefix(`
  --format cast      an asciicast v2 file that walks the scenario note by
                     note in the UI's own frames (presenter mode: each note
                     large), each held long enough to read; asciinema play
                     and the web players of a course page show it.
  --format gif       the same walk as an animated GIF, each cell drawn with
                     a 7×13 bitmap font, in ASCII.
                     --size and --theme choose the UI's size and colours.`, "\n")
