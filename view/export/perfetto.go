package export

import (
	"bufio"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/view/tracelog"
)

// Tracks of the trace: a thread per P and per M, all in one process.
const (
	pid       = 1
	mTidBase  = 1000 // M3 is thread 1003
	globalTid = 999  // the global queue's counter
)

// Perfetto writes a run as Chrome trace-event JSON: a track per P with a
// slice per goroutine run (named G5, with its scenario line), a track per
// M, instant events for steals, overflows, preemptions and retakes,
// counters for the global queue and each P's ring, and a flow arrow from
// each event's cause to it.
type Perfetto struct {
	w     *bufio.Writer
	d     *gmp.Describer
	buf   []byte
	first bool
	n     int32
	// open is the slice each P track has open: its name, or "".
	open map[gmp.PID]string
	// at is where each event was: its time and track, for flows.
	at    []place
	named map[int]bool
}

type place struct {
	ts  int64 // ns
	tid int32
}

// NewPerfetto starts a trace of a run of prog, titled name, on w.
func NewPerfetto(w io.Writer, name string, prog *gmp.Program, procs int) *Perfetto {
	p := &Perfetto{w: bufio.NewWriterSize(w, 256<<10), d: gmp.NewDescriber(prog), first: true,
		open: map[gmp.PID]string{}, named: map[int]bool{}}
	p.w.WriteString("[\n")
	p.meta("process_name", 0, "schedlab: "+name)
	for i := range procs {
		p.thread(1+i, "P"+strconv.Itoa(i))
	}
	p.thread(globalTid, "global queue")
	return p
}

// tidOfP is P p's track.
func tidOfP(p gmp.PID) int { return 1 + int(p) }

func (p *Perfetto) thread(tid int, name string) {
	if !p.named[tid] {
		p.named[tid] = true
		p.meta("thread_name", tid, name)
		// Ps first, in order, then the Ms.
		b := p.begin("M", tid, 0)
		b = append(b, `,"name":"thread_sort_index","args":{"sort_index":`...)
		b = strconv.AppendInt(b, int64(tid), 10)
		p.end(append(b, `}`...))
	}
}

func (p *Perfetto) meta(what string, tid int, name string) {
	b := p.begin("M", tid, 0)
	b = append(b, `,"name":"`...)
	b = append(b, what...)
	b = append(b, `","args":{"name":`...)
	b = tracelog.AppendJSONString(b, name)
	p.end(append(b, '}'))
}

