package gmp

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func selectOp(cases ...SelectCase) Op { return Op{Kind: OpSelect, Cases: cases} }
func caseRecv(c int, body ...Op) SelectCase {
	return SelectCase{Dir: SelectRecv, Chan: c, Body: body}
}
func caseSend(c int, body ...Op) SelectCase {
	return SelectCase{Dir: SelectSend, Chan: c, Body: body}
}
func caseAfter(d time.Duration, body ...Op) SelectCase {
	return SelectCase{Dir: SelectAfter, Dur: Fixed(d), Body: body}
}
func caseDefault(body ...Op) SelectCase { return SelectCase{Dir: SelectDefault, Body: body} }

// runSeeded runs main on procs Ps with seed, the invariants checked after
// every step, and stops when stop says so (nil: at the end).
func runSeeded(t *testing.T, seed uint64, procs int, chans []ChanDecl, main ...Op) *run {
	t.Helper()
	prog := &Program{Name: t.Name(), Chans: chans, Main: main}
	m, err := New(Config{Procs: procs, Seed: seed, Costs: DefaultCosts(), Check: true}, prog)
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

func (r *run) rule(rule Rule) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Rule == rule {
			out = append(out, e)
		}
	}
	return out
}

// selectgo's poll order is a random permutation (cheaprandn): with two
// channels ready at once, which case a select takes depends on the draw.
// The model draws from the run's seed, so each seed always takes the same
// case, and over seeds both are taken, about as often.
func TestSelectPollOrderIsDrawnFromTheSeed(t *testing.T) {
	chans := []ChanDecl{{Name: "a", Cap: 1}, {Name: "b", Cap: 1}}
	main := []Op{send(0), send(1), selectOp(caseRecv(0), caseRecv(1))}
	taken := map[int]int{}
	for seed := uint64(1); seed <= 200; seed++ {
		r := runSeeded(t, seed, 1, chans, main...)
		picks := r.rule(RuleSelectPick)
		if len(picks) != 1 || picks[0].How() != ReadyBuffer {
			t.Fatalf("seed %d: picks %+v, want one from a buffer\n%s", seed, picks, r.dump())
		}
		c := picks[0].SelCase()
		if order := UnpackPollOrder(picks[0].PollOrder(), picks[0].Polled()); order[0] != c || len(order) != 2 {
			t.Fatalf("seed %d: poll order %v, but it took case %d: pass 1 takes the first ready case polled", seed, order, c)
		}
		if again := runSeeded(t, seed, 1, chans, main...).rule(RuleSelectPick)[0].SelCase(); again != c {
			t.Fatalf("seed %d took case %d, then case %d: the draw must come from the seed", seed, c, again)
		}
		taken[c]++
	}
	if taken[0] < 70 || taken[1] < 70 {
		t.Errorf("over 200 seeds the select took case 0 %d times and case 1 %d times: want each about half", taken[0], taken[1])
	}
}

