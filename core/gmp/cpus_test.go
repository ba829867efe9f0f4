package gmp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// halfPack puts a woken thread beside its waker half the time.
var halfPack = gmp.WakePack{
	Utils:  [3]float64{0.25, 0.5, 1},
	Sleeps: [3]time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond},
	Beside: [3][3]float64{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}},
	Away:   [3][3]float64{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}},
}

// Every built-in runs to the end it means with its Ms on fewer CPUs than
// Ps, beside busy threads, and on a kernel that packs woken threads, with every invariant checked after each step:
// the kernel's scheduler loses no thread and no wake-up.
func TestBuiltinsOnBusyCPUs(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			cpus, load int
			pack       bool
		}{{1, 0, false}, {1, 2, false}, {2, 1, false}, {sc.Procs, 0, false}, {2, 5, false}, {2, 0, true}, {2, 1, true}} {
			cfg := sc.Config()
			cfg.Seed, cfg.Noise, cfg.Check, cfg.CPUs, cfg.Load = 3, true, true, c.cpus, c.load
			if c.pack {
				// A kernel that packs woken threads, as this
				// project's machine's does (wakepack.go).
				cfg.Costs = gmp.DefaultCosts()
				cfg.Costs.WakePack = halfPack
			}
			if cfg.Until == 0 {
				cfg.Until = 2 * time.Second
			}
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			end := m.Run()
			if end.Reason == gmp.Invariant || end.Reason == gmp.EventLimit || (end.Reason != gmp.UntilReached && !sc.AsExpected(end)) {
				t.Errorf("%s on %d CPUs with load %d: %v: %v", name, c.cpus, c.load, end.Reason, end.Err)
			}
		}
	}
}

// With a CPU for every thread the default run makes and no load, the
// kernel's scheduler never makes a thread wait: each woken thread finds
// an idle CPU (or preempts for a step that takes no time, shown as
// nothing), so every built-in's events are the default's, exact and with
// noise, event for event. That is what the default, which leaves the
// kernel out, means: every M that can run runs at once.
//
// cpus = procs is not enough, and the test does not claim it: sysmon and
// a thread without a P (back from a syscall, woken to find nothing) are
// threads beyond the Ps, and the kernel lets such a thread preempt only
// when the CPU would pick it. In purge-coarse on 2 CPUs, sysmon's first
// wake-up, 70µs in, finds both CPUs running a thread that is within its
// first request (run to parity), so it waits for the tick, 3.9ms, where
// the default lets it run at once.
func TestCPUsForEveryThreadChangeNothing(t *testing.T) {
	threads := 0
	events := func(sc *scenarios.Scenario, cfg gmp.Config) []gmp.Event {
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var out []gmp.Event
		m.SetSink(func(e gmp.Event) { out = append(out, e) })
		m.Run()
		threads = m.NumM()
		return out
	}
	for _, name := range scenarios.BuiltinNames() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []uint64{0, 1, 2} {
			cfg := sc.Config()
			if seed > 0 {
				cfg.Seed, cfg.Noise = seed, true
			}
			want := events(sc, cfg)
			if threads > gmp.MaxProcs {
				t.Fatalf("%s makes %d threads, more CPUs than a run may have", name, threads)
			}
			cfg.CPUs = threads
			got := events(sc, cfg)
			if i := firstDiff(want, got); i >= 0 {
				t.Errorf("%s (seed %d, noise %v) with cpus: %d: event %d differs from the default run", name, cfg.Seed, cfg.Noise, cfg.CPUs, i)
			}
		}
	}
}

