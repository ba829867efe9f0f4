package gmp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The pool, semaphore and errgroup models, asserted with numbers on small
// programs. The pool's decisions are also held against package pool
// itself by a differential test (package pooldiff).

func submit(pool, count int, body ...Op) Op {
	return Op{Kind: OpSubmit, Pool: pool, Count: count, Body: body}
}
func acquire(sem, n int) Op { return Op{Kind: OpAcquire, Sem: sem, N: n} }
func release(sem, n int) Op { return Op{Kind: OpRelease, Sem: sem, N: n} }
func errgroupOp(limit, count int, body ...Op) Op {
	return Op{Kind: OpGroup, Limit: limit, Count: count, Body: body}
}

// simulateProg runs prog with invariant checks after every step.
func simulateProg(t *testing.T, procs int, prog *Program) *run {
	t.Helper()
	prog.Name = t.Name()
	m, err := New(Config{Procs: procs, Seed: 1, Costs: DefaultCosts(), Check: true}, prog)
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

// dispatches lists (task, worker, rule) for every pool-dispatch.
func (r *run) dispatches() [][3]int {
	var out [][3]int
	for _, e := range r.all(KindPoolDispatch) {
		out = append(out, [3]int{e.N2, e.N, int(e.Rule)})
	}
	return out
}

// Idle workers are reused last in, first out: after three tasks of
// different lengths, the next task goes to the worker that finished last.
func TestPoolReusesTheMostRecentlyIdleWorker(t *testing.T) {
	r := simulateProg(t, 4, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 3}},
		Main: []Op{
			submit(0, 1, cpu(1*time.Millisecond)),
			submit(0, 1, cpu(3*time.Millisecond)),
			submit(0, 1, cpu(2*time.Millisecond)),
			sleep(5 * time.Millisecond),
			submit(0, 1, cpu(time.Millisecond)),
			waitKids(),
		},
	})
	got := r.dispatches()
	want := [][3]int{
		{1, 1, int(RulePoolDispatchNew)}, {2, 2, int(RulePoolDispatchNew)}, {3, 3, int(RulePoolDispatchNew)},
		{4, 2, int(RulePoolDispatchIdle)}, // w2 ran the 3ms task: idle last, reused first
	}
	if !slices.Equal(got, want) {
		t.Fatalf("dispatches (task, worker, rule) = %v, want %v\n%s", got, want, r.dump())
	}
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v: %v", r.m.End().Reason, r.m.End().Err)
	}
}

// Under PreAlloc the idle workers form a ring: the one idle longest goes
// first.
func TestPreAllocPoolReusesTheOldestIdleWorker(t *testing.T) {
	r := simulateProg(t, 4, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 3, PreAlloc: true}},
		Main: []Op{
			submit(0, 1, cpu(1*time.Millisecond)),
			submit(0, 1, cpu(3*time.Millisecond)),
			submit(0, 1, cpu(2*time.Millisecond)),
			sleep(5 * time.Millisecond),
			submit(0, 1, cpu(time.Millisecond)),
			waitKids(),
		},
	})
	if got := r.dispatches()[3]; got != [3]int{4, 1, int(RulePoolDispatchIdle)} {
		t.Fatalf("task 4 went to %v, want w1, idle longest", got)
	}
}

// A full pool makes submitters wait in a FIFO line; a worker that
// finishes takes the first waiter's task itself (a hand-off), and the
// waiter only wakes to return.
func TestPoolServesWaitersInOrderByHandoff(t *testing.T) {
	r := simulateProg(t, 1, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 1}},
		Main: []Op{
			submit(0, 1, sleep(10*time.Millisecond)),
			goN(3, submit(0, 1, cpu(time.Millisecond))), // they run, and wait, in the order G5, G3, G4
			waitKids(),
		},
	})
	var order []GID
	for _, e := range r.all(KindPoolBlock) {
		order = append(order, e.G)
	}
	var served []GID
	for _, e := range r.all(KindPoolDispatch) {
		if e.Rule == RulePoolHandoff {
			served = append(served, e.G2)
			if e.N != 1 {
				t.Errorf("hand-off to worker w%d, want the pool's only worker w1", e.N)
			}
		}
	}
	if !slices.Equal(order, []GID{5, 3, 4}) || !slices.Equal(order, served) {
		t.Fatalf("waiters blocked in order %v and were served in order %v\n%s", order, served, r.dump())
	}
	st := r.m.Pools()[0].Stats
	if st.Submitted != 4 || st.Completed != 4 || st.WorkersStarted != 1 || st.WorkersReused != 3 || st.Blocked != 3 {
		t.Fatalf("stats %+v", st)
	}
}