// Pass 2 queues a sudog on every channel, each knowing its case, and the
// goroutine parks once, in its select (waitReasonSelect); the first
// partner wins it, and pass 3 takes it off every other queue.
func TestSelectParksOnEveryChannelAndLeavesThemAll(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	prog := &Program{Chans: chans, Main: []Op{
		goN(1, selectOp(caseRecv(0), caseSend(1), caseRecv(2))),
		sleep(time.Millisecond), send(2), sleep(time.Millisecond),
	}}
	m, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts(), Check: true}, prog)
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	m.SetSink(func(e Event) { events = append(events, e) })
	for m.Step() && m.G(2).Status != Gwaiting {
	}
	g := m.G(2)
	if g.Where.Kind != LocSelect || g.WaitReason != ReasonSelect {
		t.Fatalf("G2 waits at %+v (%v), want in its select", g.Where, g.WaitReason)
	}
	queued := func() []string {
		var out []string
		for _, ch := range m.Chans() {
			for _, w := range ch.RecvQ.All() {
				out = append(out, fmt.Sprintf("%s recv %v case %d", ch.Name, w.G, w.sel-1))
			}
			for _, w := range ch.SendQ.All() {
				out = append(out, fmt.Sprintf("%s send %v case %d", ch.Name, w.G, w.sel-1))
			}
		}
		return out
	}
	want := []string{"a recv G2 case 0", "b send G2 case 1", "c recv G2 case 2"}
	if got := queued(); !slices.Equal(got, want) {
		t.Fatalf("queues hold %v, want %v", got, want)
	}
	m.Run()
	var woke, resumed *Event
	for i := range events {
		switch events[i].Rule {
		case RuleReadySelect:
			woke = &events[i]
		case RuleSelectResume:
			resumed = &events[i]
		}
	}
	if woke == nil || woke.G != 2 || woke.SelCase() != 2 || woke.Chan() != 2 || woke.Waker() != 1 {
		t.Fatalf("wake-up %+v: want G1's send on c to wake G2 with case 2", woke)
	}
	if resumed == nil || resumed.SelCase() != 2 || resumed.Dequeued() != 2 {
		t.Fatalf("pass 3 %+v: want case 2, taking the 2 other sudogs off", resumed)
	}
	if got := queued(); len(got) != 0 {
		t.Errorf("after pass 3 the queues still hold %v", got)
	}
}

// A select's sudogs can be claimed once (selectDone). Two partners come
// before the woken select runs: the first wins it; the second finds the
// stale sudog, drops it, and parks for want of a receiver (main returns
// before anyone receives), as waitq.dequeue skips a select whose CAS
// fails.
func TestSelectIsClaimedOnce(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}, {Name: "b"}}
	r := simulate(t, 1, 0, chans,
		goN(1, selectOp(caseRecv(0), caseRecv(1))), // G2 parks on a and b
		sleep(time.Millisecond),
		send(0),         // main wins G2's select with case 0: G2 goes into runnext
		goN(1, send(1)), // G3 kicks G2 out of runnext, and runs first when main parks
		sleep(time.Millisecond),
	)
	wins := r.rule(RuleReadySelect)
	if len(wins) != 1 || wins[0].G != 2 || wins[0].SelCase() != 0 || wins[0].Waker() != 1 {
		t.Fatalf("wake-ups %+v: want one, main's send on a waking G2 with case 0\n%s", wins, r.dump())
	}
	if n := len(r.rule(RuleReadyChan)); n != 0 {
		t.Fatalf("%d plain wake-ups: nobody may take the claimed select\n%s", n, r.dump())
	}
	skips := r.rule(RuleSelectSkip)
	if len(skips) != 1 || skips[0].G != 2 || skips[0].Partner() != 3 || skips[0].SelCase() != 1 {
		t.Fatalf("skips %+v: want G3 to drop G2's stale sudog for case 1\n%s", skips, r.dump())
	}
	if g := r.m.G(3); g.Where != (Loc{Kind: LocChanSend, ID: 1}) || !slices.Equal(r.m.Chans()[1].SendQ.GIDs(), []GID{3}) {
		t.Fatalf("G3 is at %+v, b's sendq %v: want G3 parked sending on b", g.Where, r.m.Chans()[1].SendQ.GIDs())
	}
}

// With nothing ready and a default, pass 1 takes the default and never
// parks; the default's body runs next.
func TestSelectDefault(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}}
	r := simulate(t, 1, 0, chans, selectOp(caseRecv(0), caseDefault(sleep(time.Millisecond))))
	d := r.rule(RuleSelectDefault)
	if len(d) != 1 || d[0].SelCase() != 1 {
		t.Fatalf("defaults %+v, want the default (case 1) taken\n%s", d, r.dump())
	}
	if n := len(r.rule(RulePark)); n != 1 || r.rule(RulePark)[0].Reason != ReasonSleep {
		t.Fatalf("parks: %d, want only the default's sleep\n%s", n, r.dump())
	}
}

