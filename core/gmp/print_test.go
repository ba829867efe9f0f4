package gmp

import (
	"strings"
	"testing"
	"time"
)

// printedOrder runs prog and returns the lines it printed, joined.
func printedOrder(t *testing.T, cfg Config, prog Program) string {
	t.Helper()
	events, end, _ := runProg(t, cfg, prog)
	if end.Reason != MainReturned {
		t.Fatalf("seed %d ended with %v (%v)", cfg.Seed, end.Reason, end.Err)
	}
	var b strings.Builder
	for _, e := range events {
		if e.Kind == KindPrint {
			b.WriteString(e.Text())
		}
	}
	return b.String()
}

// go Print(1); go Print(2); Print(3) on 2 Ps. go1.26 printed 321 in most
// runs, and 312 or 132 in 14% (quiet machine) to 26% (busy) of them
// (scripts/puzzles print-order, docs/puzzles.md). From a bare machine the
// model creates a thread for the spare P, 20µs and more, and always says
// 321; from a warm start, where an idle thread is woken in 5µs and more,
// the second P takes G2 before main's line is out in some seeds, as on
// the runtime.
func TestPrintOrderOnTwoPs(t *testing.T) {
	const seeds = 200
	count := func(warm bool) map[string]int {
		orders := map[string]int{}
		for seed := uint64(1); seed <= seeds; seed++ {
			cfg := Config{Procs: 2, Seed: seed, Noise: true, WarmStart: warm}
			orders[printedOrder(t, cfg, printing.prog)]++
		}
		return orders
	}
	if cold := count(false); cold["321"] != seeds {
		t.Errorf("from a bare machine the orders are %v, want 321 on every seed", cold)
	}
	warm := count(true)
	other := warm["312"] + warm["132"]
	if warm["321"]+other != seeds {
		t.Fatalf("orders %v: some seed printed an impossible order", warm)
	}
	if share := float64(other) / seeds; share < 0.10 || share > 0.50 {
		t.Errorf("from a warm start 312 or 132 came on %.0f%% of seeds (%v), want 10%% to 50%%, as go1.26's 14%% to 26%%", 100*share, warm)
	}
}

// A print is fmt's formatting and then a write system call: the line goes
// out as the write starts, the P stays attached through it, and the
// program's first print pays for fmt's first use.
func TestPrintIsAWriteSyscall(t *testing.T) {
	prog := Program{Main: []Op{printOp("a"), cpu(time.Millisecond), printOp("b")}}
	events, end, m := runProg(t, Config{Procs: 1, Seed: 1}, prog)
	if end.Reason != MainReturned {
		t.Fatalf("ended with %v", end.Reason)
	}
	k := DefaultCosts()
	var prints []Event
	for i, e := range events {
		if e.Kind != KindPrint {
			continue
		}
		prints = append(prints, e)
		next := events[i+1]
		if next.Kind != KindSyscallEnter || next.Rule != RuleEntersyscall || next.Duration() != k.Write || next.Op != e.Op {
			t.Errorf("print %q is followed by %v, want its write syscall of %v", e.Text(), next.Kind, k.Write)
		}
	}
	if len(prints) != 2 || prints[0].Text() != "a" || prints[1].Text() != "b" {
		t.Fatalf("printed %v, want a then b", prints)
	}
	if !prints[0].FirstPrint() || prints[1].FirstPrint() || prints[0].Line() != 1 || prints[1].Line() != 2 {
		t.Errorf("first print flags and line numbers wrong: %+v", prints)
	}
	// main starts at 0 and runs its first action after Execute.
	if want := k.Execute + k.Print + k.FirstPrint; prints[0].T.D() != want {
		t.Errorf("the first line is out at %v, want %v (formatting and fmt's first use)", prints[0].T.D(), want)
	}
	lines, n := m.Output()
	if n != 2 || len(lines) != 2 || lines[1].Text != "b" || lines[1].G != 1 {
		t.Errorf("Output() = %v, %d", lines, n)
	}
}

// The program's first write pays Costs.FirstWrite inside its system
// call, as a trace shows it, and the later writes do not; with noise it
// takes up to half as long again.
func TestTheFirstWriteCostsMore(t *testing.T) {
	prog := Program{Main: []Op{printOp("a"), cpu(time.Millisecond), printOp("b"), printOp("c")}}
	k := DefaultCosts()
	k.FirstWrite = 7 * time.Microsecond
	for _, noise := range []bool{false, true} {
		for seed := uint64(1); seed <= 20; seed++ {
			events, end, _ := runProg(t, Config{Procs: 1, Seed: seed, Noise: noise, Costs: k}, prog)
			if end.Reason != MainReturned {
				t.Fatalf("ended with %v", end.Reason)
			}
			var writes []time.Duration
			for _, e := range events {
				if e.Kind == KindSyscallEnter {
					writes = append(writes, e.Duration())
				}
			}
			if len(writes) != 3 {
				t.Fatalf("%d writes, want 3", len(writes))
			}
			first, hi := writes[0]-k.Write, k.FirstWrite
			if noise {
				hi += k.FirstWrite / 2
			}
			if first < k.FirstWrite || first > hi || writes[1] != k.Write || writes[2] != k.Write {
				t.Errorf("noise %v seed %d: writes of %v, want %v plus %v to %v, then %v each", noise, seed, writes, k.Write, k.FirstWrite, hi, k.Write)
			}
		}
	}
}