// begin starts a record of phase ph on track tid at ts nanoseconds.
func (p *Perfetto) begin(ph string, tid int, ts int64) []byte {
	b := p.buf[:0]
	if !p.first {
		b = append(b, ",\n"...)
	}
	p.first = false
	b = append(b, `{"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":1,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	return appendMicros(b, ts)
}

func (p *Perfetto) end(b []byte) {
	b = append(b, '}')
	p.buf = b
	p.w.Write(b)
}

// appendMicros writes ns as microseconds with three decimals, the unit of
// the format's timestamps.
func appendMicros(b []byte, ns int64) []byte {
	b = strconv.AppendInt(b, ns/1000, 10)
	frac := ns % 1000
	b = append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	return b
}

func (p *Perfetto) slice(ph string, tid int, ts int64, name string, e *gmp.Event) {
	b := p.begin(ph, tid, ts)
	if ph == "B" {
		b = append(b, `,"name":`...)
		b = tracelog.AppendJSONString(b, name)
		b = append(b, `,"args":{"why":`...)
		b = tracelog.AppendJSONString(b, p.d.Describe(*e))
		if e.Op != nil && e.Op.Pos.Line > 0 {
			b = append(b, `,"src":`...)
			b = tracelog.AppendJSONString(b, e.Op.Pos.String())
		}
		b = append(b, '}')
	}
	p.end(b)
}

func (p *Perfetto) instant(tid int, ts int64, name string, e *gmp.Event) {
	b := p.begin("i", tid, ts)
	b = append(b, `,"s":"t","name":`...)
	b = tracelog.AppendJSONString(b, name)
	b = append(b, `,"args":{"why":`...)
	b = tracelog.AppendJSONString(b, p.d.Describe(*e))
	p.end(append(b, '}'))
}

func (p *Perfetto) counter(ts int64, name string, v int) {
	b := p.begin("C", globalTid, ts)
	b = append(b, `,"name":`...)
	b = tracelog.AppendJSONString(b, name)
	b = append(b, `,"args":{"Gs":`...)
	b = strconv.AppendInt(b, int64(v), 10)
	p.end(append(b, '}'))
}

// closeP ends the slice open on P pp, if any.
func (p *Perfetto) closeP(pp gmp.PID, ts int64) {
	if p.open[pp] != "" {
		p.slice("E", tidOfP(pp), ts, "", nil)
		p.open[pp] = ""
	}
}

func (p *Perfetto) openP(pp gmp.PID, ts int64, name string, e *gmp.Event) {
	p.closeP(pp, ts)
	p.slice("B", tidOfP(pp), ts, name, e)
	p.open[pp] = name
}

// Event adds the run's next event.
func (p *Perfetto) Event(e gmp.Event) {
	i := p.n
	p.n++
	ts := int64(e.T)
	tid := globalTid
	switch {
	case e.P != gmp.NoP:
		tid = tidOfP(e.P)
	case e.M != gmp.NoM:
		tid = mTidBase + int(e.M)
		p.thread(tid, e.M.String())
	}
	p.at = append(p.at, place{ts: ts, tid: int32(tid)})
	switch e.Kind {
	case gmp.KindGoStart:
		p.openP(e.P, ts, e.G.String(), &e)
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
		if e.P != gmp.NoP && p.open[e.P] == e.G.String() {
			p.closeP(e.P, ts)
		}
		if e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted {
			p.instant(tid, ts, "preempted "+e.G.String(), &e)
		}
		// A yield after a mutex handoff goes to the P's own ring.
		if n := e.GlobalLen(); e.Kind == gmp.KindGoStop && e.Rule != gmp.RuleGoyield {
			p.counter(ts, "global queue", n)
		}
	case gmp.KindSyscallEnter:
		if e.P != gmp.NoP {
			p.openP(e.P, ts, e.G.String()+" in a syscall", &e)
		}
	case gmp.KindSyscallExit:
		if e.To.Kind == gmp.LocRunning {
			p.openP(e.To.P(), ts, e.G.String(), &e)
		}
	case gmp.KindProcSteal:
		p.closeP(e.P, ts)
		p.instant(tid, ts, "retake "+e.P.String(), &e)
	case gmp.KindSteal:
		p.instant(tid, ts, "steal "+strconv.Itoa(e.Stolen())+" from "+e.Victim().String(), &e)
	case gmp.KindRunqOverflow:
		p.instant(tid, ts, "overflow", &e)
		p.counter(ts, "global queue", e.GlobalLen())
	case gmp.KindGoCreate:
		p.counterP(e.P, ts, e.RingLen())
	case gmp.KindSysmon:
		if e.Rule == gmp.RuleSysmonPreempt {
			p.instant(tid, ts, "sysmon asks "+e.G.String()+" to stop", &e)
		}
	case gmp.KindProgram:
		p.instant(tid, ts, e.Rule.Doc(), &e)
	}
	if e.Cause >= 0 && int(e.Cause) < len(p.at) {
		p.flow(i, p.at[e.Cause], place{ts: ts, tid: int32(tid)})
	}
}

func (p *Perfetto) counterP(pp gmp.PID, ts int64, ring int) {
	if pp == gmp.NoP {
		return
	}
	b := p.begin("C", tidOfP(pp), ts)
	b = append(b, `,"name":"`...)
	b = append(b, pp.String()...)
	b = append(b, ` ring","args":{"Gs":`...)
	b = strconv.AppendInt(b, int64(ring), 10)
	p.end(append(b, '}'))
}

// flow draws an arrow from a cause to its effect, event i.
func (p *Perfetto) flow(i int32, from, to place) {
	for _, end := range []struct {
		ph string
		at place
	}{{"s", from}, {"f", to}} {
		b := p.begin(end.ph, int(end.at.tid), end.at.ts)
		b = append(b, `,"name":"cause","cat":"cause","id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		if end.ph == "f" {
			b = append(b, `,"bp":"e"`...)
		}
		p.end(b)
	}
}

// End closes the slices still open at the run's end and the file.
func (p *Perfetto) End(m *gmp.Machine) error {
	ts := int64(m.Now())
	for pp := range gmp.PID(m.Procs()) {
		p.closeP(pp, ts)
	}
	p.w.WriteString("\n]\n")
	return p.w.Flush()
}
