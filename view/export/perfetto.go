package export

import (
	"io"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
)

// Tracks of a model's process: a thread per P and per M.
const (
	mTidBase   = 1000 // M3 is thread 1003
	programTid = 999  // the run's own events: its end
)

// Perfetto writes a run of the model as Chrome trace-event JSON: a track
// per P with a slice per goroutine run (named G5, with the describer's
// sentence and its scenario line), a track per M, instants for steals,
// overflows, preemptions and retakes, counters for every queue the model
// has (each P's ring and runnext, the global queue, idle Ps, spinning Ms,
// each pool's workers and waiters), and an arrow from what woke a
// goroutine (its creation, the send or release that readied it, its
// timer) to the goroutine's next run.
//
// The counters are read from the machine, never worked out from the
// events: after each step of the model (Run calls AfterStep), each queue
// that changed is written at that step's time. A step's events happen at
// one instant, and the state after its last is what the counters show
// from that instant on.
type Perfetto struct {
	f    *traceFile
	own  bool   // f is this trace's alone: End closes it
	then func() // writes what follows the run in f, before End closes it
	pid  int
	m    *gmp.Machine
	d    *gmp.Describer
	n    int32 // events so far
	open []*slice
	// named says which M tracks have their name.
	named map[int]bool
	// sources are the flow sources of events that readied a goroutine
	// (its creation, its wake-up, a steal that moved it), by event
	// number, until the goroutine's next start uses them: the model's
	// causes (Event.Cause) say which event readied it.
	sources map[int32]source
	// blocks are each goroutine's last go-block, for a wake-up whose
	// cause is the block that set its timer.
	blocks map[gmp.GID]blockAt
	// The counters as last written.
	last    counters
	written bool
}

type source struct {
	s  *slice
	ts int64
}

type blockAt struct {
	event int32
	src   source
}

// counters are the queue lengths the trace shows.
type counters struct {
	ring, runnext     []int
	global, idle, spn int
	pools             [][3]int // running workers that are busy, idle; waiters
}

// NewPerfetto starts a trace of m's run, titled name, on w; Run runs m
// into it.
func NewPerfetto(w io.Writer, name string, m *gmp.Machine) *Perfetto {
	f := newTraceFile(w)
	p := newModelProcess(f, "schedlab: "+name, m)
	p.own = true
	return p
}

// newModelProcess adds m's run to f as a process of its own.
func newModelProcess(f *traceFile, name string, m *gmp.Machine) *Perfetto {
	procs := m.Procs()
	p := &Perfetto{f: f, pid: f.newPid(), m: m, d: gmp.NewDescriber(m.Program()), open: make([]*slice, procs),
		named: map[int]bool{}, sources: map[int32]source{}, blocks: map[gmp.GID]blockAt{}}
	f.meta(p.pid, 0, "process_name", name)
	f.sortIndex(p.pid, 0, "process_sort_index", p.pid)
	for i := range procs {
		p.thread(tidOfP(gmp.PID(i)), "P"+strconv.Itoa(i))
	}
	p.thread(programTid, "run")
	return p
}

// tidOfP is P p's track.
func tidOfP(p gmp.PID) int { return 1 + int(p) }

func (p *Perfetto) thread(tid int, name string) {
	if !p.named[tid] {
		p.named[tid] = true
		p.f.meta(p.pid, tid, "thread_name", name)
		// Ps first, in order, then the run's track, then the Ms.
		p.f.sortIndex(p.pid, tid, "thread_sort_index", tid)
	}
}

