package lockstep

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

// run simulates prog with the driver following it, and returns the
// machine and the number of pool events compared. The real pools run in
// a synctest bubble, so the driver's wait for a decision ends on the
// bubble's clock: only when every goroutine in it is blocked, never
// because the machine was slow.
func run(t *testing.T, prog *gmp.Program, cfg gmp.Config) (m *gmp.Machine, poolEvents int) {
	t.Helper()
	return runCounting(t, prog, cfg, nil)
}

// The differential test: every built-in scenario that uses a pool, under
// several seeds and P counts, and the same tasks under each comparison
// mode that keeps the pool, make the same decisions in the model as in
// package pool.
func TestModelDecidesAsThePool(t *testing.T) {
	defer goleak.VerifyNone(t)
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, sc := range all {
		if len(sc.Pools) == 0 {
			continue
		}
		tested++
		for _, procs := range procCounts(sc) {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("%s/procs=%d/seed=%d", sc.Name, procs, seed), func(t *testing.T) {
					cfg := sc.Config()
					cfg.Procs, cfg.Seed, cfg.Check = procs, seed, true
					m, n := run(t, sc.Program(), cfg)
					if n == 0 {
						t.Fatal("no pool events: nothing was compared")
					}
					if !sc.AsExpected(m.End()) {
						t.Fatalf("ended %v: %v", m.End().Reason, m.End().Err)
					}
				})
			}
		}
	}
	if tested < 4 {
		t.Fatalf("only %d built-ins use a pool", tested)
	}
}

// The same built-ins with a queue on every pool (pool.WithQueue): as long
// as the pool, and of two tasks, so that the line is let into the queue
// both in batches and one by one. The model takes the queue's decisions
// as the pool does, and every rule of the queue is reached.
func TestModelDecidesAsThePoolWithAQueue(t *testing.T) {
	defer goleak.VerifyNone(t)
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[gmp.Rule]int{}
	for _, sc := range all {
		if len(sc.Pools) == 0 {
			continue
		}
		for _, queue := range []int{0, 2} {
			for _, procs := range procCounts(sc) {
				t.Run(fmt.Sprintf("%s/queue=%d/procs=%d", sc.Name, queue, procs), func(t *testing.T) {
					prog := *sc.Program()
					prog.Pools = append([]gmp.PoolDecl(nil), prog.Pools...)
					for i := range prog.Pools {
						prog.Pools[i].Queue = queue
						if queue == 0 {
							prog.Pools[i].Queue = prog.Pools[i].Size
						}
					}
					cfg := sc.Config()
					cfg.Procs, cfg.Check = procs, true
					m, n := runCounting(t, &prog, cfg, seen)
					if n == 0 {
						t.Fatal("no pool events: nothing was compared")
					}
					// A queue lets a task submit to its own full pool:
					// nested-submit's deadlock is gone.
					if !sc.AsExpected(m.End()) && m.End().Reason != gmp.MainReturned {
						t.Fatalf("ended %v: %v", m.End().Reason, m.End().Err)
					}
				})
			}
		}
	}
	for _, r := range []gmp.Rule{gmp.RulePoolEnqueue, gmp.RulePoolTakeQueued, gmp.RulePoolRefill} {
		if seen[r] == 0 {
			t.Errorf("no event of rule %s (%s)", r.Fn(), r.Doc())
		}
	}
}

// runCounting is run, counting the events of each rule into seen when
// seen is not nil.
func runCounting(t *testing.T, prog *gmp.Program, cfg gmp.Config, seen map[gmp.Rule]int) (*gmp.Machine, int) {
	t.Helper()
	var m *gmp.Machine
	n := 0
	synctest.Test(t, func(t *testing.T) {
		d, err := New(prog)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := d.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}()
		m, err = gmp.New(cfg, prog)
		if err != nil {
			t.Fatal(err)
		}
		m.SetSink(func(e gmp.Event) {
			if IsPoolEvent(e) {
				n++
			}
			if seen != nil {
				seen[e.Rule]++
			}
			d.Event(m, e)
		})
		end := m.Run()
		if end.Reason == gmp.Invariant {
			t.Fatalf("invariant: %v", end.Err)
		}
		if err := d.Event(m, gmp.Event{T: m.Now(), Kind: gmp.KindProgram}); err != nil {
			t.Fatalf("the real pool disagrees: %v", err)
		}
	})
	return m, n
}

