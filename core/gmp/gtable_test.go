package gmp

import (
	"strings"
	"testing"
	"time"
)

// Goroutines live in descriptors that exited goroutines leave behind, as
// in the runtime; a goroutine whose descriptor was reused still answers
// for itself as dead, with its parent and creation time.
func TestDeadGoroutineOutlivesItsDescriptor(t *testing.T) {
	r := simulate(t, 1, 0, nil, loop(2, goN(70, cpu(20*time.Microsecond)), waitKids()))
	m := r.m
	// The second wave (G72…G141) reused the first wave's descriptors.
	second := GID(100)
	g := m.G(second)
	if g.ID != second || g.Status != Gdead {
		t.Fatalf("G(%v) = %v %v", second, g.ID, g.Status)
	}
	reusedFrom := NoG
	for _, e := range r.events {
		if e.Kind == KindGoCreate && e.G == second {
			reusedFrom = GID(e.N2)
		}
	}
	if reusedFrom == NoG {
		t.Fatalf("%v did not reuse a descriptor", second)
	}
	old := m.G(reusedFrom)
	if old.ID != reusedFrom || old.Status != Gdead || old.Parent != 1 || old.Desc != g.Desc {
		t.Fatalf("G(%v) after its descriptor went to %v: %+v", reusedFrom, second, old)
	}
	if c := m.Created(reusedFrom); c <= 0 || c >= m.Created(second) {
		t.Fatalf("%v created at %v, %v at %v", reusedFrom, c, second, m.Created(second))
	}
}

// A clone shares the write-once id blocks with its original; both must go
// on adding goroutines without seeing each other's.
func TestGoroutineTableClonesIndependently(t *testing.T) {
	var a gtable
	a.reserveG0()
	for range gChunk + 10 { // one full block of ids and part of the next
		a.add(G{Desc: a.newDesc(), Parent: 1}, 5)
	}
	b := a.clone()
	ga, _ := a.add(G{Desc: a.newDesc(), Parent: 2}, 7)
	gb, prev := b.add(G{Desc: b.desc(3), Parent: 9}, 8) // b reuses G3's descriptor
	if prev != 3 {
		t.Fatalf("the reused descriptor was %v's, want G3's", prev)
	}
	if ga.ID != gb.ID {
		t.Fatalf("the next ids differ: %v and %v", ga.ID, gb.ID)
	}
	id := ga.ID
	if a.desc(id) == b.desc(id) || a.rec(id).parent != 2 || b.rec(id).parent != 9 || a.rec(id).created() != 7 {
		t.Fatalf("ids leaked between clones: a %d/%+v, b %d/%+v", a.desc(id), *a.rec(id), b.desc(id), *b.rec(id))
	}
	if a.current(3) == nil || b.current(3) != nil || b.at(3).ID != id {
		t.Fatal("G3's descriptor should hold G3 in the original and the new G in the clone")
	}
	if b.ghost(3).Status != Gdead || b.ghost(3).Parent != 1 {
		t.Fatalf("ghost of G3: %+v", b.ghost(3))
	}
}

// The invariant checker notices a queue that holds a goroutine whose
// descriptor now belongs to another.
func TestCheckFindsAReusedGoroutineInAQueue(t *testing.T) {
	r := simulate(t, 1, 0, nil, loop(2, goN(70, cpu(20*time.Microsecond)), waitKids()))
	m := r.m
	stale := GID(2) // exited in the first wave; its descriptor was reused
	if m.gs.current(stale) != nil {
		t.Fatalf("%v still owns its descriptor", stale)
	}
	m.sched.runq.pushBack(stale)
	err := m.CheckInvariants()
	if err == nil || !strings.Contains(err.Error(), "exited and whose descriptor went to") {
		t.Fatalf("CheckInvariants = %v", err)
	}
}

// Frames name bodies and actions in 16 bits; a bigger program is refused
// by New with a position rather than wrapping around.
func TestProgramTooBigForFrames(t *testing.T) {
	ops := make([]Op, maxBodyOps+1)
	for i := range ops {
		ops[i] = Op{Kind: OpGosched, Pos: Pos{File: "big.yaml", Line: i + 3, Col: 5}}
	}
	_, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts()}, &Program{Main: ops})
	if err == nil || !strings.HasPrefix(err.Error(), "big.yaml:3:5: a list of 65536 actions") {
		t.Fatalf("New = %v", err)
	}
	chans := make([]ChanDecl, maxChans+1)
	if _, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts()}, &Program{Chans: chans}); err == nil || !strings.Contains(err.Error(), "channels") {
		t.Fatalf("New with %d channels = %v", len(chans), err)
	}
}

// A program built in code that names an undeclared channel, pool or
// semaphore is refused by New, with the action's position.
func TestNewRefusesUndeclaredNames(t *testing.T) {
	pos := Pos{File: "p.go", Line: 7, Col: 2}
	for _, op := range []Op{
		{Kind: OpSend, Chan: 1, Pos: pos},
		{Kind: OpRecv, Chan: -1, Pos: pos},
		{Kind: OpSubmit, Pool: 0, Count: 1, Body: []Op{cpu(time.Millisecond)}, Pos: pos},
		{Kind: OpAcquire, Sem: 2, N: 1, Pos: pos},
		{Kind: OpRelease, Sem: 0, N: 0, Pos: pos},
	} {
		prog := &Program{Chans: []ChanDecl{{Name: "c"}}, Sems: []SemDecl{{Name: "s", Size: 1}}, Main: []Op{op}}
		_, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts()}, prog)
		if err == nil || !strings.HasPrefix(err.Error(), "p.go:7:2: "+op.Kind.String()) {
			t.Errorf("%v: New = %v", op.Kind, err)
		}
	}
}
