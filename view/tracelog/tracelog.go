// Package tracelog writes a simulation's events as a trace: aligned text
// for people, or JSON lines for programs. Sentences come from the gmp
// describer, so the trace says exactly what the UI says.
package tracelog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/decimal"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Format selects the output format.
type Format int

const (
	Text  Format = iota // one aligned line per event
	JSONL               // one JSON object per line
	None                // no events: only how the run ended
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "text", "":
		return Text, nil
	case "jsonl":
		return JSONL, nil
	case "none":
		return None, nil
	}
	return Text, fmt.Errorf("unknown format %q: use text, jsonl or none", s)
}

// bufferSize is how much output is kept before it is written: a trace
// runs to hundreds of thousands of lines, and a small buffer makes a write
// call every few dozen.
const bufferSize = 256 << 10

// Writer writes events, scenario notes and schedtrace lines in time order.
// Each line is appended straight into the output buffer, which is written
// out when it is full: a line copied from a buffer of its own into a
// bufio.Writer was a second copy of every byte of the trace.
type Writer struct {
	out  io.Writer
	buf  []byte // output not yet written; lines are appended to it
	err  error  // the first write error; nothing is written after it
	text []byte // a sentence or place that needs escaping, copied out of the line
	// scratch is where a field is made before it is kept (field.setTo):
	// places and positions that share a cache entry take turns in it,
	// and a field made afresh each turn would allocate.
	scratch []byte
	format  Format
	d       *gmp.Describer
	// Events controls whether events and notes are written (schedtrace
	// output alone can be asked for).
	Events bool
	notes  []scenarios.Note
	places *scenarios.NoteTracker
	// unplaced counts the notes not yet placed; each is placed once.
	unplaced int
	n        int // events written so far
	// plainJSON and plainTerm say that every name the describer may put
	// in a sentence, and so every sentence of a rule that holds no other
	// text of the program (gmp.Describer.OnlyNames), is already a JSON
	// string's body, or safe on a terminal: then those sentences are
	// appended without the test of each one, which was a sixth of the
	// cost of a JSON line.
	plainJSON, plainTerm bool
	// The JSON of values that repeat from line to line, made once: a
	// rule's "fn", a reason, a place, an action's "src". A JSON line has
	// a dozen fields, and writing and quoting each afresh was a third of
	// its cost.
	fnJSON     [256]field // `,"fn":"…","why":"`, by rule; unset until first met
	reasonJSON [256]field // by reason
	kindJSON   [256]field // `,"kind":"go-start"`, by kind
	locJSON    [locCacheSize]locEntry
	locLong    [locCacheSize][]byte // an entry's string when longer than locSize
	srcJSON    [srcCacheSize]srcEntry
	// The line's start, `{"t":` and the time, kept for the next line:
	// half the lines of a run share their time with the line before.
	lastT  sim.Time
	tField field
	// tThousands is lastT/1000 when lastT is at least 1000, else 0.
	// Of the lines that start a new time, most differ from the time
	// before only in its last three digits (a run's steps are
	// microseconds apart): such a line copies the field and rewrites
	// those three digits, in the line and in the field, where writing
	// all the digits took two calls and a dozen divisions' worth of
	// multiplies.
	tThousands int64
	// ev is a copy of an event handed to Event by value: the describer
	// takes the event by pointer, through its table of wordings, which
	// escape analysis cannot see into, so a pointer to Event's own
	// parameter would put every event on the heap. Run's machine hands
	// its events over by pointer instead (eventRef), with no copy.
	ev gmp.Event
}

// A field is a piece of a JSON line made once and copied into every line
// that has it. A piece of up to fieldSize bytes is copied as a whole
// array, fieldSize bytes of which the line keeps its own: two moves and no
// test of its length. Copied as a slice, each was a call to memmove and
// its tests of the length.
type field struct {
	set  bool
	n    int             // the length
	b    [fieldSize]byte // the bytes, when n <= fieldSize
	long []byte          // the bytes, when longer (a long channel name)
}