// A closed channel is ready in pass 1: a receive returns at once
// (rclose), a send panics (sclose).
func TestSelectOnAClosedChannel(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}, {Name: "b"}}
	r := simulate(t, 1, 0, chans, closeCh(0), selectOp(caseRecv(0), caseRecv(1)))
	if p := r.rule(RuleSelectPick); len(p) != 1 || p[0].How() != ReadyClosed || p[0].SelCase() != 0 {
		t.Fatalf("picks %+v: want the closed channel's receive\n%s", p, r.dump())
	}
	r = simulate(t, 1, 0, chans, closeCh(0), selectOp(caseSend(0), caseRecv(1)))
	if end := r.m.End(); end.Reason != Panicked || !strings.Contains(end.Err.Error(), "send on closed channel a") {
		t.Fatalf("end %v: %v; want a panic", end.Reason, end.Err)
	}
	// Closed while it waits: the send case wakes and panics in pass 3.
	r = simulate(t, 1, 0, chans, goN(1, selectOp(caseSend(0), caseRecv(1))), sleep(time.Millisecond), closeCh(0), sleep(time.Millisecond))
	if w := r.rule(RuleReadySelectClose); len(w) != 1 || w[0].SelCase() != 0 {
		t.Fatalf("close wake-ups %+v\n%s", w, r.dump())
	}
	if end := r.m.End(); end.Reason != Panicked || !strings.Contains(end.Err.Error(), "send on closed channel a [G2]") {
		t.Fatalf("end %v: %v; want G2 to panic", end.Reason, end.Err)
	}
}

// A time.After case's timer goes into the heap of the select's P when it
// parks (blockTimerChan) and, firing first, wakes it with that case into
// the runnext of the P that ran it, late as any timer (R8.5). Pass 3
// takes its channel sudogs off.
func TestSelectTimeout(t *testing.T) {
	chans := []ChanDecl{{Name: "jobs"}}
	r := simulate(t, 1, 0, chans, selectOp(caseRecv(0), caseAfter(5*time.Millisecond, cpu(time.Microsecond))))
	park, _ := r.first(KindGoBlock, RulePark)
	fired := r.rule(RuleReadySelectTimer)
	if len(fired) != 1 || fired[0].SelCase() != 1 || fired[0].To.Kind != LocRunnext {
		t.Fatalf("timer wake-ups %+v\n%s", fired, r.dump())
	}
	if after := fired[0].T.Sub(park.T); after < 5*time.Millisecond-DefaultCosts().ChanOp || after > 6*time.Millisecond {
		t.Errorf("woken %v after parking, want about 5ms", after)
	}
	if res := r.rule(RuleSelectResume); len(res) != 1 || res[0].Dequeued() != 1 {
		t.Fatalf("pass 3 %+v: want jobs' sudog taken off", res)
	}
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v: %v", r.m.End().Reason, r.m.End().Err)
	}
}

// When a channel wins, the timer is let go (unblockTimerChan) and never
// fires: it stays in P0's heap as a zombie until main's sleep adds a
// timer there, whose cleanHead takes it out, and no sendTime wake-up
// follows.
func TestSelectTimerStopsWhenAChannelWins(t *testing.T) {
	chans := []ChanDecl{{Name: "jobs"}}
	r := simulate(t, 1, 0, chans,
		goN(1, selectOp(caseRecv(0), caseAfter(5*time.Millisecond))),
		sleep(time.Millisecond), send(0), sleep(20*time.Millisecond))
	if res := r.rule(RuleSelectResume); len(res) != 1 || res[0].SelCase() != 0 || res[0].Stopped() != 1 {
		t.Fatalf("pass 3 %+v: want case 0, letting go of its timer\n%s", res, r.dump())
	}
	if n := len(r.rule(RuleReadySelectTimer)); n != 0 {
		t.Errorf("the stopped timer fired %d times", n)
	}
	if ts := r.m.P(0).Timers(); len(ts) != 0 {
		t.Errorf("timers left: %+v", ts)
	}
}

