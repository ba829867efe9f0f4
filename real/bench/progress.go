package bench

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/table"
)

// Progress says how far a bench has got. Run calls its progress function
// with one when it starts calibrating, when each run starts and ends, and
// every progressEvery during a run; never from two goroutines at once.
type Progress struct {
	// Calibrating is set while the busy loop is timed, before any run;
	// the other fields are then zero.
	Calibrating bool
	Mode        taskmode.Mode
	// Run counts from 1 to Runs. The traced run comes after them, with
	// Traced set and Run = Runs + 1.
	Run, Runs int
	Traced    bool
	// Done of Total tasks have finished in this run.
	Done, Total int
}

func (p Progress) String() string {
	if p.Calibrating {
		return "calibrating the CPU task"
	}
	run := fmt.Sprintf("run %d of %d", p.Run, p.Runs)
	if p.Traced {
		run = "traced run"
	}
	return fmt.Sprintf("%s, %s: %s / %s tasks", p.Mode, run, table.Count(uint64(p.Done)), table.Count(uint64(p.Total)))
}

// ProgressLine shows the progress on one terminal line that each update
// rewrites (carriage return, then erase to the end of the line). It is
// meant for stderr on a terminal; the report goes elsewhere.
type ProgressLine struct {
	w     io.Writer
	shown bool
}

// NewProgressLine returns a ProgressLine that writes to w.
func NewProgressLine(w io.Writer) *ProgressLine { return &ProgressLine{w: w} }

// eraseLine goes back to the start of the line and erases it (ECMA-48 EL).
const eraseLine = "\r\x1b[K"

// Show replaces the line with p.
func (l *ProgressLine) Show(p Progress) {
	fmt.Fprintf(l.w, "%sschedlab bench: %s", eraseLine, p)
	l.shown = true
}

// Clear erases the line, if anything was shown, so that what follows
// starts on a clean line.
func (l *ProgressLine) Clear() {
	if l.shown {
		io.WriteString(l.w, eraseLine)
		l.shown = false
	}
}
