package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/lockstep"
	"github.com/schedlab/schedlab/core/scenarios"
)

func newSession(t *testing.T, name string) *Session {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The state shown at every event, inside steps too, is a consistent
// state of the scheduler: gmp emits each event before the changes it
// describes, and finishes them before the next.
func TestEveryEventViewIsConsistent(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			s := newSession(t, sc.Name)
			bad := 0
			// 5,000 events cover every mechanism of every built-in; the
			// 10,000-task burst goes on doing the same for 50,000 more.
			for i := 0; s.Cursor() == i && i < 5000; i++ {
				if err := s.State().CheckInvariants(); err != nil && bad < 3 {
					bad++
					e := s.Event(i)
					t.Errorf("event %d (%v %s): %v", i, e.Kind, s.Describer().Describe(e), err)
				}
				if s.Forward(1) == 0 {
					break
				}
			}
		})
	}
}

// snapshotOf is a compact fingerprint of a state: the schedtrace detail
// lines cover every P, M and G.
func snapshotOf(s *Session) string {
	st := s.State()
	return st.Now().String() + "\n" + st.SchedTrace(true)
}

// Going back to an event restores exactly the state first seen there.
func TestSeekBackRestoresTheSameState(t *testing.T) {
	for _, name := range []string{"tour", "netpoll", "spinning", "pingpong"} {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, name)
			var seen []string
			for {
				seen = append(seen, snapshotOf(s))
				if s.Forward(1) == 0 {
					break
				}
			}
			if len(seen) < 20 {
				t.Fatalf("only %d events", len(seen))
			}
			// Visit events in a scrambled order, as a user stepping
			// around would.
			for _, i := range []int{len(seen) - 1, 0, len(seen) / 2, 3, len(seen) - 2, 1, len(seen) / 3} {
				if got := s.Seek(i); got != i {
					t.Fatalf("Seek(%d) landed on %d", i, got)
				}
				if snap := snapshotOf(s); snap != seen[i] {
					t.Fatalf("state at event %d differs after seeking back:\n%s\n--- first seen ---\n%s", i, snap, seen[i])
				}
				// And on from there, which inside a step restores the
				// state before it again.
				if i+1 < len(seen) {
					if s.Forward(1) != 1 || snapshotOf(s) != seen[i+1] {
						t.Fatalf("one event on from a seek to %d gave a different state", i)
					}
				}
			}
			// Far jumps forward restore a checkpoint instead of stepping.
			s.Seek(0)
			if s.Seek(len(seen)-1) != len(seen)-1 || snapshotOf(s) != seen[len(seen)-1] {
				t.Fatal("a jump to the last event gave a different state")
			}
			// And stepping back one at a time, the whole way.
			s.Seek(len(seen) - 1)
			for i := len(seen) - 2; i >= 0; i-- {
				if s.Back(1) != 1 || snapshotOf(s) != seen[i] {
					t.Fatalf("stepping back to event %d gave a different state", i)
				}
			}
			if s.Back(1) != 0 {
				t.Fatal("stepped back before the first event")
			}
		})
	}
}

func TestNotesAreReachedInOrder(t *testing.T) {
	s := newSession(t, "tour")
	// tour's notes are each on an event of their own (several on one
	// event are met one by one: TestNotesOnOneEventAreMetOneByOne).
	want := map[int]bool{}
	var at []int
	for s.NextNote() {
		ns := s.CurrentNotes()
		if len(ns) == 0 || ns[0].Event != s.Cursor() {
			t.Fatalf("after NextNote the cursor is at %d but the current notes are %+v", s.Cursor(), ns)
		}
		at = append(at, s.Cursor())
	}
	for _, e := range s.NotesReached() {
		if e < 0 {
			t.Fatal("a note of tour is never reached")
		}
		if e > 0 { // the note at event 0 shows from the start
			want[e] = true
		}
	}
	if len(at) != len(want) {
		t.Fatalf("] stopped at %v; the notes are at %v", at, want)
	}
	for i := 1; i < len(at); i++ {
		if at[i] < at[i-1] {
			t.Fatalf("notes out of order: %v", at)
		}
	}
	// Back through them.
	for i := len(at) - 2; i >= 0; i-- {
		if !s.PrevNote() || s.Cursor() != at[i] {
			t.Fatalf("PrevNote landed on %d, want %d", s.Cursor(), at[i])
		}
	}
}

func TestNextEventOfAGoroutine(t *testing.T) {
	s := newSession(t, "steal")
	const g = 5
	var visits []int
	for s.NextEventOf(g, 1<<20) {
		e := s.Event(s.Cursor())
		if e.G != g && e.G2 != g && e.G3 != g {
			t.Fatalf("event %d does not concern G%d: %+v", s.Cursor(), g, e)
		}
		visits = append(visits, s.Cursor())
	}
	// G5 is created, kicked to the ring, stolen, started and exits.
	if len(visits) < 4 {
		t.Fatalf("G%d has only events %v", g, visits)
	}
	if !s.PrevEventOf(g) || s.Cursor() != visits[len(visits)-2] {
		t.Fatalf("PrevEventOf landed on %d, want %d", s.Cursor(), visits[len(visits)-2])
	}
}

