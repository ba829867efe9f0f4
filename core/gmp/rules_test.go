package gmp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Rules of docs/rules.md asserted with numbers, on small programs.

func gids(from, to int) []GID {
	var out []GID
	for i := from; i <= to; i++ {
		out = append(out, GID(i))
	}
	return out
}

func (r *run) first(k Kind, rule Rule) (Event, bool) {
	for _, e := range r.events {
		if e.Kind == k && (rule == RuleNone || e.Rule == rule) {
			return e, true
		}
	}
	return Event{}, false
}

func (r *run) all(k Kind) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// R2.5, V1: 300 goroutines created on one P.
func TestRunqOverflowMovesOldestHalfPlusOne(t *testing.T) {
	prog := &Program{Main: []Op{goN(300, cpu(time.Millisecond)), cpu(5 * time.Millisecond)}}
	m, err := New(Config{Procs: 1, Seed: 1, Until: time.Millisecond, Costs: DefaultCosts(), Check: true}, prog)
	if err != nil {
		t.Fatal(err)
	}
	var overflow []Event
	m.SetSink(func(e Event) {
		if e.Kind == KindRunqOverflow {
			overflow = append(overflow, e)
		}
	})
	if end := m.Run(); end.Reason != UntilReached {
		t.Fatalf("run ended with %v: %v", end.Reason, end.Err)
	}
	line := m.SchedTrace(false)
	if !strings.Contains(line, "runqueue=129 [ 170 ]") {
		t.Errorf("schedtrace = %q, want runqueue=129 [ 170 ]", line)
	}
	if len(overflow) != 1 || overflow[0].N != 129 || overflow[0].G != 258 {
		t.Fatalf("overflow events = %+v, want one moving 129 with G258 last", overflow)
	}
	wantGlobal := append(gids(2, 129), 258)
	if got := m.Sched().Runq(); !slices.Equal(got, wantGlobal) {
		t.Errorf("global queue = %v\nwant %v", got, wantGlobal)
	}
	wantRing := append(gids(130, 257), gids(259, 300)...)
	if got := m.P(0).Runq(); !slices.Equal(got, wantRing) {
		t.Errorf("ring = %v\nwant %v", got, wantRing)
	}
	if rn := m.P(0).Runnext; rn != 301 {
		t.Errorf("runnext = %v, want G301", rn)
	}
}

// R2.3: the newest G runs first and inherits the slice; the rest FIFO.
func TestRunnextOrder(t *testing.T) {
	r := simulate(t, 1, 0, nil, goN(3, cpu(100*time.Microsecond)), waitKids())
	var order []GID
	var ticks []int
	for _, e := range r.all(KindGoStart) {
		order = append(order, e.G)
		ticks = append(ticks, e.N)
	}
	if want := []GID{1, 4, 2, 3, 1}; !slices.Equal(order, want) {
		t.Fatalf("start order %v, want %v", order, want)
	}
	// G4 comes from runnext and keeps main's tick 1; G2 and G3 are fresh slices.
	if want := []int{1, 1, 2, 3, 3}; !slices.Equal(ticks, want) {
		t.Fatalf("schedticks at each start %v, want %v", ticks, want)
	}
}

// R6.7, V2: CPU-bound Gs get about 20ms slices once sysmon has backed off.
func TestCPUBoundSlicesAreAbout20ms(t *testing.T) {
	r := simulate(t, 1, 300*time.Millisecond, nil, goN(3, cpu(time.Second)), waitKids())
	stops := r.all(KindGoStop)
	if len(stops) < 10 {
		t.Fatalf("only %d preemptions in 300ms", len(stops))
	}
	first := stops[0]
	if first.D < 10*time.Millisecond || first.D > 20*time.Millisecond {
		t.Errorf("first slice %v, want between 10ms and 20ms while sysmon backs off", first.D)
	}
	for _, e := range stops[2:] {
		if e.Reason != ReasonPreempted {
			t.Fatalf("stop reason %q", e.Reason)
		}
		if e.D < 20*time.Millisecond || e.D > 20200*time.Microsecond {
			t.Errorf("slice at %v lasted %v, want ≈20.1ms", e.T, e.D)
		}
	}
}