// fieldSize is 64 so that an action's "src", `,"src":"` and a scenario's
// path and position, most often over 32 bytes, is copied whole too: at
// 32 it took the slow way on nearly every line, a call to memmove, some
// 9 ns of the 64-P run's 200 ns a line.
const fieldSize = 64

// setTo makes f hold b.
func (f *field) setTo(b []byte) {
	f.set, f.n = true, len(b)
	if len(b) <= fieldSize {
		f.b = [fieldSize]byte{}
		copy(f.b[:], b)
	} else {
		// The slice is reused: an entry that a long place and a short
		// one take turns in would allocate each turn otherwise.
		f.long = append(f.long[:0], b...)
	}
}

// keep makes f hold b[start:], a piece just appended to a line in the
// writer's buffer: the fieldSize bytes from start copied as a whole array
// when the buffer has them, whatever lies past the piece with them, as
// appendTo keeps only f.n bytes. Half of a run's lines start a new time,
// and setTo's clearing and copying by length was a call or two each.
func (f *field) keep(b []byte, start int) {
	if n := len(b) - start; n <= fieldSize && cap(b)-start >= fieldSize {
		f.set, f.n = true, n
		f.b = *(*[fieldSize]byte)(b[start : start+fieldSize])
		return
	}
	f.setTo(b[start:])
}

// appendTo appends f to b. A line is written into a buffer that keeps
// room after it (New), so the whole-array copy nearly always fits. It is
// small enough for the compiler to inline, which a line's half a dozen
// fields are worth: its rare case is an append, not a call to a function
// of its own, which the compiler counts as costing more than all the rest
// (BenchmarkWrite procs=64 jsonl 71 -> 67 ns/event).
func (f *field) appendTo(b []byte) []byte {
	l := len(b)
	if f.n > fieldSize || cap(b)-l < fieldSize {
		return append(b, f.bytes()...)
	}
	*(*[fieldSize]byte)(b[l : l+fieldSize]) = f.b
	return b[:l+f.n]
}

// bytes is what f holds.
func (f *field) bytes() []byte {
	if f.n <= fieldSize {
		return f.b[:f.n]
	}
	return f.long
}

// smallFields holds a JSON field of a small number, key and value, such
// as `,"p":12`, for each value below 1000 (so that it fits one word): every
// line names a P and an M, and copying a word is cheaper than writing
// the digits, two calls and a division or two.
type smallFields struct {
	key   string
	words [1000]uint64 // the field's bytes, little-endian; zero past them
}

var (
	pFields = newSmallFields(`,"p":`)
	mFields = newSmallFields(`,"m":`)
)

func newSmallFields(key string) *smallFields {
	f := &smallFields{key: key}
	for i := range f.words {
		var w [8]byte
		copy(w[:], decimal.AppendInt([]byte(key), int64(i)))
		f.words[i] = binary.LittleEndian.Uint64(w[:])
	}
	return f
}

// put appends the field of value i. The word is written whole into
// the buffer's spare room and as many of its bytes kept as the field
// has; a line is written into a buffer with room after it (New).
//
// It reports false, and appends nothing, for a value past the table or a
// buffer without the room: then the caller calls appendSlowly. The call
// is the caller's so that put is small enough to be inlined into the
// line's code; a line names a P and an M, and each was a call.
func (f *smallFields) put(b []byte, i int64) ([]byte, bool) {
	l := len(b)
	if uint64(i) >= uint64(len(f.words)) || cap(b)-l < 8 {
		return b, false
	}
	x := f.words[i]
	binary.LittleEndian.PutUint64(b[l:l+8], x)
	// The word's bytes past the field are zero.
	return b[:l+8-bits.LeadingZeros64(x)/8], true
}

// appendSlowly appends the field of value i when put cannot.
//
//go:noinline
func (f *smallFields) appendSlowly(b []byte, i int64) []byte {
	return decimal.AppendInt(append(b, f.key...), i)
}

