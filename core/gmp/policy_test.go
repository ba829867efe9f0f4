package gmp

import (
	"strings"
	"testing"
	"time"
)

// simulatePolicy is simulate under a what-if policy, with the invariants
// checked after every step.
func simulatePolicy(t *testing.T, policy string, procs int, main ...Op) *run {
	t.Helper()
	p, err := ParsePolicy(policy)
	if err != nil {
		t.Fatal(err)
	}
	prog := &Program{Name: t.Name(), Main: main}
	m, err := New(Config{Procs: procs, Seed: 1, Costs: DefaultCosts(), Check: true, Policy: p}, prog)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{m: m, d: NewDescriber(prog)}
	m.SetSink(func(e Event) { r.events = append(r.events, e) })
	if end := m.Run(); end.Err != nil {
		t.Fatalf("%s: %v\n%s", policy, end.Err, r.tail(40))
	}
	return r
}

// firstRunAfterMainBlocks is the G that runs first once G1 has parked.
func (r *run) firstRunAfterMainBlocks(t *testing.T) GID {
	t.Helper()
	blocked := false
	for _, e := range r.events {
		if e.Kind == KindGoBlock && e.G == 1 {
			blocked = true
		}
		if blocked && e.Kind == KindGoStart {
			return e.G
		}
	}
	t.Fatalf("nothing ran after main blocked\n%s", r.dump())
	return NoG
}