// block(): select {} parks for ever (waitReasonSelectNoCases), and a
// deadlock says so as Go's traceback does, [select (no cases)]; a select
// on channels nobody uses, [select].
func TestSelectDeadlockReports(t *testing.T) {
	r := simulate(t, 1, 0, nil, selectOp())
	if end := r.m.End(); end.Reason != Deadlock || !strings.Contains(end.Err.Error(), "G1 is blocked in select {} for ever (a select with no cases) [select (no cases)]") {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
	chans := []ChanDecl{{Name: "jobs"}, {Name: "out"}}
	r = simulate(t, 1, 0, chans, selectOp(caseRecv(0), caseSend(1)))
	if end := r.m.End(); end.Reason != Deadlock || !strings.Contains(end.Err.Error(), `G1 is blocked in select on "jobs" (recv) and "out" (send) [select]`) {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
	park, _ := r.first(KindGoBlock, RulePark)
	if got, want := r.d.Describe(park), "G1 blocks in select on jobs (recv) and out (send)"; got != want {
		t.Errorf("park sentence %q, want %q", got, want)
	}
}

// The compiler writes a select of one channel case as the operation
// itself (walkSelectCases): it parks as "chan receive", on the channel.
func TestSelectOfOneCaseIsTheChannelOperation(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}}
	r := simulate(t, 1, 0, chans, goN(1, selectOp(caseRecv(0, cpu(time.Microsecond)))), sleep(time.Millisecond), send(0), waitKids())
	var park Event
	for _, e := range r.rule(RulePark) {
		if e.G == 2 {
			park = e
		}
	}
	if park.Reason != ReasonChanRecv || park.To != (Loc{Kind: LocChanRecv}) {
		t.Fatalf("park %+v, want G2 receiving on a", park)
	}
	if n := r.count(KindSelect); n != 0 {
		t.Errorf("%d select events for a select the compiler rewrote", n)
	}
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v: %v", r.m.End().Reason, r.m.End().Err)
	}
}

// The lock order sorts by channel (the model's hchan address), the
// channels time.After makes after the declared ones, cases on one channel
// in poll order.
func TestSelectLockOrder(t *testing.T) {
	m, err := New(Config{Procs: 1, Seed: 1}, &Program{Chans: []ChanDecl{{Name: "a"}, {Name: "b"}, {Name: "c"}}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []SelectCase{{Dir: SelectRecv, Chan: 2}, {Dir: SelectAfter}, {Dir: SelectSend, Chan: 0}, {Dir: SelectRecv, Chan: 0}, {Dir: SelectDefault}}
	if got, want := m.lockOrder(cases, []int{1, 3, 0, 2}), []int{3, 2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("lock order %v, want %v", got, want)
	}
}

// A clone taken while a select waits runs on as the original does: the
// select's waits are copied, not shared.
func TestCloneMidSelect(t *testing.T) {
	chans := []ChanDecl{{Name: "a"}, {Name: "b"}}
	prog := &Program{Chans: chans, Main: []Op{goN(2, selectOp(caseRecv(0), caseRecv(1), caseAfter(3*time.Millisecond))),
		sleep(time.Millisecond), send(1), sleep(5 * time.Millisecond)}}
	m, err := New(Config{Procs: 2, Seed: 7, Costs: DefaultCosts(), Check: true}, prog)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSink(func(Event) {})
	for m.Step() && len(m.selects) < 2 {
	}
	c := m.Clone()
	trace := func(m *Machine) []string {
		var out []string
		d := NewDescriber(prog)
		m.SetSink(func(e Event) { out = append(out, d.Describe(e)) })
		if end := m.Run(); end.Reason != MainReturned {
			t.Fatalf("end %v: %v", end.Reason, end.Err)
		}
		return out
	}
	a := trace(m)
	if b := trace(c); !slices.Equal(a, b) {
		t.Fatalf("the clone ran differently:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}
