// Package tracelog writes a simulation's events as a trace: aligned text
// for people, or JSON lines for programs. Sentences come from the gmp
// describer, so the trace says exactly what the UI says.
package tracelog

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim"
)

// Format selects the output format.
type Format int

const (
	Text  Format = iota // one aligned line per event
	JSONL               // one JSON object per line
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "text", "":
		return Text, nil
	case "jsonl":
		return JSONL, nil
	}
	return Text, fmt.Errorf("unknown format %q: use text or jsonl", s)
}

// Writer writes events, scenario notes and schedtrace lines in time order.
type Writer struct {
	w      *bufio.Writer
	format Format
	d      *gmp.Describer
	// Events controls whether events and notes are written (schedtrace
	// output alone can be asked for).
	Events bool
	notes  []scenarios.Note
	used   []bool
	seen   map[gmp.Kind]bool
}

// New returns a writer to w for a run described by d with the given notes.
func New(w io.Writer, format Format, d *gmp.Describer, notes []scenarios.Note) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: format, d: d, Events: true, notes: notes,
		used: make([]bool, len(notes)), seen: map[gmp.Kind]bool{}}
}

// Event writes e, preceded by notes whose time has come and followed by
// notes attached to the first event of its kind.
func (w *Writer) Event(e gmp.Event) {
	w.timeNotes(e.T)
	if w.Events {
		if w.format == JSONL {
			w.jsonEvent(e)
		} else {
			w.textEvent(e)
		}
	}
	if !w.seen[e.Kind] {
		w.seen[e.Kind] = true
		for i, n := range w.notes {
			if !w.used[i] && !n.HasAt && n.On == e.Kind {
				w.used[i] = true
				w.note(e.T, n)
			}
		}
	}
}

// SchedTrace writes a GODEBUG=schedtrace line produced at t.
func (w *Writer) SchedTrace(t sim.Time, line string) {
	w.timeNotes(t)
	if w.format == JSONL {
		w.w.WriteString(`{"t":` + strconv.FormatInt(int64(t), 10) + `,"kind":"schedtrace","why":` + strconv.Quote(line) + "}\n")
		return
	}
	w.w.WriteString(line + "\n")
}

// End writes the notes the run never reached, and how it ended, then
// flushes. It returns the first write error.
func (w *Writer) End(m *gmp.Machine) error {
	for i, n := range w.notes {
		if w.used[i] || !w.Events {
			continue
		}
		w.used[i] = true
		when := "at " + n.At.String()
		if !n.HasAt {
			when = "on " + n.On.String()
		}
		msg := fmt.Sprintf("note %s (%s) was not reached: the run ended at %v", when, n.Pos, m.Now())
		if w.format == JSONL {
			w.w.WriteString(`{"t":` + strconv.FormatInt(int64(m.Now()), 10) + `,"kind":"note-unreached","why":` + strconv.Quote(msg) + "}\n")
		} else {
			w.w.WriteString("# " + msg + "\n")
		}
	}
	if w.format == Text && w.Events {
		end := m.End()
		w.w.WriteString(fmt.Sprintf("# end: %s at %v after %d events; %d goroutines created, %d threads; Ps idle %v while goroutines waited\n",
			end.Reason, m.Now(), m.Emitted(), m.NumG()-1, m.NumM(), m.IdleWhileRunnable()))
	}
	return w.w.Flush()
}

func (w *Writer) timeNotes(t sim.Time) {
	for i, n := range w.notes {
		if !w.used[i] && n.HasAt && sim.Time(n.At) <= t {
			w.used[i] = true
			w.note(sim.Time(n.At), n)
		}
	}
}

func (w *Writer) note(t sim.Time, n scenarios.Note) {
	if !w.Events {
		return
	}
	if w.format == JSONL {
		w.w.WriteString(`{"t":` + strconv.FormatInt(int64(t), 10) + `,"kind":"note","why":` + strconv.Quote(n.Text) + "}\n")
		return
	}
	for _, line := range strings.Split(n.Text, "\n") {
		w.w.WriteString("   note: " + line + "\n")
	}
}

func (w *Writer) textEvent(e gmp.Event) {
	fmt.Fprintf(w.w, "%12s  %-3s %-3s  %-13s  %s", e.T, e.P, e.M, e.Kind, w.d.Describe(e))
	if fn := e.Fn(); fn != "" {
		w.w.WriteString("  [" + fn + "]")
	}
	w.w.WriteByte('\n')
}

func (w *Writer) jsonEvent(e gmp.Event) {
	b := w.w
	b.WriteString(`{"t":`)
	b.WriteString(strconv.FormatInt(int64(e.T), 10))
	b.WriteString(`,"kind":"` + e.Kind.String() + `"`)
	if e.G != gmp.NoG {
		b.WriteString(`,"g":` + strconv.Itoa(int(e.G)))
	}
	if e.P != gmp.NoP {
		b.WriteString(`,"p":` + strconv.Itoa(int(e.P)))
	}
	if e.M != gmp.NoM {
		b.WriteString(`,"m":` + strconv.Itoa(int(e.M)))
	}
	if !e.From.IsZero() {
		b.WriteString(`,"from":` + strconv.Quote(w.d.Loc(e.From)))
	}
	if !e.To.IsZero() {
		b.WriteString(`,"to":` + strconv.Quote(w.d.Loc(e.To)))
	}
	if e.Reason != gmp.NoReason {
		b.WriteString(`,"reason":` + strconv.Quote(e.Reason.String()))
	}
	if fn := e.Fn(); fn != "" {
		b.WriteString(`,"fn":` + strconv.Quote(fn))
	}
	b.WriteString(`,"why":` + strconv.Quote(w.d.Describe(e)))
	if e.Op != nil && e.Op.Pos.Line > 0 {
		b.WriteString(`,"src":` + strconv.Quote(e.Op.Pos.String()))
	}
	b.WriteString("}\n")
}

// Options choose how a scenario is run and traced.
type Options struct {
	Format Format
	// Overrides replace the scenario's values (seed, procs, until…).
	scenarios.Overrides
	Check      bool
	SchedTrace time.Duration
	Detail     bool
	// NoEvents leaves events out (for schedtrace output alone).
	NoEvents bool
}

// Config builds the simulation configuration for sc under o.
func (o Options) Config(sc *scenarios.Scenario) gmp.Config {
	cfg := sc.ConfigWith(o.Overrides)
	cfg.Check = o.Check
	cfg.MeasureIdle = true // for the end line's work conservation
	cfg.SchedTrace = o.SchedTrace
	cfg.SchedDetail = o.Detail
	return cfg
}

// Run simulates sc and writes its trace to out. It returns how the run
// ended; End.Err is set when the program deadlocked or panicked, or the
// model broke an invariant. The error is for failures to run at all.
func Run(sc *scenarios.Scenario, o Options, out io.Writer) (gmp.End, *gmp.Machine, error) {
	m, err := gmp.New(o.Config(sc), sc.Program())
	if err != nil {
		return gmp.End{}, nil, err
	}
	w := New(out, o.Format, gmp.NewDescriber(sc.Program()), sc.Notes)
	w.Events = !o.NoEvents
	m.SetSink(w.Event)
	m.SetSchedTraceSink(func(line string) { w.SchedTrace(m.Now(), line) })
	end := m.Run()
	if err := w.End(m); err != nil {
		return end, m, err
	}
	return end, m, nil
}