func TestParsePolicy(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Policy
	}{
		{"", Policy{}},
		{"default", Policy{}},
		{"no-steal", Policy{NoSteal: true}},
		{"no-steal+no-preempt", Policy{NoSteal: true, NoPreempt: true}},
		{"fairness=7", Policy{Fairness: 7}},
		{"no-fairness", Policy{Fairness: -1}},
		{"global-fifo", Policy{GlobalFIFO: true}},
	} {
		got, err := ParsePolicy(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParsePolicy(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := ParsePolicy(got.String()); err != nil || back != got {
			t.Errorf("%q: String() = %q does not read back (%+v, %v)", c.in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"nosteal", "fairness=0", "fairness=x", "no-steal+", "fairness=N"} {
		if _, err := ParsePolicy(bad); err == nil || !strings.Contains(err.Error(), "policy") {
			t.Errorf("ParsePolicy(%q) = %v, want an error naming the policy", bad, err)
		}
	}
}

func TestPolicyNoRunnextRunsInCreationOrder(t *testing.T) {
	main := []Op{goN(4, cpu(time.Millisecond)), waitKids()}
	if g := simulatePolicy(t, "default", 1, main...).firstRunAfterMainBlocks(t); g != 5 {
		t.Fatalf("default: %v ran first, want G5 from runnext", g)
	}
	r := simulatePolicy(t, "no-runnext", 1, main...)
	if g := r.firstRunAfterMainBlocks(t); g != 2 {
		t.Errorf("no-runnext: %v ran first, want G2, the ring's head", g)
	}
	for _, e := range r.events {
		if e.To.Kind == LocRunnext || e.Rule == RuleRunnext {
			t.Fatalf("no-runnext used runnext: %s", r.d.Describe(e))
		}
	}
	if c, _ := r.first(KindGoCreate, RuleNewproc); !strings.Contains(r.d.Describe(c), "to the tail of P0's ring (what-if no-runnext)") {
		t.Errorf("the create does not say where the G went: %s", r.d.Describe(c))
	}
}

func TestPolicyNoStealLeavesPsIdle(t *testing.T) {
	main := []Op{goN(8, cpu(time.Millisecond)), cpu(5 * time.Millisecond), waitKids()}
	def := simulatePolicy(t, "default", 2, main...)
	r := simulatePolicy(t, "no-steal", 2, main...)
	if def.count(KindSteal) == 0 {
		t.Fatal("default: no steal; the test's program does not show stealing")
	}
	if n := r.count(KindSteal); n != 0 {
		t.Errorf("no-steal: %d steals", n)
	}
	for _, e := range r.events {
		if e.Kind == KindGoStart && e.P == 1 {
			t.Fatalf("no-steal: P1 ran %v, but all the work was on P0", e.G)
		}
	}
	if r.m.Now() <= def.m.Now() {
		t.Errorf("no-steal finished at %v, default at %v: idle Ps should make it slower", r.m.Now(), def.m.Now())
	}
}

func TestPolicyStealAllTakesTheWholeRing(t *testing.T) {
	main := []Op{goN(9, cpu(time.Millisecond)), cpu(5 * time.Millisecond), waitKids()}
	half, _ := simulatePolicy(t, "default", 2, main...).first(KindSteal, RuleRunqsteal)
	r := simulatePolicy(t, "steal-all", 2, main...)
	all, ok := r.first(KindSteal, RuleRunqsteal)
	if !ok {
		t.Fatal("steal-all: no steal")
	}
	if all.N2 != 0 || all.N <= half.N {
		t.Errorf("steal-all took %d and left %d; the default took %d", all.N, all.N2, half.N)
	}
	if !strings.Contains(r.d.Describe(all), "what-if steal-all") {
		t.Errorf("sentence: %s", r.d.Describe(all))
	}
}

// overflowing runs 300 short Gs on one P, so the global queue holds Gs
// while the ring is busy: the fairness check is what reaches them.
var overflowing = []Op{goN(300, cpu(50*time.Microsecond)), waitKids()}

func TestPolicyFairnessPeriod(t *testing.T) {
	for _, c := range []struct {
		policy string
		tick   int // the schedtick the check first fires at, 0: never
	}{{"default", 61}, {"fairness=10", 10}, {"no-fairness", 0}} {
		r := simulatePolicy(t, c.policy, 1, overflowing...)
		e, ok := r.first(KindGoStart, RuleGlobalFairness)
		switch {
		case c.tick == 0 && ok:
			t.Errorf("%s: the fairness check fired at schedtick %d", c.policy, e.N-1)
		case c.tick != 0 && (!ok || e.N-1 != c.tick):
			t.Errorf("%s: first fairness pick %+v (found %v), want at schedtick %d", c.policy, e, ok, c.tick)
		case c.tick == 10 && !strings.Contains(r.d.Describe(e), "a multiple of 10 (what-if fairness=10"):
			t.Errorf("%s: %s", c.policy, r.d.Describe(e))
		}
	}
}

func TestPolicyNoPreemptLetsAHogFinish(t *testing.T) {
	main := []Op{goN(2, cpu(30*time.Millisecond)), waitKids()}
	if n := simulatePolicy(t, "default", 1, main...).count(KindGoStop); n == 0 {
		t.Fatal("default: no preemption of two 30ms hogs on one P")
	}
	r := simulatePolicy(t, "no-preempt", 1, main...)
	if n := r.count(KindGoStop); n != 0 {
		t.Errorf("no-preempt: %d preemptions", n)
	}
	for _, e := range r.events {
		if e.Rule == RuleSysmonPreempt {
			t.Fatalf("no-preempt: %s", r.d.Describe(e))
		}
	}
}

func TestPolicySyscallHandoffAtEntry(t *testing.T) {
	main := []Op{goN(1, cpu(time.Millisecond)), syscall(5 * time.Millisecond), waitKids()}
	r := simulatePolicy(t, "syscall-handoff", 2, main...)
	e, ok := r.first(KindSyscallEnter, RuleEntersyscallblock)
	if !ok || !e.Flag {
		t.Fatalf("no syscall handed off at entry\n%s", r.dump())
	}
	if !strings.Contains(r.d.Describe(e), "what-if syscall-handoff") {
		t.Errorf("sentence: %s", r.d.Describe(e))
	}
	if _, ok := r.first(KindProcSteal, RuleRetake); ok {
		t.Error("sysmon retook a P that was handed off at entry")
	}
	def := simulatePolicy(t, "default", 2, main...)
	if _, ok := def.first(KindSyscallEnter, RuleEntersyscall); !ok {
		t.Error("default: the syscall did not keep its P at entry")
	}
}

func TestPolicyGlobalFIFO(t *testing.T) {
	r := simulatePolicy(t, "global-fifo", 2, goN(6, cpu(time.Millisecond)), waitKids())
	for _, e := range r.events {
		switch {
		case e.Kind == KindGoCreate && e.To.Kind != LocGlobal:
			t.Fatalf("global-fifo: %s", r.d.Describe(e))
		case e.Kind == KindGoStart && e.From.Kind != LocGlobal && e.G != 1:
			t.Fatalf("global-fifo ran a G from a per-P queue: %s", r.d.Describe(e))
		case e.Kind == KindSteal:
			t.Fatalf("global-fifo stole: %s", r.d.Describe(e))
		}
	}
	// FIFO: the Gs start in the order they were created.
	var order []GID
	for _, e := range r.events {
		if e.Kind == KindGoStart && e.G != 1 {
			order = append(order, e.G)
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Fatalf("global-fifo started Gs out of order: %v", order)
		}
	}
}

// TestIdleWhileRunnable measures work conservation: without stealing, P1
// idles while G2…G9 wait on P0; with it, hardly at all.
func TestIdleWhileRunnable(t *testing.T) {
	measure := func(policy string) time.Duration {
		p, _ := ParsePolicy(policy)
		prog := &Program{Name: t.Name(), Main: []Op{goN(8, cpu(time.Millisecond)), cpu(5 * time.Millisecond), waitKids()}}
		m, err := New(Config{Procs: 2, Seed: 1, Costs: DefaultCosts(), Policy: p, MeasureIdle: true}, prog)
		if err != nil {
			t.Fatal(err)
		}
		m.Run()
		return m.IdleWhileRunnable()
	}
	def, noSteal := measure("default"), measure("no-steal")
	t.Logf("idle while runnable: default %v, no-steal %v", def, noSteal)
	// P1 is idle from the start under no-steal while 7 or 8 Gs wait behind
	// main's 5ms: at least those 5ms are lost.
	if noSteal < 5*time.Millisecond {
		t.Errorf("no-steal: idle while runnable %v, want at least 5ms", noSteal)
	}
	if def*10 > noSteal {
		t.Errorf("default: idle while runnable %v, against %v without stealing", def, noSteal)
	}
	prog := &Program{Name: t.Name(), Main: []Op{goN(8, cpu(time.Millisecond)), waitKids()}}
	m, _ := New(Config{Procs: 2, Seed: 1, Costs: DefaultCosts()}, prog)
	m.Run()
	if m.IdleWhileRunnable() != 0 {
		t.Errorf("measured without MeasureIdle: %v", m.IdleWhileRunnable())
	}
}
