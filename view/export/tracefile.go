package export

import (
	"bufio"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/view/tracelog"
)

// traceFile writes the records of a Chrome trace-event file (the JSON
// Array Format), for one process or several: a model's run and a real
// one side by side are two processes of one file.
//
// Slices are complete events ("X"), written when they end, so that no
// slice is ever left open and every one has its name (the format's "E"
// records may leave the name out, and viewers such as speedscope then
// cannot match them). Flow arrows are written once both of their slices
// have ended, with each end strictly inside its slice, so that every
// consumer binds it to that slice and no other, whichever convention it
// has for a slice's edges.
type traceFile struct {
	w     *bufio.Writer
	buf   []byte
	first bool
	flows int // flow ids given so far
	pids  int // process ids given so far
}

func newTraceFile(w io.Writer) *traceFile {
	f := &traceFile{w: bufio.NewWriterSize(w, 256<<10), first: true}
	f.w.WriteString("[\n")
	return f
}

// close ends the array and flushes.
func (f *traceFile) close() error {
	f.w.WriteString("\n]\n")
	return f.w.Flush()
}

// newPid gives the next process id, from 1.
func (f *traceFile) newPid() int {
	f.pids++
	return f.pids
}

// begin starts a record of phase ph on track tid of process pid at ts
// nanoseconds.
func (f *traceFile) begin(ph string, pid, tid int, ts int64) []byte {
	b := f.buf[:0]
	if !f.first {
		b = append(b, ",\n"...)
	}
	f.first = false
	b = append(b, `{"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	return appendMicros(b, ts)
}

func (f *traceFile) end(b []byte) {
	b = append(b, '}')
	f.buf = b
	f.w.Write(b)
}

// appendMicros writes ns as microseconds with three decimals, the unit of
// the format's timestamps.
func appendMicros(b []byte, ns int64) []byte {
	b = strconv.AppendInt(b, ns/1000, 10)
	frac := ns % 1000
	b = append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	return b
}

// meta names a process (tid 0, what "process_name") or a thread.
func (f *traceFile) meta(pid, tid int, what, name string) {
	b := f.begin("M", pid, tid, 0)
	b = append(b, `,"name":"`...)
	b = append(b, what...)
	b = append(b, `","args":{"name":`...)
	b = tracelog.AppendJSONString(b, name)
	f.end(append(b, '}'))
}

// sortIndex orders a thread (or, with what "process_sort_index", a
// process) among the others.
func (f *traceFile) sortIndex(pid, tid int, what string, index int) {
	b := f.begin("M", pid, tid, 0)
	b = append(b, `,"name":"`...)
	b = append(b, what...)
	b = append(b, `","args":{"sort_index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	f.end(append(b, '}'))
}

// appendArgs appends the string arguments kv (key, value, key, value…),
// leaving out empty values.
func appendArgs(b []byte, kv ...string) []byte {
	b = append(b, `,"args":{`...)
	n := 0
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
		b = append(b, kv[i]...)
		b = append(b, `":`...)
		b = tracelog.AppendJSONString(b, kv[i+1])
	}
	return append(b, '}')
}

func (f *traceFile) complete(pid, tid int, ts, dur int64, name string, kv ...string) {
	b := f.begin("X", pid, tid, ts)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, dur)
	b = append(b, `,"name":`...)
	b = tracelog.AppendJSONString(b, name)
	f.end(appendArgs(b, kv...))
}

func (f *traceFile) instant(pid, tid int, ts int64, name string, kv ...string) {
	b := f.begin("i", pid, tid, ts)
	b = append(b, `,"s":"t","name":`...)
	b = tracelog.AppendJSONString(b, name)
	f.end(appendArgs(b, kv...))
}

// counter writes the values of a process's counter name at ts: one
// series per key.
func (f *traceFile) counter(pid int, ts int64, name string, keys []string, vals []int) {
	b := f.begin("C", pid, 0, ts)
	b = append(b, `,"name":`...)
	b = tracelog.AppendJSONString(b, name)
	b = append(b, `,"args":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(vals[i]), 10)
	}
	f.end(append(b, '}'))
}

// flowRecord writes one end of flow id: "s" inside its source slice, "f"
// inside its destination slice (bound to it, "bp":"e").
func (f *traceFile) flowRecord(ph string, pid, tid int, ts int64, id int) {
	b := f.begin(ph, pid, tid, ts)
	b = append(b, `,"name":"wakes","cat":"cause","id":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	if ph == "f" {
		b = append(b, `,"bp":"e"`...)
	}
	f.end(b)
}

// slice is a stretch of a track: a goroutine's run on a P. It is written
// when it ends.
type slice struct {
	pid, tid   int
	name       string
	why, src   string
	begin, end int64
	ended      bool
	ends       []flowEnd // flow ends waiting for the slice's end
}

// flowEnd is one end of a flow, at ts, to be placed inside its slice.
type flowEnd struct {
	fl  *flow
	out bool // the source end
	ts  int64
}

// flow is an arrow from a point in one slice to a point in another.
type flow struct {
	id                 int
	src, dst           point
	srcPlaced, dstPlcd bool
	dropped            bool
}

type point struct {
	pid, tid int
	ts       int64
}

// startSlice opens a slice on pid/tid at ts.
func startSlice(pid, tid int, ts int64, name, why, src string) *slice {
	return &slice{pid: pid, tid: tid, begin: ts, name: name, why: why, src: src}
}

// endSlice writes s, ended at ts, and the flows whose last end it held.
func (f *traceFile) endSlice(s *slice, ts int64) {
	if s == nil || s.ended {
		return
	}
	s.ended, s.end = true, ts
	// A run of no time is not drawn: it would share its instant with the
	// slices on either side, and consumers that turn slices into begin
	// and end records (speedscope) cannot tell their order. No flow can
	// bind to it either (place).
	if ts > s.begin {
		f.complete(s.pid, s.tid, s.begin, ts-s.begin, s.name, "why", s.why, "src", s.src)
	}
	for _, e := range s.ends {
		f.place(s, e)
	}
	s.ends = nil
}

// link draws a flow from ts inside from to ts inside to; either slice
// may have ended already. A slice is never linked to itself.
func (f *traceFile) link(from *slice, fromTs int64, to *slice, toTs int64) {
	if from == nil || to == nil || from == to {
		return
	}
	f.flows++
	fl := &flow{id: f.flows}
	for _, e := range []struct {
		s   *slice
		end flowEnd
	}{{from, flowEnd{fl, true, fromTs}}, {to, flowEnd{fl, false, toTs}}} {
		if e.s.ended {
			f.place(e.s, e.end)
		} else {
			e.s.ends = append(e.s.ends, e.end)
		}
	}
}

// place fixes a flow end inside its ended slice s, and writes the flow
// once both ends are fixed. An end at the slice's edge moves a
// nanosecond inside it; a slice too short to have an inside drops the
// flow.
func (f *traceFile) place(s *slice, e flowEnd) {
	ts, ok := inside(s.begin, s.end, e.ts)
	if !ok {
		e.fl.dropped = true
	}
	p := point{s.pid, s.tid, ts}
	if e.out {
		e.fl.src, e.fl.srcPlaced = p, true
	} else {
		e.fl.dst, e.fl.dstPlcd = p, true
	}
	if e.fl.srcPlaced && e.fl.dstPlcd && !e.fl.dropped {
		f.flowRecord("s", e.fl.src.pid, e.fl.src.tid, e.fl.src.ts, e.fl.id)
		f.flowRecord("f", e.fl.dst.pid, e.fl.dst.tid, e.fl.dst.ts, e.fl.id)
	}
}

// inside returns ts moved strictly inside (begin, end), and false when
// the span has no inside at the format's nanosecond resolution.
func inside(begin, end, ts int64) (int64, bool) {
	if end-begin < 2 {
		return ts, false
	}
	return min(max(ts, begin+1), end-1), true
}