// locCacheSize is the number of places whose JSON string is remembered:
// a few kinds for each of up to a few hundred Ps.
const locCacheSize = 1024

// A locEntry is a place and its JSON string, in 32 bytes: a run's lines
// name a few places for each P, and at the 104 bytes of a field the
// entries of 64 Ps' places filled most of the CPU's first cache, and a
// line's two places were four of its lines.
type locEntry struct {
	loc gmp.Loc
	n   int32         // the string's length; 0 for an empty entry
	b   [locSize]byte // the string, when n <= locSize (else locLong)
}

// locSize is the longest place string an entry holds itself:
// "timer:P12", "P100.runnext" and their quotes are at most 14 bytes.
const locSize = 20

// srcCacheSize is the number of actions whose "src" is remembered, by
// position: a run's events come from a few actions at a time.
const srcCacheSize = 64

type srcEntry struct {
	// op is the action last found here, whose position is pos: the
	// run's events name a few actions, each many times, and comparing
	// the pointer is one test where comparing positions compared the
	// file names too, a call each line.
	op   *gmp.Op
	pos  gmp.Pos
	json field // `,"src":"file:line:col"`; unset for an empty entry
}

// New returns a writer to w for a run described by d with the given notes.
func New(w io.Writer, format Format, d *gmp.Describer, notes []scenarios.Note) *Writer {
	wr := &Writer{out: w, buf: make([]byte, 0, bufferSize+4<<10), format: format, d: d, Events: true, notes: notes,
		places: scenarios.NewNoteTracker(notes), unplaced: len(notes), plainJSON: true, plainTerm: true}
	for _, name := range d.Names() {
		wr.plainJSON = wr.plainJSON && plainRun(name, 0) == len(name)
		wr.plainTerm = wr.plainTerm && safetext.IsTerm(name)
	}
	return wr
}

// flushIfFull writes the buffer out once it holds bufferSize bytes; a line
// may take it a little past that.
func (w *Writer) flushIfFull() {
	if len(w.buf) >= bufferSize {
		w.flush()
	}
}

// flush writes the buffer out, unless an earlier write failed.
func (w *Writer) flush() {
	if w.err == nil && len(w.buf) > 0 {
		_, w.err = w.out.Write(w.buf)
	}
	w.buf = w.buf[:0]
}

// Event writes e with the notes placed on it (scenarios.NoteTracker): a
// note at a time comes before the event, at its time; a note on an event
// comes after it.
func (w *Writer) Event(ev gmp.Event) {
	w.ev = ev
	w.eventRef(&w.ev)
}

// eventRef is Event of an event the caller holds, which it must not
// change during the call: the machine's sink (gmp.Machine.SetEventSink).
func (w *Writer) eventRef(e *gmp.Event) {
	if w.unplaced > 0 {
		w.eventPlacingNotes(e)
		return
	}
	// Every note is placed (a run with none: from the start): there is
	// nothing to look for.
	w.n++
	if w.Events {
		if w.format == JSONL {
			w.jsonEvent(e)
		} else {
			w.textEvent(e)
		}
	}
	w.flushIfFull()
}

// eventPlacingNotes is eventRef while a note is still to be placed. It
// writes the line as eventRef does, the same seven lines: with them in a
// method both called, every event of a run paid a call more, 9
// instructions an event of procs64's JSON lines (valgrind
// --tool=cachegrind), which eventRef's short path was written to save.
func (w *Writer) eventPlacingNotes(e *gmp.Event) {
	placed := w.places.Observe(w.n, e)
	w.unplaced -= len(placed)
	w.n++
	for _, i := range placed {
		if n := w.notes[i]; n.Moment.HasAt {
			w.note(sim.Time(n.Moment.At), n)
		}
	}
	if w.Events {
		if w.format == JSONL {
			w.jsonEvent(e)
		} else {
			w.textEvent(e)
		}
	}
	for _, i := range placed {
		if n := w.notes[i]; !n.Moment.HasAt {
			w.note(e.T, n)
		}
	}
	w.flushIfFull()
}

