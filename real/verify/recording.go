package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/jsonfile"
	"github.com/schedlab/schedlab/internal/safetext"
)

// A Recording is a series of real runs of one scenario as verify measured
// them, kept in a file (verify --record DIR) so that the model can be
// judged against the same runs again (--real-from DIR) without running
// the program, and so that two series taken at different times can be
// judged against each other (--control-from DIR): what the machine's
// drift between them does to the verdicts, which --control, whose two
// series follow each other, cannot show.
//
// A recording is a file anyone may send: ReadRecording bounds it, checks
// every figure, and names the file, and the line and column of what is not
// a recording's JSON, or the run and the figure it refuses.
type Recording struct {
	// Format is recordingFormat; a file of another format is refused.
	Format int `json:"schedlab_recording"`
	// Scenario is the scenario's name, Procs its GOMAXPROCS: a recording
	// is judged only against the same scenario on as many Ps.
	Scenario string `json:"scenario"`
	Procs    int    `json:"procs"`
	// CPUs is how many CPUs the machine had: the model shares them among
	// its threads where Ps outnumber them, so a recording is judged only
	// on a machine of as many.
	CPUs int `json:"cpus"`
	// Go is the toolchain that built the program; LoadBefore and
	// LoadAfter the machine's one-minute load average before the first
	// run and after the last, as the report has them.
	Go         string `json:"go"`
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
	// EndMarked says that the programs marked the scenario's end in their
	// traces (rtrace.EndMarkCategory), as every traced program verify
	// runs now does. A recording without it was made by programs that
	// did not: their windows ran on past main's return, to its close of
	// standard output in a program that prints, else into
	// runtime/trace.Stop (unmarkedNote).
	EndMarked bool `json:"end_marked,omitempty"`
	// Rules is the version of the rules the runs' figures were measured
	// by (measureRules). A recording made before the field has none: its
	// windows of a program with an until opened before the scenario, and
	// its P use left out all the P time the runtime's goroutines took,
	// wanted by the scenario or not (oldRulesNote).
	Rules int `json:"rules,omitempty"`
	// Runs are the runs' figures, in the order they ran.
	Runs []Observables `json:"runs"`
}

// unmarkedNote is the report's note on a recording of traced runs made
// by programs that did not mark the scenario's end.
func unmarkedNote(path string) string {
	return fmt.Sprintf("%s was recorded by programs that did not mark the scenario's end in their traces: its windows ran on past main's return, to the close of standard output in a program that prints, else into runtime/trace.Stop, which stops the world (tens of microseconds): record it again to judge the model by today's windows", path)
}

// measureRules is the version of the Recorder's rules that verify
// measures real runs by now: the window opens at main's first act in the
// scenario (rtrace's Event.BeforeScenario), and the runtime's goroutines'
// P time is left out of the P use only while a scenario goroutine was
// ready to run (Recorder.displacing).
const measureRules = 2

// oldRulesNote is the report's note on a recording of traced runs
// measured by rules before measureRules.
func oldRulesNote(path string) string {
	return fmt.Sprintf("%s was measured by older rules: it left out of the Ps' time all that the runtime's goroutines took, also where no scenario goroutine was ready (the tracer's start on an idle P: timer-2p's P use read 0.3 points higher), and a program with an until opened its window before the scenario: record it again to judge the model by today's rules", path)
}

// RecordingError is a recording verify was told to read and could not
// take: a file that is missing or is not one, or one of another
// scenario or machine. The command calls it a usage error.
type RecordingError struct{ Err error }

func (e *RecordingError) Error() string { return e.Err.Error() }
func (e *RecordingError) Unwrap() error { return e.Err }

// recordingFormat is the format Recording's files are written in.
const recordingFormat = 1

// Bounds of a recording: a series of real runs is a few kilobytes a run
// (more for a program that prints), so these refuse only what no verify
// run wrote.
const (
	maxRecordingBytes = 64 << 20
	maxRecordedRuns   = 10000
	maxRecordedLines  = 1 << 20
	maxRecordedText   = 256
	// A line a run printed: a print's text is at most gmp.MaxPrintText
	// bytes, and a real program's line may carry more of its own.
	maxRecordedLine = 4096
)