// firstDiff is the first event that differs, -1 for none. An event's Op
// points into its machine's program, and New makes the pools' bodies for
// each machine, so the action is compared by its kind and place.
func firstDiff(a, b []gmp.Event) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if (x.Op == nil) != (y.Op == nil) || x.Op != nil && (x.Op.Kind != y.Op.Kind || x.Op.Pos != y.Op.Pos) {
			return i
		}
		x.Op, y.Op = nil, nil
		if x != y {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// Random scenarios (TestSoak's) on 1–4 CPUs beside 0–6 busy threads, with
// noise and the invariants checked after each step, twice each: no run
// breaks an invariant or stalls, and a seed gives the same events again.
//
// A run may reach its scenario's max_events, as TestSoak's may: a loop
// until a flag can start goroutines by the hundred thousand (seed 666
// makes 116317 in the default model, 758542 events). What it may not do
// is stall: spend its events on the kernel's scheduler, or on a clock
// that does not move. So a run that reaches the limit is held against
// the same scenario without CPUs: its events per simulated millisecond
// stay within twice the default's (a program that shares its CPUs runs
// slower, so it has fewer), and at most a quarter of them are cpu-off
// and cpu-on.
func TestSoakOnBusyCPUs(t *testing.T) {
	n := max(*soak/3, 50)
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := randomScenario(seed)
		sc, err := scenarios.Parse("soak.yaml", []byte(src))
		if err != nil {
			continue
		}
		run := func(cpus bool) (gmp.End, []gmp.Event) {
			cfg := sc.Config()
			cfg.Check, cfg.Noise, cfg.Seed = cpus, true, seed
			if cpus {
				cfg.CPUs, cfg.Load = 1+int(seed%4), int(seed/4%7)
			}
			if cfg.Until == 0 {
				cfg.Until = 5 * time.Second
			}
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			var evs []gmp.Event
			m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
			return m.Run(), evs
		}
		end, a := run(true)
		if end.Reason == gmp.Invariant || end.Reason == gmp.Running {
			t.Fatalf("seed %d on %d CPUs, load %d, ended %v: %v\n%s", seed, 1+seed%4, seed/4%7, end.Reason, end.Err, src)
		}
		if end.Reason == gmp.EventLimit {
			if why := stalled(a, func() []gmp.Event { _, d := run(false); return d }); why != "" {
				t.Fatalf("seed %d on %d CPUs, load %d, reached the event limit and %s\n%s", seed, 1+seed%4, seed/4%7, why, src)
			}
		}
		if _, b := run(true); firstDiff(a, b) >= 0 {
			t.Fatalf("seed %d: two runs differ\n%s", seed, src)
		}
	}
}

// stalled says why a run on CPUs that reached its event limit looks
// stalled rather than long, "" when it does not: see TestSoakOnBusyCPUs.
// def runs the same scenario without CPUs.
func stalled(evs []gmp.Event, def func() []gmp.Event) string {
	cpu := 0
	for _, e := range evs {
		if e.Kind == gmp.KindCPUOff || e.Kind == gmp.KindCPUOn {
			cpu++
		}
	}
	if cpu > len(evs)/4 {
		return fmt.Sprintf("%d of its %d events are the kernel's", cpu, len(evs))
	}
	d := def()
	// Rates in events per simulated microsecond, against a floor of 1µs.
	rate := func(evs []gmp.Event) float64 {
		us := max(float64(evs[len(evs)-1].T.Sub(0))/float64(time.Microsecond), 1)
		return float64(len(evs)) / us
	}
	if r, dr := rate(evs), rate(d); r > 2*dr {
		return fmt.Sprintf("made %.3g events per simulated µs, the default model %.3g: its clock hardly moves", r, dr)
	}
	return ""
}

// A clone taken mid-run, with the kernel's scheduler under the Ms,
// continues exactly as the original does, and stepping the original
// leaves the clone's CPUs alone: the UI's snapshots replay such runs.
func TestCloneWithCPUs(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.CPUs, cfg.Load, cfg.Noise, cfg.Seed, cfg.Until = 2, 3, true, 5, 50*time.Millisecond
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var orig []gmp.Event
	m.SetSink(func(e gmp.Event) { orig = append(orig, e) })
	offs := 0
	for offs < 10 && m.Step() {
		if e := orig[len(orig)-1]; e.Kind == gmp.KindCPUOff {
			offs++
		}
	}
	c := m.Clone()
	ran, waited := c.CPUTimes()
	var fromClone []gmp.Event
	c.SetSink(func(e gmp.Event) { fromClone = append(fromClone, e) })
	cut := len(orig)
	m.Run()
	if r, w := c.CPUTimes(); r != ran || w != waited {
		t.Fatal("running the original moved the clone's CPU times")
	}
	c.Run()
	t.Logf("cut at event %d (%d cpu-off), %d events after it", cut, offs, len(fromClone))
	if i := firstDiff(orig[cut:], fromClone); i >= 0 || len(fromClone) == 0 {
		t.Fatalf("the clone diverged at event %d after the cut (%d events after it in the original, %d in the clone)", i, len(orig)-cut, len(fromClone))
	}
}