// Options and rules the built-ins do not reach: PreAlloc's ring, several
// pools at once with purges due together, MaxBlocking, a task calling
// runtime.Goexit with waiters in line, and an unlimited pool.
func TestModelDecidesAsThePoolOnEdges(t *testing.T) {
	defer goleak.VerifyNone(t)
	cases := map[string]string{
		"prealloc": `procs: 2
pools: {p: {size: 3, prealloc: true, expiry: 5ms}}
main:
  - loop: {times: 3, do: [{submit: {pool: p, count: 7, do: [{cpu: {uniform: [100us, 900us]}}]}}, {sleep: 3ms}]}
  - wait: children
`,
		"two pools": `procs: 3
pools: {a: {size: 2, expiry: 2ms}, b: {size: 4, expiry: 2ms}}
main:
  - go: {count: 2, do: [{submit: {pool: a, count: 6, do: [{sleep: 500us}]}}, {wait: children}]}
  - submit: {pool: b, count: 9, do: [{cpu: 300us}]}
  - sleep: 10ms
  - submit: {pool: a, count: 3, do: [{cpu: 100us}]}
  - wait: children
`,
		"max blocking": `procs: 1
pools: {p: {size: 1, max_blocking: 2}}
main:
  - submit: {pool: p, do: [{sleep: 2ms}]}
  - go: {count: 5, do: [{submit: {pool: p, do: [{cpu: 200us}]}}]}
  - wait: children
`,
		"goexit": `procs: 2
pools: {p: {size: 2}}
main:
  - submit: {pool: p, count: 2, do: [{sleep: 1ms}, exit]}
  - go: {count: 3, do: [{submit: {pool: p, do: [{cpu: 100us}]}}]}
  - wait: children
`,
		"queue goexit": `procs: 2
pools: {p: {size: 2, queue: 4}}
main:
  - submit: {pool: p, count: 2, do: [{sleep: 1ms}, exit]}
  - submit: {pool: p, count: 3, do: [{cpu: 100us}]}
  - go: {count: 3, do: [{submit: {pool: p, do: [{cpu: 100us}]}}]}
  - wait: children
`,
		"queue nonblocking": `procs: 1
pools: {p: {size: 1, queue: 2, nonblocking: true}}
main:
  - submit: {pool: p, count: 5, do: [{sleep: 1ms}]}
  - wait: children
`,
		"queue max blocking": `procs: 2
pools: {p: {size: 1, queue: 2, max_blocking: 2}}
main:
  - submit: {pool: p, count: 3, do: [{sleep: 2ms}]}
  - go: {count: 5, do: [{submit: {pool: p, do: [{cpu: 200us}]}}]}
  - wait: children
`,
		"unlimited": `procs: 2
pools: {p: {size: 0, expiry: 3ms}}
main:
  - submit: {pool: p, count: 20, do: [{cpu: {exp: 200us}}]}
  - sleep: 20ms
  - submit: {pool: p, count: 5, do: [{cpu: 50us}]}
  - wait: children
`,
	}
	seen := map[gmp.Rule]int{}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := scenarios.Parse(strings.ReplaceAll(name, " ", "-")+".yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			cfg := sc.Config()
			cfg.Check = true
			m, n := runCounting(t, sc.Program(), cfg, seen)
			if n == 0 || m.End().Reason != gmp.MainReturned {
				t.Fatalf("%d pool events; ended %v: %v", n, m.End().Reason, m.End().Err)
			}
		})
	}
	// A worker's Goexit with tasks queued starts a worker for the oldest.
	if seen[gmp.RulePoolServeQueued] == 0 {
		t.Error("no queued task was served by a new worker")
	}
}

