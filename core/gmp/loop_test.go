package gmp

import (
	"strings"
	"testing"
	"time"
)

func printOp(text string) Op         { return Op{Kind: OpPrint, Text: text} }
func setFlag(f int) Op               { return Op{Kind: OpSet, Flag: f} }
func loopUntil(f int, body ...Op) Op { return Op{Kind: OpLoop, Loop: LoopUntil, Flag: f, Body: body} }
func loopForever(body ...Op) Op      { return Op{Kind: OpLoop, Loop: LoopForever, Body: body} }

// runProg runs prog under cfg (with the invariants checked) and returns
// its events and how it ended.
func runProg(t *testing.T, cfg Config, prog Program) ([]Event, End, *Machine) {
	t.Helper()
	cfg.Check = true
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	m, err := New(cfg, &prog)
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	m.SetSink(func(e Event) { events = append(events, e) })
	end := m.Run()
	if end.Reason == Invariant {
		t.Fatalf("invariant broken: %v", end.Err)
	}
	return events, end, m
}

func firstOf(events []Event, pred func(*Event) bool) (int, *Event) {
	for i := range events {
		if pred(&events[i]) {
			return i, &events[i]
		}
	}
	return -1, nil
}

// for !done {} on one P, with the goroutine that sets done in runnext:
// the loop calls nothing, so main keeps P0 until sysmon's signal stops it
// about 10ms in; then G2 sets done, and main, run again, leaves the loop.
func TestCallFreeLoopStopsOnlyAtTheSignal(t *testing.T) {
	events, end, _ := runProg(t, Config{Procs: 1, Seed: 1}, spinUntil.prog)
	if end.Reason != MainReturned {
		t.Fatalf("run ended with %v (%v), want main returned", end.Reason, end.Err)
	}
	i, stop := firstOf(events, func(e *Event) bool { return e.Kind == KindGoStop && e.G == 1 })
	if stop == nil || stop.Rule != RulePreemptAsync {
		t.Fatalf("main stopped by %+v, want the asynchronous preemption", stop)
	}
	if stop.T.D() < 10*time.Millisecond {
		t.Errorf("main stopped at %v, before sysmon's 10ms", stop.T)
	}
	if w := NewDescriber(&spinUntil.prog).Describe(*stop); !strings.Contains(w, "loop that calls no function") {
		t.Errorf("the preemption does not say why only the signal could stop it: %s", w)
	}
	// Nothing of G2's happens before main is stopped.
	if j, e := firstOf(events, func(e *Event) bool { return e.Kind == KindGoStart && e.G == 2 }); e == nil || j < i {
		t.Errorf("G2 started at event %d, before main was preempted (event %d)", j, i)
	}
	if _, p := firstOf(events, func(e *Event) bool { return e.Kind == KindPrint }); p == nil || p.G != 1 {
		t.Errorf("main never printed done! after leaving the loop")
	}
}

// Under the cooperative policy the same loop is never stopped: sysmon's
// requests go unanswered, the run ends at its until:, and the event
// limit's message names the loop and why.
func TestCallFreeLoopHangsWhenCooperative(t *testing.T) {
	coop := Policy{Cooperative: true}
	events, end, _ := runProg(t, Config{Procs: 1, Seed: 1, Until: time.Second, Policy: coop}, spinUntil.prog)
	if end.Reason != UntilReached {
		t.Fatalf("run ended with %v, want until reached", end.Reason)
	}
	asks := 0
	for i := range events {
		e := &events[i]
		if e.Kind == KindGoStop || (e.Kind == KindGoStart && e.G == 2) {
			t.Fatalf("event %d: %s: nothing should stop main without a signal", i, NewDescriber(&spinUntil.prog).Describe(*e))
		}
		if e.Rule == RuleSysmonPreempt {
			asks++
			if !e.NoSignal() {
				t.Errorf("sysmon's request at %v sends a signal under cooperative", e.T)
			}
		}
	}
	if asks < 10 {
		t.Errorf("sysmon asked %d times in a second, want it to keep asking", asks)
	}
	_, end, _ = runProg(t, Config{Procs: 1, Seed: 1, MaxEvents: 200, Policy: coop}, spinUntil.prog)
	if end.Reason != EventLimit || !strings.Contains(end.Err.Error(), "G1 spins in the loop") || !strings.Contains(end.Err.Error(), "Go 1.14") {
		t.Errorf("event limit's message does not name the spinning loop and Go 1.14: %v", end.Err)
	}
}

