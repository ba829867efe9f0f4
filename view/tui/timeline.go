package tui

import (
	"sort"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// SegKind is what a P was doing during a segment.
type SegKind uint8

const (
	SegRun     SegKind = iota // running a G
	SegSyscall                // its M in a syscall with a G, the P still attached
)

// EndHow says how a segment ended.
type EndHow uint8

const (
	EndOpen      EndHow = iota // still going at the cursor
	EndBlocked                 // the G parked
	EndPreempted               // the G was preempted
	EndYielded                 // the G called Gosched
	EndExited                  // the G exited
	EndSyscall                 // the G entered a syscall
	EndTaken                   // sysmon or another thread took the P
	EndReturned                // the syscall returned
	EndProgram                 // the program ended
)

// Segment is a stretch of a P's time with one G.
type Segment struct {
	G                gmp.GID
	Kind             SegKind
	How              EndHow
	Start, End       sim.Time
	StartIdx, EndIdx int // events that opened and closed it (EndIdx -1 while open)
}

// MarkKind is a moment worth marking on a lane.
type MarkKind uint8

const (
	MarkSteal    MarkKind = iota // this P stole Gs
	MarkRetake                   // this P was taken from a syscall
	MarkOverflow                 // this P's ring overflowed
)

// Mark is a moment on a P's lane.
type Mark struct {
	Kind MarkKind
	T    sim.Time
	Idx  int
}

// Timeline records, for each P, what ran on it and when, from the events
// as the run produces them. Views clip it at the cursor, so stepping back
// never shows the future.
type Timeline struct {
	lanes [][]Segment
	marks [][]Mark
	n     int // events recorded
	// live keeps only each P's latest segment and no marks: the session
	// follows the run with one, for the segments open when each chunk of
	// events starts (eventChunk.carry).
	live bool
}

// NewTimeline returns an empty timeline for procs Ps.
func NewTimeline(procs int) *Timeline {
	return &Timeline{lanes: make([][]Segment, procs), marks: make([][]Mark, procs)}
}

// newLiveTimeline returns a timeline that keeps only what is open.
func newLiveTimeline(procs int) *Timeline {
	t := NewTimeline(procs)
	t.live = true
	return t
}

// openSegments returns each P's open segment (G NoG for none).
func (t *Timeline) openSegments() []Segment {
	out := make([]Segment, len(t.lanes))
	for p, lane := range t.lanes {
		if n := len(lane); n > 0 && lane[n-1].EndIdx < 0 {
			out[p] = lane[n-1]
		}
	}
	return out
}

// seedTimeline returns a timeline that starts at event n with the open
// segments carry, to which the events from n on are recorded.
func seedTimeline(carry []Segment, n int) *Timeline {
	t := NewTimeline(len(carry))
	t.n = n
	for p, seg := range carry {
		if seg.G != gmp.NoG {
			t.lanes[p] = append(t.lanes[p], seg)
		}
	}
	return t
}

func (t *Timeline) open(p gmp.PID, seg Segment) {
	t.close(p, seg.Start, seg.StartIdx, EndBlocked)
	seg.EndIdx = -1
	if t.live {
		t.lanes[p] = t.lanes[p][:0]
	}
	t.lanes[p] = append(t.lanes[p], seg)
}

func (t *Timeline) mark(p gmp.PID, m Mark) {
	if !t.live {
		t.marks[p] = append(t.marks[p], m)
	}
}

func (t *Timeline) close(p gmp.PID, at sim.Time, idx int, how EndHow) {
	lane := t.lanes[p]
	if n := len(lane); n > 0 && lane[n-1].EndIdx < 0 {
		lane[n-1].End, lane[n-1].EndIdx, lane[n-1].How = at, idx, how
	}
}

// Record adds event e, the next event of the run.
func (t *Timeline) Record(e gmp.Event) {
	idx := t.n
	t.n++
	valid := e.P >= 0 && int(e.P) < len(t.lanes)
	switch e.Kind {
	case gmp.KindGoStart:
		if valid {
			t.open(e.P, Segment{G: e.G, Kind: SegRun, Start: e.T, StartIdx: idx})
		}
	case gmp.KindGoStop:
		if valid {
			how := EndPreempted
			if e.Reason == gmp.ReasonGosched {
				how = EndYielded
			}
			t.close(e.P, e.T, idx, how)
		}
	case gmp.KindGoBlock:
		if valid {
			t.close(e.P, e.T, idx, EndBlocked)
		}
	case gmp.KindGoExit:
		if valid {
			t.close(e.P, e.T, idx, EndExited)
		}
		if e.Rule == gmp.RuleMainReturn {
			t.closeAll(e.T, idx)
		}
	case gmp.KindSyscallEnter:
		if valid {
			t.close(e.P, e.T, idx, EndSyscall)
			if e.Rule == gmp.RuleEntersyscall {
				t.open(e.P, Segment{G: e.G, Kind: SegSyscall, Start: e.T, StartIdx: idx})
			}
		}
	case gmp.KindProcSteal:
		if valid {
			t.close(e.P, e.T, idx, EndTaken)
			if e.Rule == gmp.RuleRetake {
				t.mark(e.P, Mark{Kind: MarkRetake, T: e.T, Idx: idx})
			}
		}
	case gmp.KindSyscallExit:
		if valid {
			t.close(e.P, e.T, idx, EndReturned)
			t.open(e.P, Segment{G: e.G, Kind: SegRun, Start: e.T, StartIdx: idx})
		}
	case gmp.KindSteal:
		if valid {
			t.mark(e.P, Mark{Kind: MarkSteal, T: e.T, Idx: idx})
		}
	case gmp.KindRunqOverflow:
		if valid {
			t.mark(e.P, Mark{Kind: MarkOverflow, T: e.T, Idx: idx})
		}
	case gmp.KindProgram:
		t.closeAll(e.T, idx)
	}
}

func (t *Timeline) closeAll(at sim.Time, idx int) {
	for p := range t.lanes {
		t.close(gmp.PID(p), at, idx, EndProgram)
	}
}

// Window calls f for each segment of P p that overlaps [from, to] and had
// started by event cursor. A segment that ends after the cursor is given
// as open, ending at to.
func (t *Timeline) Window(p gmp.PID, from, to sim.Time, cursor int, f func(Segment)) {
	lane := t.lanes[p]
	// Segments on a lane do not overlap, so ends are ordered too.
	i := sort.Search(len(lane), func(i int) bool {
		s := lane[i]
		return s.EndIdx < 0 || s.EndIdx > cursor || s.End >= from
	})
	for ; i < len(lane); i++ {
		s := lane[i]
		if s.StartIdx > cursor || s.Start > to {
			return
		}
		if s.EndIdx < 0 || s.EndIdx > cursor {
			s.End, s.EndIdx, s.How = to, -1, EndOpen
		}
		f(s)
	}
}

// Marks calls f for each mark of P p in [from, to] up to event cursor.
func (t *Timeline) Marks(p gmp.PID, from, to sim.Time, cursor int, f func(Mark)) {
	marks := t.marks[p]
	i := sort.Search(len(marks), func(i int) bool { return marks[i].T >= from })
	for ; i < len(marks) && marks[i].T <= to && marks[i].Idx <= cursor; i++ {
		f(marks[i])
	}
}