// RecordingPath is where the recording of scenario is kept in dir: a
// file named after the scenario, in lower-case letters, digits, - and _
// (a built-in's name as it is; a file's name such as "My Demo" as
// my-demo), so that no name reaches outside the folder. Two names that
// come to one file are told apart when it is read: the file says whose
// it is.
func RecordingPath(dir, scenario string) string {
	return filepath.Join(dir, fileName(scenario)+".json")
}

// fileName is scenario as RecordingPath names its file: every run of
// other characters one -, at most 100 bytes, and "scenario" for a name
// with nothing left.
func fileName(scenario string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(scenario) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 100 {
			break
		}
	}
	name := strings.TrimRight(b.String(), "-")
	if name == "" {
		return "scenario"
	}
	return name
}

// WriteRecording writes rec into dir, made if need be, as
// RecordingPath names it, in this schedlab's format.
func WriteRecording(dir string, rec *Recording) error {
	path := RecordingPath(dir, rec.Scenario)
	out := *rec
	out.Format = recordingFormat
	b, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadRecording reads the recording of scenario, run on procs Ps, from
// dir.
func ReadRecording(dir, scenario string, procs int) (*Recording, error) {
	path := RecordingPath(dir, scenario)
	data, err := jsonfile.ReadFile(path, maxRecordingBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no recording of %s here (verify --record %s writes one)", path, scenario, dir)
		}
		return nil, err
	}
	rec, err := ParseRecording(path, data)
	if err != nil {
		return nil, err
	}
	switch {
	case rec.Scenario != scenario:
		return nil, fmt.Errorf("%s: a recording of %q, not of %q", path, safetext.Clip(rec.Scenario, 40), scenario)
	case rec.Procs != procs:
		return nil, fmt.Errorf("%s: recorded with GOMAXPROCS=%d; the model runs %s on %d Ps (--procs %d judges it against this recording)", path, rec.Procs, scenario, procs, rec.Procs)
	case rec.CPUs != runtime.NumCPU():
		return nil, fmt.Errorf("%s: recorded on a machine of %d CPUs, and this one has %d: the model shares this machine's CPUs among its threads as the real runs shared theirs", path, rec.CPUs, runtime.NumCPU())
	}
	return rec, nil
}

// recordingKind is how jsonfile names a recording in its messages.
var recordingKind = jsonfile.Kind{Noun: "recording", Unknown: "a typo, or a recording of another schedlab's"}

// ParseRecording reads a recording from data, which came from file
// (named in the errors), and checks it.
func ParseRecording(file string, data []byte) (*Recording, error) {
	if len(data) > maxRecordingBytes {
		return nil, &gmp.Error{Pos: gmp.Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("larger than %d MiB: no verify run records that much", maxRecordingBytes>>20)}
	}
	var rec Recording
	if err := jsonfile.Decode(file, data, &rec, recordingKind); err != nil {
		return nil, err
	}
	if rec.Format != recordingFormat {
		return nil, fmt.Errorf("%s: not a recording this schedlab reads (schedlab_recording %d, want %d)", file, rec.Format, recordingFormat)
	}
	if err := rec.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &rec, nil
}