// V8: time.Sleep(1ms) next to a hog lasts ≈20ms on 1 P, ≈1ms on 2 Ps.
func TestSleepLatencyUnderAHog(t *testing.T) {
	sleeps := func(procs int) []time.Duration {
		r := simulate(t, procs, time.Second, nil,
			goN(1, cpu(time.Second)),
			cpu(30*time.Millisecond), // let sysmon settle at 10ms
			loop(5, sleep(time.Millisecond)))
		var out []time.Duration
		var parked time.Duration
		for _, e := range r.events {
			if e.G != 1 {
				continue
			}
			switch {
			case e.Kind == KindGoBlock && e.Reason == ReasonSleep:
				parked = e.T.D()
			case e.Kind == KindGoUnblock && e.Rule == RuleReadyTimer:
				out = append(out, e.T.D()-parked)
			}
		}
		if len(out) != 5 {
			t.Fatalf("procs=%d: %d sleeps completed, want 5", procs, len(out))
		}
		return out
	}
	for _, d := range sleeps(1) {
		if d < 10*time.Millisecond || d > 21*time.Millisecond {
			t.Errorf("1 P: sleep lasted %v, want ≈20ms", d)
		}
	}
	for _, d := range sleeps(2) {
		if d < time.Millisecond || d > 1100*time.Microsecond {
			t.Errorf("2 Ps: sleep lasted %v, want ≈1ms", d)
		}
	}
}

// R3.5: the fairness check takes one G from the global queue on the 61st
// fresh slice, even with the local ring non-empty.
func TestFairnessCheckEvery61Ticks(t *testing.T) {
	r := simulate(t, 1, 0, nil, goN(100, cpu(50*time.Microsecond)), gosched(), cpu(time.Microsecond), waitKids())
	e, ok := r.first(KindGoStart, RuleGlobalFairness)
	if !ok {
		t.Fatal("no fairness pick")
	}
	if e.G != 1 || e.N != 62 {
		t.Fatalf("fairness pick %v at schedtick %d, want G1 at 62", e.G, e.N)
	}
	// 60 locally queued Gs ran first (G101 from runnext inherited, then G2..G61).
	starts := 0
	for _, x := range r.events {
		if x.Kind == KindGoStart && x.T < e.T && x.G != 1 {
			starts++
		}
	}
	if starts != 61 {
		t.Fatalf("%d goroutines ran before main came back, want 61", starts)
	}
}

// R3.8, V6: a thief takes half (rounded up) and runs the last one taken.
func TestStealTakesHalfAndRunsTheLast(t *testing.T) {
	r := simulate(t, 2, 0, nil, goN(8, cpu(time.Millisecond)), cpu(2*time.Millisecond), waitKids())
	e, ok := r.first(KindSteal, RuleRunqsteal)
	if !ok {
		t.Fatal("no steal")
	}
	// At the steal P0's ring held G2..G8 (G9 in runnext): 7, half rounded up is 4.
	if e.N != 4 || e.G != 5 || e.N2 != 3 || e.P2 != 0 || e.P != 1 {
		t.Fatalf("steal %+v, want 4 taken from P0 by P1, G5 run, 3 left", e)
	}
	next := r.events[slices.IndexFunc(r.events, func(x Event) bool { return x == e })+1]
	if next.Kind != KindGoStart || next.G != 5 || next.P != 1 {
		t.Fatalf("after the steal: %+v, want G5 starting on P1", next)
	}
	var p1 []GID
	for _, x := range r.all(KindGoStart) {
		if x.P == 1 {
			p1 = append(p1, x.G)
		}
	}
	if !slices.Equal(p1[:4], []GID{5, 2, 3, 4}) {
		t.Fatalf("P1 ran %v first, want G5 then G2 G3 G4 in order", p1[:4])
	}
}

// R2.7, R4.2: at most one spinning M is started at a time; the next is
// started by the one that found work.
func TestSpinningRampsUpOneAtATime(t *testing.T) {
	r := simulate(t, 4, 0, nil, goN(32, cpu(2*time.Millisecond)), cpu(5*time.Millisecond), waitKids())
	spinners := 0
	busy := map[PID]bool{}
	for _, e := range r.events {
		if e.Kind == KindMStart && e.N == 1 {
			spinners++
		}
		if e.Kind == KindGoStart {
			busy[e.P] = true
		}
	}
	if spinners < 3 {
		t.Fatalf("%d spinning Ms started, want one per idle P", spinners)
	}
	if len(busy) != 4 {
		t.Fatalf("Ps that ran Gs: %v, want all 4", busy)
	}
	// Between two wakep m-starts there is always a steal: the chain.
	last := -1
	for i, e := range r.events {
		if e.Kind == KindMStart && e.Rule == RuleWakep {
			if last >= 0 {
				found := false
				for _, x := range r.events[last:i] {
					if x.Kind == KindSteal || x.Kind == KindProcStop || x.Kind == KindGoStart {
						found = true
					}
				}
				if !found {
					t.Fatalf("two wakep starts at %v and %v with nothing found in between", r.events[last].T, e.T)
				}
			}
			last = i
		}
	}
}