// The timeline shows what ran where, and never the future.
func TestTimelineClipsAtTheCursor(t *testing.T) {
	s := newSession(t, "preempt")
	for s.Forward(1) > 0 {
	}
	end := s.Cursor()
	var runs []Segment
	s.Timeline(0).Window(0, 0, s.State().Now(), end, func(seg Segment) { runs = append(runs, seg) })
	// main until it waits, G4 from runnext, then the three hogs in turn,
	// each preempted.
	want := []int{1, 4, 2, 3, 4, 2, 3, 4, 2}
	if len(runs) != len(want) {
		t.Fatalf("%d segments on P0, want %d: %+v", len(runs), len(want), runs)
	}
	for i, seg := range runs {
		if int(seg.G) != want[i] {
			t.Fatalf("segment %d ran G%d, want G%d", i, seg.G, want[i])
		}
		if i > 0 && i < len(runs)-1 && seg.How != EndPreempted {
			t.Fatalf("segment %d ended %v, want preempted", i, seg.How)
		}
	}
	// At an earlier cursor, later segments do not exist and the running
	// one is open.
	s.Seek(12)
	at := s.State().Now()
	var early []Segment
	s.Timeline(0).Window(0, 0, at, s.Cursor(), func(seg Segment) { early = append(early, seg) })
	last := early[len(early)-1]
	if len(early) >= len(runs) || last.How != EndOpen || last.End != at {
		t.Fatalf("at event 12 the timeline shows %+v", early)
	}
}

// Notes are numbered in the order a viewer meets them, and two notes on
// one event are both shown (sem-heavy's third and fourth once shadowed
// each other; tour's were numbered in file order).
func TestNotesNumberedAsMetAndNoneShadowed(t *testing.T) {
	for _, name := range []string{"tour", "sem-heavy", "purge", "steal"} {
		s := newSession(t, name)
		shown := map[int]bool{}
		last := 0
		for _, n := range s.CurrentNotes() {
			shown[n.Index] = true
			last = max(last, n.Number)
		}
		for s.NextNote() {
			for _, n := range s.CurrentNotes() {
				if shown[n.Index] {
					continue
				}
				shown[n.Index] = true
				if n.Number != last+1 {
					t.Errorf("%s: note %d is numbered %d after note number %d", name, n.Index+1, n.Number, last)
				}
				last = n.Number
			}
		}
		if len(shown) != len(s.Scenario().Notes) {
			t.Errorf("%s: %d of %d notes are ever shown", name, len(shown), len(s.Scenario().Notes))
		}
	}
}

// Between pool events time runs on: the pools panel gives an idle
// worker's age and the time to the purge at the cursor's moment, not at
// the pool's last event.
func TestPoolTimesFollowTheCursor(t *testing.T) {
	a := newApp(t, "purge", false)
	s := a.sess
	// The first moment a worker is idle, and a later event before the
	// pool's next.
	var idleAt, later int
	for s.Forward(1) == 1 {
		e := s.Event(s.Cursor())
		if idleAt == 0 && e.Kind == gmp.KindPoolIdle {
			idleAt = s.Cursor()
			continue
		}
		if idleAt > 0 && e.T > s.Event(idleAt).T {
			if lockstep.IsPoolEvent(e) {
				t.Fatal("no event between two pool events to check against")
			}
			later = s.Cursor()
			break
		}
	}
	for _, at := range []int{idleAt, later} {
		s.Seek(at)
		st := s.State()
		pl := &st.Pools()[0]
		w := pl.Idle()[0]
		want := fmt.Sprintf("w%d %s/%s", w.ID, short(st.Now().Sub(w.LastUsed)), short(pl.Decl.Expiry))
		if got := draw(t, a, 160, 48).text; !strings.Contains(got, want) {
			t.Errorf("at event %d the pools panel lacks %q:\n%s", at+1, want, got)
		}
	}
	if s.Event(later).T == s.Event(idleAt).T {
		t.Fatal("the two moments are at one time: the test tests nothing")
	}
}

// The sysmon line changes as a whole: right after the event of a sysmon
// decision, the state shown has that pass's time and decision, and a
// retake's back-off, together (issue 26, defect 7: at tour's event 31,
// the retake at 24.22ms, the line still read "last pass 14.17ms" beside
// "retook P0").
func TestSysmonLineChangesTogether(t *testing.T) {
	for _, name := range []string{"tour", "syscall-busy", "preempt", "timer-1p"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(sc, sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		decisions := 0
		for s.Forward(1) == 1 {
			e := s.Event(s.Cursor())
			mon := s.State().SysmonState()
			var want gmp.SysmonDecisionKind
			switch e.Rule {
			case gmp.RuleRetake:
				want = gmp.SysmonRetook
			case gmp.RuleSysmonPreempt:
				want = gmp.SysmonPreempted
			default:
				continue
			}
			decisions++
			if mon.LastPass != e.T || mon.Did.Kind != want {
				t.Errorf("%s event %d (%v at %v): the sysmon line reads the pass at %v, decision %v", name, s.Cursor()+1, e.Kind, e.T, mon.LastPass, mon.Did.Kind)
			}
			if want == gmp.SysmonRetook && (mon.Idle != 0 || mon.Delay != 20*time.Microsecond) {
				t.Errorf("%s event %d: after a retake the back-off reads %v (%d idle passes)", name, s.Cursor()+1, mon.Delay, mon.Idle)
			}
			line := sysmonText(s.State(), s.Describer())
			if !strings.Contains(line, e.T.String()) {
				t.Errorf("%s event %d: the sysmon line %q does not name the pass at %v", name, s.Cursor()+1, line, e.T)
			}
		}
		if decisions == 0 {
			t.Errorf("%s: no sysmon decision to check", name)
		}
	}
}