// check refuses what no verify run records: figures out of their range,
// text that is too long or not UTF-8 (it is shown in the report, made
// safe there as everything is: safetext), a series too long.
func (rec *Recording) check() error {
	if rec.Scenario == "" || !utf8.ValidString(rec.Scenario) || len(rec.Scenario) > maxRecordedText {
		return fmt.Errorf("scenario %q: want a scenario's name", safetext.Clip(rec.Scenario, 40))
	}
	if rec.Procs < 1 || rec.Procs > 1<<16 {
		return fmt.Errorf("procs %d: want 1 to 65536", rec.Procs)
	}
	if rec.CPUs < 1 || rec.CPUs > 1<<16 {
		return fmt.Errorf("cpus %d: want 1 to 65536", rec.CPUs)
	}
	if rec.Rules < 0 || rec.Rules > measureRules {
		return fmt.Errorf("rules %d: want %d or less (a later schedlab's recording measures by rules this one does not know)", rec.Rules, measureRules)
	}
	for _, f := range []struct{ name, text string }{{"go", rec.Go}, {"load_before", rec.LoadBefore}, {"load_after", rec.LoadAfter}} {
		if !utf8.ValidString(f.text) || len(f.text) > maxRecordedText {
			return fmt.Errorf("%s %q: want a short line of text", f.name, safetext.Clip(f.text, 40))
		}
	}
	switch n := len(rec.Runs); {
	case n == 0:
		return errors.New("no runs")
	case n > maxRecordedRuns:
		return fmt.Errorf("%d runs: at most %d", n, maxRecordedRuns)
	}
	lines := 0
	for i, o := range rec.Runs {
		if o.Untraced != rec.Runs[0].Untraced {
			return fmt.Errorf("run %d: traced and untraced runs in one series", i+1)
		}
		if err := o.check(); err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		lines += len(o.Output)
		if lines > maxRecordedLines {
			return fmt.Errorf("run %d: more than %d lines of output in all", i+1, maxRecordedLines)
		}
	}
	return nil
}

// check refuses a run's figures that no run measures.
func (o *Observables) check() error {
	for _, d := range []struct {
		name string
		v    int64
	}{
		{"makespan", int64(o.Makespan)}, {"goroutines", int64(o.Goroutines)}, {"peak live goroutines", int64(o.PeakLive)},
		{"preempted slices", int64(o.Preempted)}, {"P migrations", int64(o.Migrations)}, {"first goroutine started", o.FirstStarted},
		{"runtime syscall time", int64(o.RuntimeSyscall)}, {"runtime delay", int64(o.RuntimeDelay)}, {"runtime starts", int64(o.RuntimeStarts)},
		{"switches", int64(o.Switches)}, {"switch gap", int64(o.SwitchGap)}, {"stranded time", int64(o.Stranded)}, {"first preemption", int64(o.FirstPreempt)},
		{"CPU time", int64(o.CPUTime)}, {"tracer lead", int64(o.TracerLead)},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s %d: below zero", d.name, d.v)
		}
	}
	for _, f := range []struct {
		name string
		pace *Pace
	}{{"pace_before", o.PaceBefore}, {"pace_after", o.PaceAfter}} {
		if f.pace != nil && !f.pace.Valid() {
			return fmt.Errorf("%s: a hand-off of %dns and a spin round of %dns: want each above 0 and below a second", f.name, f.pace.Handoff, f.pace.Spin)
		}
	}
	if len(o.Longest) > longestKept {
		return fmt.Errorf("%d longest slices: at most %d", len(o.Longest), longestKept)
	}
	for i, d := range o.Longest {
		if d < 0 || i > 0 && d > o.Longest[i-1] {
			return fmt.Errorf("longest slice %d of %dns: want the slices' lengths, 0 or more, longest first", i+1, d)
		}
	}
	if math.IsNaN(o.Utilisation) || o.Utilisation < 0 || o.Utilisation > 1 {
		return fmt.Errorf("the P utilisation %v: want 0 to 1", o.Utilisation)
	}
	if o.Untraced && !isEnding(o.Ended) || !o.Untraced && o.Ended != "" {
		return fmt.Errorf("ended %q: want deadlock, panic or exit status N for an untraced run, nothing for a traced one", safetext.Clip(o.Ended, 40))
	}
	for _, line := range o.Output {
		if !utf8.ValidString(line) || strings.ContainsAny(line, "\n\r") || len(line) > maxRecordedLine {
			return fmt.Errorf("output line %q: want a short line of text", safetext.Clip(line, 40))
		}
	}
	return nil
}