// R5.7: with Gs queued on its P, a syscall loses the P on the sysmon pass
// after the one that noted it; the G returns to no P (R5.5).
func TestSyscallRetakeWhenBusy(t *testing.T) {
	r := simulate(t, 1, 0, nil, goN(4, cpu(2*time.Millisecond)), syscall(20*time.Microsecond), syscall(5*time.Millisecond), waitKids())
	enters := r.all(KindSyscallEnter)
	steal, ok := r.first(KindProcSteal, RuleRetake)
	if !ok || len(enters) != 2 {
		t.Fatal("no retake")
	}
	if steal.RetakeCause() != RetakeQueued {
		t.Errorf("retake cause %d, want queued work", steal.N2)
	}
	if d := steal.T.Sub(enters[1].T); d > 200*time.Microsecond {
		t.Errorf("P retaken %v after the syscall began, want within two early sysmon passes", d)
	}
	exits := r.all(KindSyscallExit)
	if exits[0].Rule != RuleExitsyscallFast || exits[1].Rule != RuleExitsyscallNoP {
		t.Fatalf("exits %v %v, want the fast path then exitsyscallNoP", exits[0].Rule, exits[1].Rule)
	}
}

// R5.7: with nothing queued and an idle P, the syscall keeps its P until
// 10ms after sysmon first noted it.
func TestSyscallGraceWhenIdle(t *testing.T) {
	r := simulate(t, 2, 0, nil, syscall(20*time.Microsecond), cpu(100*time.Microsecond), syscall(30*time.Millisecond))
	enters := r.all(KindSyscallEnter)
	steal, ok := r.first(KindProcSteal, RuleRetake)
	if !ok {
		t.Fatal("no retake")
	}
	if d := steal.T.Sub(enters[1].T); d < 10*time.Millisecond || d > 21*time.Millisecond {
		t.Errorf("P retaken %v after the syscall began, want 10ms after the first sighting plus up to a sysmon period", d)
	}
	if steal.RetakeCause() != RetakeGraceOver {
		t.Errorf("retake cause %d, want grace over", steal.N2)
	}
	if e, _ := r.first(KindMStart, RuleNone); e.Rule != RuleHandoffPoll {
		t.Errorf("handoffp started an M with rule %v, want the last-P-no-poller rule", e.Rule)
	}
	if exits := r.all(KindSyscallExit); len(exits) != 2 || exits[1].Rule != RuleExitsyscallIdleP {
		t.Errorf("exits %+v, want the long syscall to return to an idle P", exits)
	}
}

// R5.4(a): a returning G takes its old P back from another thread that is
// in a syscall with it. The timing is pinned: sysmon passes every 70µs
// (20µs + 50µs slack); it retakes P0 from G1 at 70µs (G2 is queued; a P's
// first syscall is no first sighting), M2 runs G2 from 90µs, G2's syscall
// starts at 190µs, is noted at 210µs and would be retaken at 280µs. G1's
// syscall returns at 241.1µs, inside that window.
func TestExitsyscallTakesOldPBack(t *testing.T) {
	if c := DefaultCosts(); c.Newproc != time.Microsecond || c.NewM != 20*time.Microsecond ||
		c.UsleepSlack != 50*time.Microsecond || c.Syscall != 100*time.Nanosecond {
		t.Fatalf("the timing of this test assumes the default costs; they are %+v", c)
	}
	r := simulate(t, 1, 0, nil,
		goN(1, cpu(100*time.Microsecond), syscall(20*time.Millisecond)),
		syscall(240*time.Microsecond), waitKids())
	e, ok := r.first(KindProcSteal, RuleTakeBackOldP)
	if !ok {
		t.Fatalf("no take-back\n%s", r.dump())
	}
	if e.M != 0 || e.G != 2 || e.P != 0 {
		t.Fatalf("take-back %+v, want M0 taking P0 from G2's thread", e)
	}
	exit, _ := r.first(KindSyscallExit, RuleExitsyscallOldP)
	if exit.G != 1 {
		t.Fatalf("exit %+v", exit)
	}
}