// A pending preemption request is honoured at fmt.Println's call, as at
// any function call.
func TestPrintHonoursAPendingRequest(t *testing.T) {
	prog := Program{Main: []Op{goN(1, cpu(time.Millisecond)), loop(200, cpu(100*time.Microsecond), printOp("x"))}}
	events, _, _ := runProg(t, Config{Procs: 1, Seed: 1, Policy: Policy{Cooperative: true}}, prog)
	for _, e := range events {
		if e.Rule == RulePreemptSync && e.G == 1 && e.Op != nil && e.Op.Kind == OpPrint {
			return
		}
	}
	t.Errorf("main was never stopped at a print's call")
}

// A warm start is the runtime as main.main finds it: idle threads to
// wake (the first wakep wakes one, no thread is created), and main's P
// at schedtick 6, so the 1-in-61 check brings back a yielding main after
// 56 goroutines, as go1.26 does with GOMAXPROCS=1 (scripts/puzzles
// schedtick), not 61.
func TestWarmStart(t *testing.T) {
	events, _, m := runProg(t, Config{Procs: 2, Seed: 1, WarmStart: true}, printing.prog)
	if _, start := firstOf(events, func(e *Event) bool { return e.Rule == RuleMainStart }); start.Schedtick() != 6 {
		t.Errorf("main starts in schedtick %d, want 6", start.Schedtick())
	}
	if _, w := firstOf(events, func(e *Event) bool { return e.Rule == RuleWakep }); w == nil || w.NewM() {
		t.Errorf("the first wakep %+v creates a thread, want it to wake an idle one", w)
	}
	if n := m.NumM(); n != 4 {
		t.Errorf("%d threads, want main's, sysmon's and 2 idle ones on 2 Ps", n)
	}
	finishedBeforeMain := func(warm bool) int {
		events, _, _ := runProg(t, Config{Procs: 1, Seed: 1, WarmStart: warm}, fairness.prog)
		n := 0
		for _, e := range events {
			switch {
			case e.Kind == KindGoExit && e.G != 1:
				n++
			case e.Rule == RuleGlobalFairness && e.G == 1:
				return n
			}
		}
		t.Fatal("main never came back through the fairness check")
		return 0
	}
	if cold, warm := finishedBeforeMain(false), finishedBeforeMain(true); cold != 61 || warm != 56 {
		t.Errorf("main came back after %d goroutines from a bare start, %d from a warm one; want 61 and 56", cold, warm)
	}
}

// A print in a select case's body is output like any other: the model
// prints it, and Prints, which says whether a program has output for the
// console and verify's order row, finds it (the select and print arrived
// on two branches; a walk of Body alone missed the cases).
func TestPrintInASelectCase(t *testing.T) {
	prog := Program{Chans: []ChanDecl{{Name: "c", Cap: 1}},
		Main: []Op{send(0), selectOp(caseRecv(0, printOp("got")), caseAfter(time.Millisecond, printOp("late")))}}
	if got := printedOrder(t, Config{Procs: 1, Seed: 1}, prog); got != "got" {
		t.Errorf("printed %q, want got: the buffered value is ready", got)
	}
	if !Prints(prog.Main) {
		t.Error("Prints misses the prints in a select's cases")
	}
	if Prints([]Op{send(0), selectOp(caseRecv(0, cpu(time.Microsecond)), caseDefault())}) {
		t.Error("Prints finds a print in a program that has none")
	}
}

// fmt's formatting of a line is work on the CPU: a thread that formats
// competes for its CPU as a computing one does, and is never counted
// asleep (needsCPU). On one CPU shared with a busy thread, the formatter
// is on it or waiting for it at every step while a write is due.
func TestPrintFormattingNeedsACPU(t *testing.T) {
	prog := Program{Main: []Op{printOp("a"), cpu(100 * time.Microsecond), printOp("b")}}
	m, err := New(Config{Procs: 1, Seed: 1, CPUs: 1, Load: 1}, &prog)
	if err != nil {
		t.Fatal(err)
	}
	formatting := 0
	for m.Step() {
		m0 := m.M(0)
		if m0.next != stepWrite {
			continue
		}
		formatting++
		if _, on := m.ThreadCPU(m0.ID); on == CPUNone {
			t.Fatalf("at %v: M0 formats a line asleep, off every CPU", m.Now())
		}
	}
	if end := m.End(); end.Reason != MainReturned {
		t.Fatalf("ended with %v (%v)", end.Reason, end.Err)
	}
	if formatting == 0 {
		t.Fatal("no step found M0 formatting a line")
	}
}