// The driver catches a model that decides differently: here the model is
// told the pool's expiry is longer than the real pool's, so the first
// purge finds a different set of workers.
func TestDriverReportsADisagreement(t *testing.T) {
	defer goleak.VerifyNone(t)
	prog := &gmp.Program{
		Pools: []gmp.PoolDecl{{Name: "p", Size: 2, Expiry: 10 * time.Millisecond}},
		Main: []gmp.Op{
			{Kind: gmp.OpSubmit, Pool: 0, Count: 2, Body: []gmp.Op{{Kind: gmp.OpCPU, Dur: gmp.Fixed(time.Millisecond)}}},
			{Kind: gmp.OpSleep, Dur: gmp.Fixed(30 * time.Millisecond)},
		},
	}
	synctest.Test(t, func(t *testing.T) {
		d, err := New(&gmp.Program{Pools: []gmp.PoolDecl{{Name: "p", Size: 2, Expiry: 5 * time.Millisecond}}})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		m, err := gmp.New(gmp.Config{Procs: 2, Seed: 1, Costs: gmp.DefaultCosts()}, prog)
		if err != nil {
			t.Fatal(err)
		}
		m.SetSink(func(e gmp.Event) { d.Event(m, e) })
		m.Run()
		if err := d.Err(); err == nil || !strings.Contains(err.Error(), "next purge") {
			t.Fatalf("Err = %v, want a disagreement about the next purge", err)
		}
	})
}

// ants' coarse clock (pool.WithCoarseClock): every built-in with a pool,
// with the coarse clock on each of its pools, under noise, and a run that
// outlives the clock's first move at 500ms, make the same decisions in
// the model as in package pool, stamps and purge ticks included.
func TestModelDecidesAsThePoolOnTheCoarseClock(t *testing.T) {
	defer goleak.VerifyNone(t)
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	long, err := scenarios.Parse("coarse-long.yaml", []byte(`procs: 2
pools: {p: {size: 3, expiry: 30ms, clock: coarse}}
main:
  - loop: {times: 40, do: [{submit: {pool: p, count: 3, do: [{cpu: {uniform: [200us, 2ms]}}]}}, {wait: children}, {sleep: {uniform: [5ms, 40ms]}}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[gmp.Rule]int{}
	stopped, movedStamps := 0, false
	for _, sc := range append(all, long) {
		if len(sc.Pools) == 0 {
			continue
		}
		for _, procs := range procCounts(sc) {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("%s/procs=%d/seed=%d", sc.Name, procs, seed), func(t *testing.T) {
					prog := *sc.Program()
					prog.Pools = append([]gmp.PoolDecl(nil), prog.Pools...)
					for i := range prog.Pools {
						prog.Pools[i].CoarseClock = true
					}
					cfg := sc.Config()
					cfg.Procs, cfg.Seed, cfg.Noise, cfg.Check = procs, seed, true, true
					m, n := runCounting(t, &prog, cfg, seen)
					if n == 0 {
						t.Fatal("no pool events: nothing was compared")
					}
					if !sc.AsExpected(m.End()) {
						t.Fatalf("ended %v: %v", m.End().Reason, m.End().Err)
					}
					for _, pl := range m.Pools() {
						stopped += pl.Stats.WorkersPurged
						for _, w := range pl.Workers {
							movedStamps = movedStamps || w.LastUsed >= sim.Time(500*time.Millisecond)
						}
					}
				})
			}
		}
	}
	if stopped == 0 || !movedStamps {
		t.Errorf("%d workers purged; a stamp after the clock's first move: %v", stopped, movedStamps)
	}
}

// procCounts are the P counts the differential tests run a built-in at:
// its own, one and three. With -short (./test.sh's race phase, where
// the driver's goroutines are checked for races and each run costs ten
// times more) its own alone; the suite's phase without the race detector
// runs all three.
func procCounts(sc *scenarios.Scenario) []int {
	if testing.Short() {
		return []int{sc.Procs}
	}
	return []int{sc.Procs, 1, 3}
}