// R5.6: entersyscallblock hands the P off at once.
func TestEntersyscallblockHandsOffAtOnce(t *testing.T) {
	r := simulate(t, 2, 0, nil, goN(2, cpu(time.Millisecond)), Op{Kind: OpSyscall, Dur: Fixed(5 * time.Millisecond), Block: true}, waitKids())
	enter, _ := r.first(KindSyscallEnter, RuleEntersyscallblock)
	stop, ok := r.first(KindProcStop, RuleEntersyscallblock)
	if !ok || stop.T != enter.T || stop.P != 0 {
		t.Fatalf("enter %+v stop %+v: want P0 released at the same instant", enter, stop)
	}
	if e, _ := r.first(KindMStart, RuleHandoffWork); e.P != 0 || e.T != enter.T {
		t.Fatalf("handoffp did not start an M for P0's queued work: %+v", e)
	}
}

// R8.2: a woken G goes into the waker's runnext, on the waker's P.
func TestGoreadyUsesTheWakersP(t *testing.T) {
	chans := []ChanDecl{{Name: "c"}}
	r := simulate(t, 2, 0, chans,
		goN(1, recv(0)),
		cpu(10*time.Microsecond), // G2 starts on P1 (stolen) and parks
		cpu(500*time.Microsecond),
		send(0), cpu(time.Millisecond), waitKids())
	e, ok := r.first(KindGoUnblock, RuleReadyChan)
	if !ok || e.G != 2 {
		t.Fatalf("no chan wake of G2\n%s", r.dump())
	}
	parked, _ := r.first(KindGoBlock, RuleNone)
	if parked.G != 2 || parked.P == e.P {
		t.Fatalf("G2 parked on %v and was woken by a G on %v; want different Ps for this test", parked.P, e.P)
	}
	if e.To != at(LocRunnext, e.P) {
		t.Fatalf("woken into %+v, want the waker's runnext", e.To)
	}
}

// R8.3: close readies every waiter, in reverse queue order; the last one
// readied stays in runnext.
func TestCloseReadiesWaitersInReverse(t *testing.T) {
	chans := []ChanDecl{{Name: "c"}}
	r := simulate(t, 1, 0, chans, goN(3, recv(0)), sleep(time.Millisecond), closeCh(0), waitKids())
	var woken []GID
	for _, e := range r.all(KindGoUnblock) {
		if e.Rule == RuleReadyClose {
			woken = append(woken, e.G)
		}
	}
	// G4 ran first (runnext), then G2, G3: they parked in order 4, 2, 3.
	if want := []GID{3, 2, 4}; !slices.Equal(woken, want) {
		t.Fatalf("close readied %v, want %v", woken, want)
	}
}

// R9.2: polled Gs spread over idle Ps: one per idle P to the global queue
// with an M started for each, the rest to the poller's ring.
func TestInjectglistSpreadsOverIdlePs(t *testing.T) {
	r := simulate(t, 4, 0, nil, goN(8, netread(2*time.Millisecond), cpu(time.Millisecond)), waitKids())
	global, local, started := 0, 0, 0
	for _, e := range r.events {
		switch e.Rule {
		case RuleInjectGlobal:
			global++
		case RuleInjectLocal:
			local++
		case RuleInjectStart:
			started++
		}
	}
	if global != 3 || started != 3 || local != 4 {
		t.Fatalf("global=%d started=%d local=%d, want 3 3 4", global, started, local)
	}
	if _, ok := r.first(KindGoUnblock, RuleNetpollRun); !ok {
		t.Fatal("the poller did not run the first G itself")
	}
}

// R10.2, R10.3: the free lists move 33 descriptors at 64 and refill 32;
// a second wave allocates nothing new.
func TestFreeListsRecycleDescriptors(t *testing.T) {
	r := simulate(t, 1, 0, nil, loop(2, goN(70, cpu(20*time.Microsecond)), waitKids()))
	put, ok := r.first(KindGFree, RuleGfput)
	if !ok || put.N != 33 || put.N2 != 31 {
		t.Fatalf("gfput %+v, want 33 moved, 31 kept", put)
	}
	get, ok := r.first(KindGFree, RuleGfget)
	if !ok || get.N != 32 {
		t.Fatalf("gfget %+v, want a refill of 32", get)
	}
	if d := r.m.Descriptors(); d != 71 {
		t.Fatalf("%d descriptors allocated for 141 goroutines, want 71", d)
	}
}