// SchedTrace writes a GODEBUG=schedtrace line produced at t.
func (w *Writer) SchedTrace(t sim.Time, line string) {
	if w.format == JSONL {
		w.record(t, "schedtrace", line)
		return
	}
	// The scheddetail lines name what waits where, in the scenario's
	// names.
	w.buf = append(safetext.AppendTerm(w.buf, line), '\n')
	w.flushIfFull()
}

// record writes a JSONL record of a kind with only a time and a sentence.
func (w *Writer) record(t sim.Time, kind, why string) {
	b := append(w.buf, `{"t":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `,"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","why":`...)
	b = appendString(b, why)
	w.buf = append(b, "}\n"...)
}

// End writes the notes the run never reached, and how it ended, then
// flushes. asExpected says whether the run ended as the scenario means
// it to (expect:). It returns the first write error.
func (w *Writer) End(m *gmp.Machine, asExpected bool) error {
	for _, i := range w.places.Unreached() {
		if !w.Events {
			break
		}
		n := w.notes[i]
		msg := fmt.Sprintf("note %s (%s) was not reached: the run ended at %v", strings.Replace(n.Moment.String(), ": ", " ", 1), n.Pos, m.Now())
		if w.format == JSONL {
			w.record(m.Now(), "note-unreached", msg)
		} else {
			w.buf = append(safetext.AppendTerm(append(w.buf, "# "...), msg), '\n')
		}
	}
	switch {
	case w.format == JSONL:
		w.endRecord(m, asExpected)
	case w.Events || w.format == None:
		end := m.End()
		w.buf = fmt.Appendf(w.buf, "# end: %s at %v after %d events; %d goroutines created, %d threads; Ps idle %v while goroutines waited\n",
			end.Reason, m.Now(), m.Emitted(), m.NumG()-1, m.NumM(), m.IdleWhileRunnable())
	}
	w.flush()
	return w.err
}

// endRecord is the JSONL record of how the run ended (docs/jsonl.md).
func (w *Writer) endRecord(m *gmp.Machine, asExpected bool) {
	end := m.End()
	b := append(w.buf, `{"t":`...)
	b = strconv.AppendInt(b, int64(m.Now()), 10)
	b = append(b, `,"kind":"end","reason":`...)
	b = appendString(b, end.Reason.String())
	b = append(b, `,"as_expected":`...)
	b = strconv.AppendBool(b, asExpected)
	b = append(b, `,"events":`...)
	b = strconv.AppendInt(b, int64(m.Emitted()), 10)
	b = append(b, `,"goroutines":`...)
	b = strconv.AppendInt(b, int64(m.NumG()-1), 10)
	b = append(b, `,"threads":`...)
	b = strconv.AppendInt(b, int64(m.NumM()), 10)
	b = append(b, `,"idle_while_runnable_ns":`...)
	b = strconv.AppendInt(b, int64(m.IdleWhileRunnable()), 10)
	if end.Err != nil {
		b = append(b, `,"error":`...)
		b = appendString(b, end.Err.Error())
		var re *gmp.Error
		if errors.As(end.Err, &re) && re.Pos.Line > 0 {
			b = append(b, `,"src":`...)
			b = appendString(b, re.Pos.String())
		}
	}
	if blocked := m.BlockedAtEnd(); len(blocked) > 0 {
		b = append(b, `,"blocked":[`...)
		for i, bl := range blocked {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"g":`...)
			b = strconv.AppendInt(b, int64(bl.G), 10)
			b = append(b, `,"why":`...)
			b = appendString(b, bl.Why)
			if bl.Pos.Line > 0 {
				b = append(b, `,"src":`...)
				b = appendString(b, bl.Pos.String())
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	w.buf = append(b, "}\n"...)
}

func (w *Writer) note(t sim.Time, n scenarios.Note) {
	if !w.Events {
		return
	}
	if w.format == JSONL {
		w.record(t, "note", n.Text)
		return
	}
	// A note's lines are the trace's lines, each marked as the note's;
	// anything else in it that would act on a terminal is shown instead.
	for line := range strings.SplitSeq(n.Text, "\n") {
		w.buf = append(safetext.AppendTerm(append(w.buf, "   note: "...), line), '\n')
	}
}

func (w *Writer) textEvent(e *gmp.Event) {
	// As fmt's "%12s  %-3s %-3s  %-13s  %s" of e.T, e.P, e.M, e.Kind and
	// the sentence, appended with no string made on the way. Times, IDs
	// and kinds are ASCII, so a byte is a column.
	var t [24]byte
	b := padLeft(w.buf, sim.AppendMillis(t[:0], e.T.D()), 12)
	b = append(b, "  "...)
	start := len(b)
	b = padTo(gmp.AppendP(b, e.P), start+3)
	b = append(b, ' ')
	start = len(b)
	b = padTo(gmp.AppendM(b, e.M), start+3)
	b = append(b, "  "...)
	start = len(b)
	b = padTo(append(b, e.Kind.String()...), start+13)
	b = append(b, "  "...)
	if w.plainTerm && w.d.OnlyNames(e.Rule) {
		b = w.d.AppendDescribe(b, e)
	} else {
		start = len(b)
		b = w.visibleFrom(w.d.AppendDescribe(b, e), start)
	}
	if fn := e.Fn(); fn != "" {
		b = append(b, "  ["...)
		b = append(b, fn...)
		b = append(b, ']')
	}
	w.buf = append(b, '\n')
}

// padLeft appends s after spaces that right-align it in width bytes.
func padLeft(b, s []byte, width int) []byte {
	for n := len(s); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// padTo appends spaces to b up to length end, left-aligning what was
// appended last.
func padTo(b []byte, end int) []byte {
	for len(b) < end {
		b = append(b, ' ')
	}
	return b
}

func (w *Writer) jsonEvent(e *gmp.Event) {
	var b []byte
	switch k := int64(e.T) / 1000; {
	case e.T == w.lastT && w.tField.set:
		b = w.tField.appendTo(w.buf)
	case k == w.tThousands && k > 0:
		b = w.tField.appendTo(w.buf)
		d := paddedThree[int64(e.T)-k*1000]
		l, n := len(b), w.tField.n
		binary.LittleEndian.PutUint16(b[l-3:], uint16(d))
		b[l-1] = byte(d >> 16)
		binary.LittleEndian.PutUint16(w.tField.b[n-3:], uint16(d))
		w.tField.b[n-1] = byte(d >> 16)
		w.lastT = e.T
	default:
		start := len(w.buf)
		b = appendInt(append(w.buf, `{"t":`...), int64(e.T))
		w.lastT, w.tThousands = e.T, k
		w.tField.keep(b, start)
	}
	b = w.kindField(e.Kind).appendTo(b)
	if e.G != gmp.NoG {
		// Numbers are written into the writer's own buffer, as words
		// stored past the line (decimal.AppendOwned), each one call:
		// appendInt's test of the sign, written out here, since with it
		// appendInt is too big to inline and was a second call. A
		// goroutine's number handed to Event can be negative.
		b = append(b, `,"g":`...)
		if e.G >= 0 {
			b = decimal.AppendOwned(b, uint64(e.G))
		} else {
			b = appendNegative(b, int64(e.G))
		}
	}
	if e.P != gmp.NoP {
		var ok bool
		if b, ok = pFields.put(b, int64(e.P)); !ok {
			b = pFields.appendSlowly(b, int64(e.P))
		}
	}
	if e.M != gmp.NoM {
		var ok bool
		if b, ok = mFields.put(b, int64(e.M)); !ok {
			b = mFields.appendSlowly(b, int64(e.M))
		}
	}
	if !e.From.IsZero() {
		var ok bool
		if b, ok = w.putLoc(append(b, `,"from":`...), e.From); !ok {
			b = w.appendLocSlowly(b, e.From)
		}
	}
	if !e.To.IsZero() {
		var ok bool
		if b, ok = w.putLoc(append(b, `,"to":`...), e.To); !ok {
			b = w.appendLocSlowly(b, e.To)
		}
	}
	if e.Reason != gmp.NoReason {
		b = w.reasonField(e.Reason).appendTo(b)
	}
	b = w.fnWhyField(e.Rule).appendTo(b)
	if w.plainJSON && w.d.OnlyNames(e.Rule) {
		b = append(w.d.AppendDescribe(b, e), '"')
	} else {
		start := len(b)
		b = w.quoteFrom(w.d.AppendDescribe(b, e), start)
	}
	if e.Op != nil && e.Op.Pos.Line > 0 {
		b = w.srcField(e.Op).appendTo(b)
	}
	if e.Kind == gmp.KindPrint {
		// The program's output: the scenario's text, escaped.
		b = append(b, `,"text":`...)
		b = appendString(b, e.Text())
	}
	if e.Cause >= 0 {
		// The model counts events from 0; people, the UI and the handout
		// count them from 1 (docs/jsonl.md).
		b = append(b, `,"cause":`...)
		b = decimal.AppendOwned(b, uint64(e.Cause)+1)
	}
	w.buf = append(b, "}\n"...)
}

// appendInt appends i in decimal to b, a line in the writer's own buffer,
// whose spare room nothing else holds: the digits are stored as whole
// words past the line and as many kept as i has (decimal.AppendOwned),
// with no copy of them out of a local array.
func appendInt(b []byte, i int64) []byte {
	if i < 0 {
		return appendNegative(b, i)
	}
	return decimal.AppendOwned(b, uint64(i))
}

// appendNegative appends a negative number: rare, and apart so that the
// line's code does not grow with it.
//
//go:noinline
func appendNegative(b []byte, i int64) []byte { return decimal.AppendInt(b, i) }

// paddedThree holds each number below 1000 as three digits, leading
// zeros and all, little-endian: the last three digits of a time.
var paddedThree = func() (t [1000]uint32) {
	for i := range t {
		t[i] = uint32('0'+i/100) | uint32('0'+i/10%10)<<8 | uint32('0'+i%10)<<16
	}
	return t
}()

// kindField is `,"kind":"…"` of kind k.
func (w *Writer) kindField(k gmp.Kind) *field {
	f := &w.kindJSON[k]
	if !f.set {
		f.setTo(append(append([]byte(`,"kind":"`), k.String()...), '"'))
	}
	return f
}

// The fields' lookups below are each split in two: the common case, a
// field already made, small enough that the compiler inlines it into the
// line's code, and the making of it, apart. A line has half a dozen such
// fields, and each was a call.

// fnWhyField is the "fn" field of rule r's lines, none for a rule that
// names no function, and the "why" field's start, which always follows
// it: `,"fn":"runqget","why":"`, one copy where they were two.
func (w *Writer) fnWhyField(r gmp.Rule) *field {
	if f := &w.fnJSON[r]; f.set {
		return f
	}
	return w.makeFnWhyField(r)
}

func (w *Writer) makeFnWhyField(r gmp.Rule) *field {
	f := &w.fnJSON[r]
	var b []byte
	if fn := r.Fn(); fn != "" {
		b = appendString([]byte(`,"fn":`), fn)
	}
	f.setTo(append(b, `,"why":"`...))
	return f
}

// reasonField is the "reason" field of reason r.
func (w *Writer) reasonField(r gmp.Reason) *field {
	if f := &w.reasonJSON[r]; f.set {
		return f
	}
	return w.makeReasonField(r)
}

func (w *Writer) makeReasonField(r gmp.Reason) *field {
	f := &w.reasonJSON[r]
	f.setTo(appendString([]byte(`,"reason":`), r.String()))
	return f
}

// putLoc appends place l's JSON string if it is remembered (by place)
// and short, as a whole array stored into the line's spare room, and
// reports whether it did; else appendLocSlowly appends it. The line's
// code calls the two apart so that this, the common case, is inlined
// into it.
func (w *Writer) putLoc(b []byte, l gmp.Loc) ([]byte, bool) {
	e := &w.locJSON[(uint(l.Kind)*61+uint(l.ID))%locCacheSize]
	k := len(b)
	if e.loc != l || uint32(e.n-1) >= locSize || cap(b)-k < locSize {
		return b, false
	}
	*(*[locSize]byte)(b[k : k+locSize]) = e.b
	return b[:k+int(e.n)], true
}

// appendLocSlowly appends place l's JSON string when putLoc cannot: a
// long one, or one not yet made, which it makes and remembers.
func (w *Writer) appendLocSlowly(b []byte, l gmp.Loc) []byte {
	i := (uint(l.Kind)*61 + uint(l.ID)) % locCacheSize
	e := &w.locJSON[i]
	if e.loc != l || e.n == 0 {
		w.scratch = w.quoteFrom(w.d.AppendLoc(append(w.scratch[:0], '"'), l), 1)
		e.loc, e.n, e.b = l, int32(len(w.scratch)), [locSize]byte{}
		if len(w.scratch) <= locSize {
			copy(e.b[:], w.scratch)
		} else {
			// The slice is reused, as field.setTo's is.
			w.locLong[i] = append(w.locLong[i][:0], w.scratch...)
		}
	}
	if e.n <= locSize {
		return append(b, e.b[:e.n]...)
	}
	return append(b, w.locLong[i]...)
}

// srcField is the "src" field of action op, remembered by its position.
func (w *Writer) srcField(op *gmp.Op) *field {
	p := op.Pos
	e := &w.srcJSON[uint(p.Line*31+p.Col)%srcCacheSize]
	if e.op == op {
		return &e.json
	}
	if !e.json.set || e.pos != p {
		e.pos = p
		w.scratch = appendPos(append(w.scratch[:0], `,"src":`...), p)
		e.json.setTo(w.scratch)
	}
	e.op = op
	return &e.json
}

// quoteFrom makes b[start:], text appended after an opening quote, a JSON
// string. Sentences and places nearly always need no escaping, and are
// then only checked and closed, not copied; the rare one that does is
// copied out and appended again, escaped.
func (w *Writer) quoteFrom(b []byte, start int) []byte {
	if plainJSON(b[start:]) {
		return append(b, '"')
	}
	w.text = append(w.text[:0], b[start:]...)
	return appendString(b[:start-1], w.text)
}

// visibleFrom makes b[start:], a sentence appended to the line, safe on a
// terminal: the scenario's names in it are shown with their control
// characters visible (safetext.Term). As with quoteFrom, a sentence that
// needs nothing is only checked.
func (w *Writer) visibleFrom(b []byte, start int) []byte {
	if safetext.IsTerm(b[start:]) {
		return b
	}
	w.text = append(w.text[:0], b[start:]...)
	return safetext.AppendTerm(b[:start], w.text)
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
	// Of the formats only the JSON lines write each event's cause; for
	// the others finding it would be work thrown away.
	cfg.NoCauses = o.Format != JSONL || o.NoEvents
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
	w.Events = !o.NoEvents && o.Format != None
	if w.Events {
		// Without events the writer has nothing to do with one: notes
		// are written only among events. A run with no sink hands its
		// events to no one, which is what --format none costs.
		m.SetEventSink(w.eventRef)
	}
	m.SetSchedTraceSink(func(line string) { w.SchedTrace(m.Now(), line) })
	end := m.Run()
	if err := w.End(m, sc.AsExpected(end)); err != nil {
		return end, m, err
	}
	return end, m, nil
}
