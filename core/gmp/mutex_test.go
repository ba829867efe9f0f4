package gmp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// sync.Mutex, sync.RWMutex and sync.WaitGroup held to Go 1.26's code: each
// test names the function whose behaviour it checks.

// simulateSync runs prog under policy with invariant checks after every
// step.
func simulateSync(t *testing.T, procs int, policy string, prog *Program) *run {
	t.Helper()
	pol, err := ParsePolicy(policy)
	if err != nil {
		t.Fatal(err)
	}
	prog.Name = t.Name()
	m, err := New(Config{Procs: procs, Seed: 1, Costs: DefaultCosts(), Check: true, Policy: pol}, prog)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{m: m, d: NewDescriber(prog)}
	m.SetSink(func(e Event) { r.events = append(r.events, e) })
	if end := m.Run(); end.Reason == Invariant {
		t.Fatalf("invariant broken: %v\n%s", end.Err, r.tail(40))
	}
	return r
}

// rules lists the rules of the events of goroutine g, in order.
func (r *run) rulesOf(g GID, kinds ...Kind) []Rule {
	var out []Rule
	for _, e := range r.events {
		if e.G == g && slices.Contains(kinds, e.Kind) {
			out = append(out, e.Rule)
		}
	}
	return out
}

// fmtG writes one goroutine into format's %v.
func fmtG(format string, g GID) string { return string(appendf(nil, format, g)) }

func mutexProg(main ...Op) *Program {
	return &Program{Mutexes: []MutexDecl{{Name: "mu"}}, Main: main}
}