// R7.2: a request that finds the G in runtime code is honoured at the
// prologue of its next runtime call. A goroutine that only sends to and
// receives from a buffered channel never parks, so every request lands in
// a channel operation's work and is honoured at the next operation's
// entry; none is lost.
func TestPreemptionAtRuntimeCallEntry(t *testing.T) {
	chans := []ChanDecl{{Name: "box", Cap: 1}}
	r := simulate(t, 1, 80*time.Millisecond, chans,
		loop(10_000_000, send(0), recv(0)))
	lost := 0
	for _, e := range r.all(KindGoBlock) {
		if e.Flag {
			lost++
		}
	}
	requests := len(r.all(KindSysmon))
	stops := r.all(KindGoStop)
	if requests == 0 || lost != 0 || len(stops) == 0 {
		t.Fatalf("%d requests, %d lost, %d preemptions: a goroutine in non-parking channel operations should be preempted at them",
			requests, lost, len(stops))
	}
	for _, e := range stops {
		if e.Rule != RulePreemptSync || e.Op == nil || (e.Op.Kind != OpSend && e.Op.Kind != OpRecv) {
			t.Errorf("preempted by %v at %v, want the sync path at a channel operation", e.Rule.Fn(), e.Op)
		}
	}
}

// R7.6: a request that arrives after a G has entered a channel operation
// it then parks in is lost: the G parks holding it and execute clears it.
// A ping-pong pair on one P spends its time in such operations: without
// noise every one of sysmon's requests lands in one, the go-block that
// parks says so, and the pair is never preempted.
func TestPreemptionLostToAParkingChannelOperation(t *testing.T) {
	chans := []ChanDecl{{Name: "ping"}, {Name: "pong"}}
	r := simulate(t, 1, 80*time.Millisecond, chans,
		goN(1, loop(1_000_000, recv(0), send(1))),
		loop(1_000_000, send(0), recv(1)))
	requests := r.all(KindSysmon)
	var lost []Event
	for _, e := range r.all(KindGoBlock) {
		if e.Flag {
			lost = append(lost, e)
		}
	}
	if len(requests) == 0 || len(lost) != len(requests) || len(r.all(KindGoStop)) != 0 {
		t.Fatalf("%d requests, %d lost, %d preemptions; want every request lost", len(requests), len(lost), len(r.all(KindGoStop)))
	}
	for i, e := range lost {
		if e.Op == nil || (e.Op.Kind != OpSend && e.Op.Kind != OpRecv) || e.G != requests[i].G || e.T.Sub(requests[i].T) > 200*time.Nanosecond {
			t.Errorf("request %+v was lost by %+v, want the same G parking in the channel operation it was in", requests[i], e)
		}
	}
}

func TestDeadlockIsReportedAtTheBlockedAction(t *testing.T) {
	chans := []ChanDecl{{Name: "c"}}
	op := recv(0)
	op.Pos = Pos{File: "x.yaml", Line: 7, Col: 5}
	r := simulate(t, 2, 0, chans, cpu(time.Microsecond), op)
	end := r.m.End()
	if end.Reason != Deadlock {
		t.Fatalf("end %v, want deadlock", end.Reason)
	}
	msg := end.Err.Error()
	if !strings.HasPrefix(msg, "x.yaml:7:5: ") || !strings.Contains(msg, "deadlock") || !strings.Contains(msg, `channel "c"`) {
		t.Fatalf("error %q", msg)
	}
}

func TestCloseOfClosedChannelPanics(t *testing.T) {
	chans := []ChanDecl{{Name: "c"}}
	second := closeCh(0)
	second.Pos = Pos{File: "x.yaml", Line: 9, Col: 5}
	r := simulate(t, 1, 0, chans, closeCh(0), second)
	end := r.m.End()
	if end.Reason != Panicked || !strings.HasPrefix(end.Err.Error(), "x.yaml:9:5: panic: close of closed channel") {
		t.Fatalf("end %v %v", end.Reason, end.Err)
	}
}

// Calling exit in main stops main but not the program.
func TestMainGoexitLetsOthersRun(t *testing.T) {
	r := simulate(t, 1, 0, nil, goN(1, cpu(time.Millisecond)), Op{Kind: OpExit})
	end := r.m.End()
	if end.Reason != Deadlock || !strings.Contains(end.Err.Error(), "main called runtime.Goexit") {
		t.Fatalf("end %v %v", end.Reason, end.Err)
	}
	if e, ok := r.first(KindGoExit, RuleGoexit); !ok || e.G != 2 {
		t.Fatal("G2 did not run to its end after main's Goexit")
	}
}