// A loop whose body calls a function checks at each call: under the
// cooperative policy sysmon's request stops it there (a synchronous
// preemption), and the run ends.
func TestLoopWithACallStopsAtTheCall(t *testing.T) {
	prog := Program{Flags: []string{"done"}, Main: []Op{goN(1, setFlag(0)), loopUntil(0, cpu(100*time.Microsecond))}}
	events, end, _ := runProg(t, Config{Procs: 1, Seed: 1, Policy: Policy{Cooperative: true}}, prog)
	if end.Reason != MainReturned {
		t.Fatalf("run ended with %v (%v), want main returned", end.Reason, end.Err)
	}
	if _, stop := firstOf(events, func(e *Event) bool { return e.Kind == KindGoStop && e.G == 1 }); stop == nil || stop.Rule != RulePreemptSync {
		t.Errorf("main stopped by %+v, want a synchronous preemption at its next call", stop)
	}
}

// On two Ps the setter runs on the other P at once, and main, spinning,
// sees the store and leaves the loop without being preempted.
func TestSpinnerSeesAStoreFromAnotherP(t *testing.T) {
	prog := Program{Flags: []string{"done"}, Main: []Op{goN(1, cpu(time.Millisecond), setFlag(0)), loopUntil(0)}}
	events, end, m := runProg(t, Config{Procs: 2, Seed: 1}, prog)
	if end.Reason != MainReturned {
		t.Fatalf("run ended with %v (%v)", end.Reason, end.Err)
	}
	if _, stop := firstOf(events, func(e *Event) bool { return e.Kind == KindGoStop && e.G == 1 }); stop != nil {
		t.Errorf("main was stopped (%v) though G2 ran on the other P", stop.Rule)
	}
	if now := m.Now().D(); now < time.Millisecond || now > 2*time.Millisecond {
		t.Errorf("main returned at %v, want soon after G2's 1ms", now)
	}
}

// Loops that can never run an action do not hang the model: for {} with
// a body of loops that repeat nothing spins, as does a for ever around a
// loop until a flag that is set.
func TestEmptyBodiesSpin(t *testing.T) {
	for name, prog := range map[string]Program{
		"forever around nothing": {Main: []Op{loopForever(loop(0, cpu(time.Millisecond)), goN(0, cpu(time.Millisecond)))}},
		"forever around a done loop": {Flags: []string{"done"},
			Main: []Op{setFlag(0), loopForever(loopUntil(0))}},
		"for {}": {Main: []Op{loopForever()}},
	} {
		t.Run(name, func(t *testing.T) {
			_, end, m := runProg(t, Config{Procs: 1, Seed: 1, Until: 50 * time.Millisecond}, prog)
			if end.Reason != UntilReached {
				t.Fatalf("run ended with %v (%v), want until reached", end.Reason, end.Err)
			}
			if m.Steps() > 1000 {
				t.Errorf("%d steps for 50ms of spinning: a spin should cost no steps", m.Steps())
			}
		})
	}
}

// loop forever with a body runs until the run's until, and the event
// limit, when there is no until, says so.
func TestForeverLoopEndsAtALimit(t *testing.T) {
	prog := Program{Main: []Op{loopForever(cpu(time.Millisecond), sleep(time.Millisecond))}}
	events, end, _ := runProg(t, Config{Procs: 1, Seed: 1, Until: 100 * time.Millisecond}, prog)
	if end.Reason != UntilReached {
		t.Fatalf("run ended with %v", end.Reason)
	}
	sleeps := 0
	for _, e := range events {
		if e.Kind == KindGoBlock && e.G == 1 {
			sleeps++
		}
	}
	if sleeps < 40 {
		t.Errorf("%d sleeps in 100ms of a 2ms loop, want about 50", sleeps)
	}
	_, end, _ = runProg(t, Config{Procs: 1, Seed: 1, MaxEvents: 500}, prog)
	if end.Reason != EventLimit {
		t.Errorf("without until the run ended with %v, want the event limit", end.Reason)
	}
}