// Nonblocking and MaxBlocking turn waiting into ErrPoolOverload.
func TestPoolRejectsWhenNonblockingOrPastMaxBlocking(t *testing.T) {
	for _, c := range []struct {
		decl             PoolDecl
		rejected, waited int
	}{
		{PoolDecl{Name: "p", Size: 1, Nonblocking: true}, 3, 0},
		{PoolDecl{Name: "p", Size: 1, MaxBlocking: 2}, 1, 2},
		{PoolDecl{Name: "p", Size: 1}, 0, 3},
	} {
		r := simulateProg(t, 1, &Program{
			Pools: []PoolDecl{c.decl},
			Main: []Op{
				submit(0, 1, sleep(10*time.Millisecond)),
				goN(3, submit(0, 1, cpu(time.Millisecond))),
				waitKids(),
			},
		})
		st := r.m.Pools()[0].Stats
		if st.Rejected != c.rejected || st.Blocked != c.waited || len(r.all(KindPoolReject)) != c.rejected {
			t.Errorf("%+v: rejected %d, waited %d; want %d and %d", c.decl, st.Rejected, st.Blocked, c.rejected, c.waited)
		}
		if st.Submitted+st.Rejected != 4 {
			t.Errorf("%+v: %d accepted and %d rejected of 4", c.decl, st.Submitted, st.Rejected)
		}
	}
}

// The purge stops a worker exactly when it has been idle for the expiry,
// as seen by the purge goroutine, which the timer starts late (timers run
// in findRunnable), and re-arms for the oldest of the rest.
func TestPoolPurgesExpiredWorkersAndRearms(t *testing.T) {
	r := simulateProg(t, 2, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 4, Expiry: 10 * time.Millisecond}},
		Main: []Op{
			submit(0, 1, cpu(1*time.Millisecond)),
			submit(0, 1, cpu(5*time.Millisecond)),
			sleep(40 * time.Millisecond),
			waitKids(),
		},
	})
	purges := r.all(KindPoolPurge)
	if len(purges) != 2 {
		t.Fatalf("%d purges, want 2 (one per worker)\n%s", len(purges), r.dump())
	}
	idle := map[int]time.Duration{}
	for _, e := range r.all(KindPoolIdle) {
		idle[e.N] = e.T.D()
	}
	for i, e := range purges {
		if e.N != 1 {
			t.Fatalf("purge %d stopped %d workers, want 1", i, e.N)
		}
		if e.D2 < 10*time.Millisecond || e.D2 > 11*time.Millisecond {
			t.Errorf("purge %d stopped a worker idle for %v, want just over the 10ms expiry", i, e.D2)
		}
	}
	if !purges[0].Flag || purges[1].Flag {
		t.Errorf("the first purge should re-arm for the second worker, the second not at all")
	}
	if want := idle[2] + 10*time.Millisecond - purges[0].T.D(); purges[0].D != want {
		t.Errorf("re-armed in %v, want %v (w2's last use + expiry)", purges[0].D, want)
	}
	if st := r.m.Pools()[0].Stats; st.WorkersPurged != 2 || r.m.Pools()[0].Running != 0 {
		t.Fatalf("stats %+v, running %d", st, r.m.Pools()[0].Running)
	}
}

// wait: children waits for the tasks main submitted, not for the pool's
// workers, which outlive them.
func TestWaitChildrenWaitsForTasksNotWorkers(t *testing.T) {
	r := simulateProg(t, 2, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 2}},
		Main:  []Op{submit(0, 4, cpu(time.Millisecond)), waitKids()},
	})
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v: %v", r.m.End().Reason, r.m.End().Err)
	}
	done := r.m.Now().D()
	if done < 2*time.Millisecond || done > 3*time.Millisecond {
		t.Fatalf("main returned at %v; 4 tasks of 1ms on 2 workers take 2ms", done)
	}
	if n := r.m.Live(); n != 3 {
		t.Fatalf("%d goroutines alive at the end, want main and the 2 idle workers", n)
	}
}