// Mutex.Lock's fast path is one CAS on an unlocked mutex; unlockSlow's
// fatal stops the program at an unlock of an unlocked mutex, with the
// runtime's words and the line of the unlock.
func TestMutexFastPathAndUnlockOfUnlocked(t *testing.T) {
	r := simulateSync(t, 1, "", mutexProg(lockOp(0), unlockOp(0)))
	if got := r.rulesOf(1, KindMutexLock, KindMutexUnlock); !slices.Equal(got, []Rule{RuleMutexLock, RuleMutexUnlock}) {
		t.Errorf("rules %v, want the fast path and a plain unlock", got)
	}
	bad := unlockOp(0)
	bad.Pos = Pos{File: "x.yaml", Line: 4, Col: 5}
	r = simulateSync(t, 1, "", mutexProg(lockOp(0), unlockOp(0), bad))
	end := r.m.End()
	if end.Reason != Panicked || end.Err.Error() != "x.yaml:4:5: fatal error: sync: unlock of unlocked mutex [G1]" {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
}

// runtime_canSpin (proc.go): a goroutine spins at most active_spin = 4
// rounds, each procyield(30) long, and only with another P running the
// holder and its own run queue empty. On one P it never spins.
func TestMutexSpinsOnlyWhileCanSpinAllows(t *testing.T) {
	// G2 holds the mutex 50µs on P0; main, back from its sleep on
	// P1, spins 4 rounds and queues.
	prog := mutexProg(goN(1, lockOp(0), cpu(50*time.Microsecond), unlockOp(0)), sleep(5*time.Microsecond), lockOp(0), unlockOp(0), waitKids())
	r := simulateSync(t, 2, "", prog)
	var spins []Event
	for _, e := range r.events {
		if e.Rule == RuleMutexSpin && e.G == 1 {
			spins = append(spins, e)
		}
	}
	if len(spins) != activeSpin || spins[0].P == 0 {
		t.Fatalf("main spun %d rounds, want %d on P1\n%s", len(spins), activeSpin, r.dump())
	}
	for i := 1; i < len(spins); i++ {
		if d := spins[i].T.Sub(spins[i-1].T); d != DefaultCosts().Spin {
			t.Errorf("round %d came %v after the last, want one procyield(30), %v", i+1, d, DefaultCosts().Spin)
		}
	}
	if got := r.rulesOf(1, KindMutexLock); len(got) != 6 || got[4] != RuleMutexQueue || got[5] != RuleMutexAcquire {
		t.Errorf("main's lock events %v: want 4 spins, a queue, and the acquisition after its wake-up", got)
	}
	// On one P there is nobody to release the mutex while it spins.
	r = simulateSync(t, 1, "", mutexProg(lockOp(0), goN(1, lockOp(0), unlockOp(0)), gosched(), unlockOp(0), waitKids()))
	if got := r.rulesOf(2, KindMutexLock); !slices.Equal(got, []Rule{RuleMutexQueue, RuleMutexAcquire}) {
		t.Errorf("on one P G2's lock events are %v; want a queue without spinning", got)
	}
	// A goroutine waiting in the spinner's run queue forbids spinning.
	busy := mutexProg(goN(1, lockOp(0), cpu(50*time.Microsecond), unlockOp(0)), sleep(5*time.Microsecond),
		goN(1, cpu(time.Microsecond)), lockOp(0), unlockOp(0), waitKids())
	r = simulateSync(t, 2, "", busy)
	if got := r.rulesOf(1, KindMutexLock); slices.Contains(got, RuleMutexSpin) || len(got) == 0 {
		t.Errorf("main spun with G3 in its runnext: %v\n%s", got, r.dump())
	}
}

// unlockSlow in normal mode wakes the first waiter, but a goroutine that
// is running takes the mutex first (lockSlow's CAS); the woken waiter,
// having lost, goes back to the front of the queue (semacquire1 with
// lifo), ahead of those that never woke.
func TestMutexWokenWaiterLosesAndRequeuesAtTheFront(t *testing.T) {
	// On one P: G3 then G2 queue; main's unlock wakes G3, main takes
	// the mutex back at once, and its Gosched lets G3 run and find it
	// held.
	prog := mutexProg(lockOp(0), goN(2, lockOp(0), unlockOp(0)), gosched(),
		unlockOp(0), lockOp(0), gosched(), unlockOp(0), waitKids())
	r := simulateSync(t, 1, "", prog)
	var order []string
	for _, e := range r.events {
		switch {
		case e.Rule == RuleMutexQueue && e.Lifo():
			order = append(order, fmtG("%v requeues at #", e.G)+string(rune('0'+e.Position())))
		case e.Rule == RuleMutexQueue:
			order = append(order, fmtG("%v queues", e.G))
		case e.Rule == RuleReadyMutex:
			order = append(order, fmtG("wake %v", e.G))
		case e.Rule == RuleMutexAcquire:
			order = append(order, fmtG("%v takes", e.G))
		}
	}
	want := []string{"G3 queues", "G2 queues", "wake G3", "G1 takes", "G3 requeues at #1", "wake G3", "G3 takes", "wake G2", "G2 takes"}
	if !slices.Equal(order, want) {
		t.Fatalf("order %v\nwant  %v\n%s", order, want, r.dump())
	}
	if r.m.End().Reason != MainReturned {
		t.Errorf("end %v", r.m.End())
	}
}

// lockSlow: a waiter that has waited over starvationThresholdNs (1ms) and
// loses again puts the mutex in starvation mode; unlockSlow then hands it
// to the first waiter with semrelease's handoff, and the unlocker yields
// its P (goyield), so the waiter runs next on it; the waiter, the last,
// ends starvation mode.
func TestMutexStarvationHandsOff(t *testing.T) {
	r := simulateSync(t, 1, "", &mutexStarving.prog)
	starve, ok := r.first(KindMutexLock, RuleMutexStarve)
	if !ok || starve.G != 2 || starve.Waited() <= starvationThreshold {
		t.Fatalf("no starvation after 1ms: %+v\n%s", starve, r.dump())
	}
	var seq []Rule
	for _, e := range r.events {
		if e.T >= starve.T && (e.Kind == KindMutexLock || e.Kind == KindMutexUnlock || e.Rule == RuleReadyMutex || e.Rule == RuleGoyield) {
			seq = append(seq, e.Rule)
		}
	}
	want := []Rule{RuleMutexStarve, RuleMutexQueue, RuleMutexHandoff, RuleReadyMutex, RuleGoyield, RuleMutexHandedOff}
	if len(seq) < len(want) || !slices.Equal(seq[:len(want)], want) {
		t.Fatalf("after the switch: %v, want %v", seq, want)
	}
	handed, _ := r.first(KindMutexLock, RuleMutexHandedOff)
	if !handed.EndsStarvation() || handed.G != 2 {
		t.Errorf("the last waiter, handed the mutex, keeps starvation mode: %+v", handed)
	}
	yield, _ := r.first(KindGoStop, RuleGoyield)
	if yield.G != 1 || yield.To != at(LocRunq, 0) {
		t.Errorf("the unlocker yields %+v, want main to P0's ring", yield)
	}
	// no-starvation: the same waiter never gets the mutex before main
	// is done with it.
	r = simulateSync(t, 1, "no-starvation", &mutexStarving.prog)
	if _, ok := r.first(KindMutexLock, RuleMutexStarve); ok {
		t.Error("no-starvation entered starvation mode")
	}
	if _, ok := r.first(KindMutexUnlock, RuleMutexHandoff); ok {
		t.Error("no-starvation handed the mutex off")
	}
}

// In starvation mode a goroutine that arrives neither spins nor takes the
// mutex, free while handed to a waiter: it queues at the tail (lockSlow
// sets no mutexLocked while mutexStarving is set).
func TestMutexArrivalsQueueInStarvationMode(t *testing.T) {
	// Two waiters starve behind main; the first handed the mutex sleeps
	// holding it, and main, back from its yield, arrives and queues.
	prog := mutexProg(lockOp(0), goN(2, lockOp(0), sleep(10*time.Microsecond), unlockOp(0)),
		loop(3, cpu(400*time.Microsecond), unlockOp(0), lockOp(0), sleep(10*time.Microsecond)),
		unlockOp(0), lockOp(0), unlockOp(0), waitKids())
	r := simulateSync(t, 1, "", prog)
	starving, arrivals := false, 0
	for _, e := range r.events {
		switch e.Rule {
		case RuleMutexStarve:
			starving = true
		case RuleMutexHandedOff:
			starving = !e.EndsStarvation()
		case RuleMutexSpin, RuleMutexLock, RuleMutexAcquire:
			if starving {
				t.Errorf("%v took or spun on a starving mutex: %s", e.G, r.d.Describe(e))
			}
		case RuleMutexQueue:
			if starving && !e.Lifo() {
				arrivals++
				if e.Position() != e.Waiters() {
					t.Errorf("an arrival in starvation mode queued at #%d of %d", e.Position(), e.Waiters())
				}
			}
		}
	}
	if arrivals == 0 {
		t.Fatalf("nobody arrived in starvation mode:\n%s", r.dump())
	}
	if r.m.End().Reason != MainReturned {
		t.Errorf("end %v", r.m.End())
	}
}

// no-spin replaces runtime_canSpin's answer with no.
func TestMutexNoSpinPolicy(t *testing.T) {
	r := simulateSync(t, 2, "no-spin", &mutexContended.prog)
	for _, e := range r.events {
		if e.Rule == RuleMutexSpin {
			t.Fatalf("spun under no-spin: %s", r.d.Describe(e))
		}
	}
	if r.m.End().Reason != MainReturned || r.m.Mutexes()[0].Stats.Acquired != 80 {
		t.Errorf("end %v after %d acquisitions", r.m.End(), r.m.Mutexes()[0].Stats.Acquired)
	}
}

// A goroutine blocked on a mutex shows in a deadlock as Go's goroutine
// dump names its wait, sync.Mutex.Lock, with who holds the mutex; the
// park sentence says the same.
func TestMutexDeadlockSaysSyncMutexLock(t *testing.T) {
	r := simulateSync(t, 1, "", mutexProg(lockOp(0), lockOp(0)))
	if r.m.End().Reason != Deadlock {
		t.Fatalf("end %v", r.m.End())
	}
	why := r.m.BlockedAtEnd()[0].Why
	if why != `G1 is blocked in sync.Mutex.Lock on mutex "mu" (held by G1, 1 waiting)` {
		t.Errorf("deadlock says %q", why)
	}
	block, _ := r.first(KindGoBlock, RulePark)
	if s := r.d.Describe(block); s != "G1 blocks in sync.Mutex.Lock on mutex mu (#1 in line)" {
		t.Errorf("park says %q", s)
	}
}

func rwProg(main ...Op) *Program {
	return &Program{Mutexes: []MutexDecl{{Name: "rw", RW: true}}, Main: main}
}

// sync.RWMutex: a writer that waits for readers to leave (Lock's
// writerSem) shuts new readers out (RLock finds readerCount negative and
// waits on readerSem); the last reader out wakes the writer
// (rUnlockSlow), and the writer's Unlock lets the waiting reader in.
func TestRWMutexWaitingWriterBlocksNewReaders(t *testing.T) {
	r := simulateSync(t, 2, "", &rwmutex.prog)
	var order []string
	for _, e := range r.events {
		switch e.Rule {
		case RuleRWLock:
			if e.Waits() {
				order = append(order, "writer waits")
			}
		case RuleRWRLockWait:
			order = append(order, "reader queues")
		case RuleReadyRWWriter:
			order = append(order, "last reader wakes writer")
		case RuleRWUnlock:
			order = append(order, "writer unlocks")
		case RuleReadyRWReader:
			order = append(order, "reader let in")
		}
	}
	want := []string{"writer waits", "reader queues", "last reader wakes writer", "writer unlocks", "reader let in"}
	if !slices.Equal(order, want) {
		t.Errorf("order %v, want %v\n%s", order, want, r.dump())
	}
	if r.m.End().Reason != MainReturned {
		t.Errorf("end %v", r.m.End())
	}
	for _, tc := range []struct {
		main []Op
		msg  string
	}{
		{[]Op{runlockOp(0)}, "fatal error: sync: RUnlock of unlocked RWMutex [G1]"},
		{[]Op{unlockOp(0)}, "fatal error: sync: Unlock of unlocked RWMutex [G1]"},
		{[]Op{rlockOp(0), unlockOp(0)}, "fatal error: sync: Unlock of unlocked RWMutex [G1]"},
	} {
		r := simulateSync(t, 1, "", rwProg(tc.main...))
		if end := r.m.End(); end.Reason != Panicked || end.Err.Error() != tc.msg {
			t.Errorf("%v: end %v %v, want %q", tc.main, end.Reason, end.Err, tc.msg)
		}
	}
	// A reader blocked behind a writer deadlocks with Go's words.
	r = simulateSync(t, 1, "", rwProg(lockOp(0), rlockOp(0)))
	if why := r.m.BlockedAtEnd()[0].Why; !strings.Contains(why, "in sync.RWMutex.RLock on rwmutex \"rw\"") {
		t.Errorf("deadlock says %q", why)
	}
}

func wgProg(main ...Op) *Program {
	return &Program{WaitGroups: []WaitGroupDecl{{Name: "wg"}}, Main: main}
}

// WaitGroup.Add: the Add that brings the counter to zero releases every
// waiter, each readied into the releaser's runnext in the order they
// waited; a counter below zero panics with the runtime's words.
func TestWaitGroupReleasesEveryWaiter(t *testing.T) {
	r := simulateSync(t, 1, "", &waitGroup.prog)
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v\n%s", r.m.End(), r.dump())
	}
	var released []GID
	for _, e := range r.events {
		if e.Rule == RuleReadyWG {
			released = append(released, e.G)
		}
	}
	// Main, then G4, wait for G2 and G3 (main gets there first: G4 runs
	// once main parks); main's second Wait finds zero; then main waits
	// for the two wg.Go goroutines.
	if !slices.Equal(released, []GID{1, 4, 1}) {
		t.Errorf("released %v, want main then G4, and main again", released)
	}
	r = simulateSync(t, 1, "", wgProg(addOp(0, 1), doneOp(0), doneOp(0)))
	if end := r.m.End(); end.Reason != Panicked || !strings.HasPrefix(end.Err.Error(), "panic: sync: negative WaitGroup counter") {
		t.Errorf("end %v %v", end.Reason, end.Err)
	}
}