// With a warm start the idle threads runtime.main's inits left have run
// and slept, as sysmon has: the first wakep wakes one, which the kernel
// places as a sleeper, not as a new thread a slice behind the others
// (START_DEBIT). Only threads the run creates start so.
func TestWarmStartThreadsWakeAsSleepers(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cpus, load int }{{2, 13}, {1, 2}, {2, 4}} {
		cfg := sc.Config()
		cfg.WarmStart, cfg.CPUs, cfg.Load, cfg.Check, cfg.Until = true, c.cpus, c.load, true, 50*time.Millisecond
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		atStart := gmp.MID(m.NumM())
		waits := 0
		m.SetSink(func(e gmp.Event) {
			if e.Rule != gmp.RuleCPUWait {
				return
			}
			waits++
			if e.NewThread() && e.M < atStart {
				t.Errorf("cpus %d, load %d: %v, parked since the start, wakes as a new thread: %s", c.cpus, c.load, e.M, gmp.NewDescriber(sc.Program()).Describe(e))
			}
		})
		if end := m.Run(); end.Reason == gmp.Invariant {
			t.Fatal(end.Err)
		}
		if waits == 0 {
			t.Errorf("cpus %d, load %d: no thread ever waited for a CPU: the test shows nothing", c.cpus, c.load)
		}
	}
}

// At every event, as the UI shows it, a CPU runs one thread at most: a
// thread woken onto a busy CPU for a step that takes no time has the CPU
// for that step's events, and the thread it preempted waits meanwhile.
func TestOneThreadPerCPUAtEveryEvent(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ cpus, load int }{{1, 0}, {1, 2}, {2, 3}} {
			cfg := sc.Config()
			cfg.CPUs, cfg.Load, cfg.Seed, cfg.Noise = c.cpus, c.load, 2, true
			if cfg.Until == 0 || cfg.Until > time.Second {
				cfg.Until = time.Second
			}
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			n, bad := 0, ""
			m.SetSink(func(e gmp.Event) {
				n++
				if bad != "" {
					return
				}
				on := map[int]gmp.MID{}
				for id := range gmp.MID(m.NumM()) {
					cpu, st := m.ThreadCPU(id)
					if st != gmp.CPURunning {
						continue
					}
					if other, ok := on[cpu]; ok {
						bad = fmt.Sprintf("at event %d (%v) %v and %v are both on CPU%d", n, e.Kind, other, id, cpu)
					}
					on[cpu] = id
				}
			})
			m.Run()
			if bad != "" {
				t.Errorf("%s on %d CPUs, load %d: %s", name, c.cpus, c.load, bad)
			}
		}
	}
}

// With a kernel that packs (Costs.WakePack), the thread main's go
// statement wakes is put beside main on its busy CPU, though the other
// CPU idles, and waits there; the same run without a table puts it on the
// idle CPU, where it runs at once.
func TestWakePackPutsTheWokenThreadBesideItsWaker(t *testing.T) {
	sc, err := scenarios.Parse("pack.yaml", []byte(`procs: 2
main:
  - cpu: 1ms
  - go: {do: [{cpu: 1ms}]}
  - cpu: 2ms
`))
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	always := gmp.WakePack{
		Utils:  [3]float64{0.25, 0.5, 1},
		Sleeps: [3]time.Duration{ms, 2 * ms, 4 * ms},
		Beside: [3][3]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
		Away:   [3][3]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
	}
	for _, pack := range []gmp.WakePack{{}, always} {
		cfg := sc.Config()
		cfg.WarmStart, cfg.CPUs, cfg.Check, cfg.Seed = true, 2, true, 1
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.WakePack = pack
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var packed []string
		d := gmp.NewDescriber(sc.Program())
		m.SetSink(func(e gmp.Event) {
			if e.Rule == gmp.RuleCPUWait && e.Packer() != gmp.NoM {
				packed = append(packed, d.Describe(e))
			}
		})
		if end := m.Run(); end.Reason != gmp.MainReturned {
			t.Fatalf("%v: %v", end.Reason, end.Err)
		}
		switch {
		case pack == (gmp.WakePack{}) && len(packed) > 0:
			t.Errorf("without a table, a thread was packed: %q", packed)
		case pack != (gmp.WakePack{}) && (len(packed) != 1 || !strings.Contains(packed[0], " wakes, and the kernel puts it on CPU0 beside its waker M0, whatever the other CPUs do")):
			t.Errorf("with a table that always packs, want a thread beside M0 once, got %q", packed)
		}
	}
}