// Event adds the run's next event.
func (p *Perfetto) Event(e gmp.Event) {
	i := p.n
	p.n++
	ts := int64(e.T)
	tid := programTid
	switch {
	case e.P != gmp.NoP:
		tid = tidOfP(e.P)
	case e.M != gmp.NoM:
		tid = mTidBase + int(e.M)
		p.thread(tid, e.M.String())
	}
	switch e.Kind {
	case gmp.KindGoCreate:
		p.keepSource(i, e.P, ts)
	case gmp.KindGoUnblock:
		switch b, ok := p.blocks[e.G]; {
		case e.G2 != gmp.NoG:
			// The waker runs on e.P: the send, close or release is
			// in its slice.
			p.keepSource(i, e.P, ts)
		case ok && b.event == e.Cause:
			// A timer: the goroutine's own block set it.
			p.sources[i] = b.src
		}
		delete(p.blocks, e.G)
	case gmp.KindSteal:
		// The steal moves the goroutine, not the reason it can run.
		if src, ok := p.sources[e.Cause]; ok {
			delete(p.sources, e.Cause)
			p.sources[i] = src
		}
		p.instant(tid, ts, "steal "+strconv.Itoa(e.Stolen())+" from "+e.Victim().String(), &e)
	case gmp.KindGoStart:
		s := p.openP(e.P, ts, e.G.String(), &e)
		if src, ok := p.sources[e.Cause]; ok {
			delete(p.sources, e.Cause)
			p.f.link(src.s, src.ts, s, ts)
		}
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
		if e.P != gmp.NoP && p.open[e.P] != nil && p.open[e.P].name == e.G.String() {
			if e.Kind == gmp.KindGoBlock {
				p.blocks[e.G] = blockAt{i, source{p.open[e.P], ts}}
			}
			p.closeP(e.P, ts)
		}
		if e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted {
			p.instant(tid, ts, "preempted "+e.G.String(), &e)
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
	case gmp.KindRunqOverflow:
		p.instant(tid, ts, "overflow", &e)
	case gmp.KindSysmon:
		if e.Rule == gmp.RuleSysmonPreempt {
			p.instant(tid, ts, "sysmon asks "+e.G.String()+" to stop", &e)
		}
	case gmp.KindProgram:
		p.instant(tid, ts, e.Rule.Doc(), &e)
	}
}

// keepSource notes event i, on P pp at ts, as the source of the flow to
// the goroutine it readies, if a goroutine's run is open there.
func (p *Perfetto) keepSource(i int32, pp gmp.PID, ts int64) {
	if pp != gmp.NoP && p.open[pp] != nil {
		p.sources[i] = source{p.open[pp], ts}
	}
}

func (p *Perfetto) instant(tid int, ts int64, name string, e *gmp.Event) {
	p.f.instant(p.pid, tid, ts, name, "why", p.d.Describe(*e))
}

// closeP ends the slice open on P pp, if any.
func (p *Perfetto) closeP(pp gmp.PID, ts int64) {
	if pp != gmp.NoP && p.open[pp] != nil {
		p.f.endSlice(p.open[pp], ts)
		p.open[pp] = nil
	}
}

func (p *Perfetto) openP(pp gmp.PID, ts int64, name string, e *gmp.Event) *slice {
	if pp == gmp.NoP {
		return nil
	}
	p.closeP(pp, ts)
	src := ""
	if e.Op != nil && e.Op.Pos.Line > 0 {
		src = e.Op.Pos.String()
	}
	s := startSlice(p.pid, tidOfP(pp), ts, name, p.d.Describe(*e), src)
	p.open[pp] = s
	return s
}

// Counter names and their series.
var (
	gsKey     = []string{"Gs"}
	psKey     = []string{"Ps"}
	msKey     = []string{"Ms"}
	workerKey = []string{"busy", "idle"}
)

// AfterStep writes the counters that m's last step changed.
func (p *Perfetto) AfterStep() { p.sample(int64(p.m.Now())) }

// sample reads the machine's queues and writes, at ts, each counter that
// changed since it was last written (all of them the first time).
func (p *Perfetto) sample(ts int64) {
	m := p.m
	procs := m.Procs()
	c := &p.last
	first := !p.written
	p.written = true
	if first {
		c.ring, c.runnext = make([]int, procs), make([]int, procs)
		c.pools = make([][3]int, len(m.Pools()))
	}
	for i := range procs {
		pp := m.P(gmp.PID(i))
		ring, next := pp.RunqLen(), 0
		if pp.Runnext != gmp.NoG {
			next = 1
		}
		name := "P" + strconv.Itoa(i)
		if first || ring != c.ring[i] {
			c.ring[i] = ring
			p.counter(ts, name+" ring", gsKey, ring)
		}
		if first || next != c.runnext[i] {
			c.runnext[i] = next
			p.counter(ts, name+" runnext", gsKey, next)
		}
	}
	sc := m.Sched()
	if g := sc.RunqLen(); first || g != c.global {
		c.global = g
		p.counter(ts, "global queue", gsKey, g)
	}
	if n := sc.Npidle; first || n != c.idle {
		c.idle = n
		p.counter(ts, "idle Ps", psKey, n)
	}
	if n := sc.Nmspinning; first || n != c.spn {
		c.spn = n
		p.counter(ts, "spinning Ms", msKey, n)
	}
	for i := range m.Pools() {
		pl := &m.Pools()[i]
		idle := pl.IdleLen()
		now := [3]int{pl.Running - idle, idle, pl.Waiters.Len()}
		if !first && now == c.pools[i] {
			continue
		}
		name := "pool " + pl.Decl.Name
		if first || now[0] != c.pools[i][0] || now[1] != c.pools[i][1] {
			p.f.counter(p.pid, ts, name+" workers", workerKey, now[:2])
		}
		if first || now[2] != c.pools[i][2] {
			p.counter(ts, name+" waiting", gsKey, now[2])
		}
		c.pools[i] = now
	}
}

func (p *Perfetto) counter(ts int64, name string, key []string, v int) {
	p.f.counter(p.pid, ts, name, key, []int{v})
}

// End ends the slices still open at the run's end and, for a trace of
// its own, the file.
func (p *Perfetto) End(m *gmp.Machine) error {
	p.sample(int64(m.Now()))
	ts := int64(m.Now())
	for pp := range gmp.PID(m.Procs()) {
		p.closeP(pp, ts)
	}
	if p.then != nil {
		p.then()
	}
	if p.own {
		return p.f.close()
	}
	return nil
}