// WaitGroup.Wait, woken, looks at the state word again and panics if the
// group is in use once more: an Add before every Wait of the previous
// round has returned. Reuse after they returned is fine.
func TestWaitGroupReuse(t *testing.T) {
	// G2 waits; main's Done releases it into main's runnext, and main's
	// Add comes before G2 has run: G2 panics when it returns, as main
	// yields.
	early := wgProg(addOp(0, 1), goN(1, waitOp(0)), gosched(), doneOp(0), addOp(0, 1), gosched(), doneOp(0), waitKids())
	r := simulateSync(t, 1, "", early)
	if end := r.m.End(); end.Reason != Panicked || end.Err.Error() != "panic: sync: WaitGroup is reused before previous Wait has returned [G2]" {
		t.Errorf("early reuse: end %v %v", end.Reason, end.Err)
	}
	late := wgProg(addOp(0, 1), goN(1, waitOp(0)), sleep(10*time.Microsecond), doneOp(0), sleep(10*time.Microsecond),
		addOp(0, 1), goN(1, doneOp(0)), waitOp(0), waitKids())
	r = simulateSync(t, 1, "", late)
	if end := r.m.End(); end.Reason != MainReturned {
		t.Errorf("reuse after the Wait returned: end %v %v", end.Reason, end.Err)
	}
}

// wg.Go (Go 1.25) is Add(1) and a go statement whose goroutine defers
// Done, so a goroutine that calls runtime.Goexit still counts down.
func TestWaitGroupGoDefersDone(t *testing.T) {
	r := simulateSync(t, 2, "", wgProg(wgGo(0, 3, cpu(time.Microsecond), exitOp), waitOp(0)))
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v\n%s", r.m.End(), r.dump())
	}
	adds := 0
	for _, e := range r.events {
		if e.Rule == RuleWGAdd {
			adds++
		}
	}
	if adds != 6 {
		t.Errorf("%d Adds, want 3 from wg.Go and 3 deferred Dones", adds)
	}
	// Waiting on a group nobody finishes is a deadlock, in Go's words.
	r = simulateSync(t, 1, "", wgProg(addOp(0, 1), waitOp(0)))
	if why := r.m.BlockedAtEnd()[0].Why; why != `G1 is blocked in sync.WaitGroup.Wait on wait group "wg" (counter 1)` {
		t.Errorf("deadlock says %q", why)
	}
}