// A task calling runtime.Goexit takes its worker with it; the pool starts
// a new worker for the first waiter (package pool's workerLost).
func TestPoolReplacesAWorkerLostToGoexit(t *testing.T) {
	r := simulateProg(t, 1, &Program{
		Pools: []PoolDecl{{Name: "p", Size: 1}},
		Main: []Op{
			submit(0, 1, cpu(time.Millisecond), Op{Kind: OpExit}),
			submit(0, 1, cpu(time.Millisecond)),
			waitKids(),
		},
	})
	d := r.dispatches()
	if len(d) != 2 || d[1] != [3]int{2, 2, int(RulePoolServeWaiter)} {
		t.Fatalf("dispatches %v, want task 2 on a new worker w2 started for the waiter\n%s", d, r.dump())
	}
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v: %v", r.m.End().Reason, r.m.End().Err)
	}
}

// A task that submits to its own full, blocking pool waits for a worker
// that is itself: the run deadlocks, and the report names the pool.
// Nonblocking turns the nested submit into a rejection instead.
func TestNestedSubmitDeadlocksUnlessNonblocking(t *testing.T) {
	prog := func(nonblocking bool) *Program {
		return &Program{
			Pools: []PoolDecl{{Name: "p", Size: 2, Nonblocking: nonblocking}},
			Main:  []Op{submit(0, 2, cpu(time.Millisecond), submit(0, 1, cpu(time.Millisecond))), waitKids()},
		}
	}
	r := simulateProg(t, 2, prog(false))
	end := r.m.End()
	if end.Reason != Deadlock || !strings.Contains(end.Err.Error(), `waiting in Submit for a worker of pool "p"`) {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
	// Both workers submit at about the same time; the first finds none
	// idle and is rejected, the second may find the first back already.
	r = simulateProg(t, 2, prog(true))
	if end := r.m.End(); end.Reason != MainReturned || r.m.Pools()[0].Stats.Rejected < 1 {
		t.Fatalf("nonblocking: end %v (%v), %d rejected", end.Reason, end.Err, r.m.Pools()[0].Stats.Rejected)
	}
}

// x/sync/semaphore: a waiter that does not fit holds back the smaller
// ones behind it, so it is not starved; release wakes waiters in order
// for as long as they fit.
func TestSemaphoreKeepsALargeWaiterFirst(t *testing.T) {
	// The gaps are milliseconds: shorter sleeps last a millisecond anyway
	// on an idle machine, as epoll_wait counts in whole milliseconds.
	r := simulateProg(t, 8, &Program{
		Sems: []SemDecl{{Name: "s", Size: 4}},
		Main: []Op{
			goN(4, acquire(0, 1), cpu(20*time.Millisecond), release(0, 1)), // G2-G5 hold all 4
			sleep(5 * time.Millisecond),
			goN(1, acquire(0, 3), cpu(time.Millisecond), release(0, 3)), // G6 waits for 3
			sleep(5 * time.Millisecond),
			goN(1, acquire(0, 1), cpu(time.Millisecond), release(0, 1)), // G7 waits behind it
			waitKids(),
		},
	})
	var got []GID
	for _, e := range r.events {
		if e.Kind == KindSemAcquire && e.Rule == RuleSemAcquire || e.Kind == KindGoUnblock && e.Rule == RuleReadySem {
			got = append(got, e.G)
		}
	}
	if len(got) != 6 || !slices.Equal(got[4:], []GID{6, 7}) {
		t.Fatalf("acquired in order %v: G6 (3) must go before G7 (1), though G7 fit earlier\n%s", got, r.dump())
	}
	var woke []int
	var heldBack []bool
	for _, e := range r.all(KindSemRelease) {
		woke = append(woke, int(e.N3))
		heldBack = append(heldBack, e.Flag)
	}
	// Four releases of 1: the first two free too little for G6, and G7,
	// which would fit, waits behind it; the third lets G6 through, with
	// G7 now short of room; the fourth lets G7 through.
	if !slices.Equal(woke[:4], []int{0, 0, 1, 1}) || !slices.Equal(heldBack[:4], []bool{true, true, true, false}) {
		t.Fatalf("waiters woken per release %v, held back %v", woke, heldBack)
	}
}

// Acquiring more than the semaphore holds waits forever: a deadlock
// reported at the acquire.
func TestSemaphoreAcquireBeyondSizeDeadlocks(t *testing.T) {
	r := simulateProg(t, 1, &Program{
		Sems: []SemDecl{{Name: "s", Size: 2}},
		Main: []Op{{Kind: OpAcquire, Sem: 0, N: 3, Pos: Pos{File: "x.yaml", Line: 4, Col: 5}}},
	})
	if end := r.m.End(); end.Reason != Deadlock || !strings.HasPrefix(end.Err.Error(), "x.yaml:4:5: ") {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
}

// errgroup with SetLimit never has more than limit goroutines of the
// group alive, blocks the caller in Go meanwhile, and Wait returns once
// all are done.
func TestErrgroupLimitsItsGoroutines(t *testing.T) {
	r := simulateProg(t, 4, &Program{
		Main: []Op{errgroupOp(3, 10, cpu(time.Millisecond)), sleep(time.Millisecond)},
	})
	live, peak := 0, 0
	for _, e := range r.events {
		switch {
		case e.Kind == KindGoCreate && e.Rule == RuleGroupGo:
			live++
			peak = max(peak, live)
		case e.Kind == KindGoExit && e.G != 1:
			live--
		}
	}
	if peak != 3 {
		t.Fatalf("at most %d group goroutines alive, want the limit 3", peak)
	}
	if n := len(r.all(KindGoCreate)); n != 10 {
		t.Fatalf("%d goroutines created, want 10", n)
	}
	blocked := 0
	for _, e := range r.all(KindGoBlock) {
		if e.G == 1 && e.Reason == ReasonChanSend {
			blocked++
		}
	}
	if blocked == 0 || r.m.End().Reason != MainReturned {
		t.Fatalf("main blocked in Go %d times; end %v", blocked, r.m.End().Reason)
	}
	if len(r.m.Chans()) != 1 || len(r.m.groups) != 0 {
		t.Fatalf("%d channels, %d groups left", len(r.m.Chans()), len(r.m.groups))
	}
}

// Every pool and semaphore event is emitted before the changes it
// describes (the UI shows the state after an event as the state when
// the next one is emitted): when the sink sees a decision, the books do
// not show it yet.
func TestPoolEventsComeBeforeTheirChanges(t *testing.T) {
	prog := mixedProgram()
	m, err := New(Config{Procs: 2, Seed: 3, Costs: DefaultCosts(), Check: true}, prog)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Kind]int{}
	m.SetSink(func(e Event) {
		pl := &m.pools[0]
		switch e.Kind {
		case KindPoolDispatch:
			if pl.Stats.Submitted != e.N2-1 {
				t.Errorf("at the dispatch of task %d the pool has accepted %d", e.N2, pl.Stats.Submitted)
			}
		case KindPoolIdle:
			if w := pl.workerOf(e.G); w.State != WorkerBusy {
				t.Errorf("at its idle event w%d is already %v", w.ID, w.State)
			}
		case KindPoolBlock:
			if pl.Waiters.Len() != e.N2-1 {
				t.Errorf("at the block of waiter #%d, %d wait already", e.N, pl.Waiters.Len())
			}
		case KindPoolPurge:
			if !pl.PurgeArmed {
				t.Errorf("the purge is disarmed before its event")
			}
		case KindSemAcquire:
			if e.Rule == RuleSemAcquire && m.sems[0].Cur != e.N2-e.N {
				t.Errorf("sem-acquire to %d taken: already %d", e.N2, m.sems[0].Cur)
			}
		}
		seen[e.Kind]++
	})
	if end := m.Run(); end.Reason != MainReturned {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
	for _, k := range []Kind{KindPoolDispatch, KindPoolIdle, KindPoolBlock, KindPoolPurge, KindSemAcquire} {
		if seen[k] == 0 {
			t.Errorf("the program produced no %v event, so this test checked nothing of it", k)
		}
	}
}
