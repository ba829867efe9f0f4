package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// A go statement whose goroutine finds no dead one's descriptor to reuse
// costs its creator Costs.NewG more (newproc1 allocates a g and a stack);
// one that reuses a descriptor does not. Two waves of three goroutines on
// one P: the first wave's go statements allocate, the second's reuse the
// first wave's descriptors. With NewG at 1µs the run is 3µs longer, and
// with NewG 0, the default, it is as before.
func TestNewGCostsOnlyAFreshDescriptor(t *testing.T) {
	sc := parse(t, `procs: 1
main:
  - loop:
      times: 2
      do:
        - go: {count: 3, do: [{cpu: 10us}]}
        - wait: children
`)
	end := func(newG time.Duration) (time.Duration, int) {
		t.Helper()
		cfg := sc.Config()
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.NewG = newG
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		reused := 0
		m.SetSink(func(e gmp.Event) {
			if e.Kind == gmp.KindGoCreate && e.N2 != int(gmp.NoG) {
				reused++
			}
		})
		if e := m.Run(); !sc.AsExpected(e) {
			t.Fatalf("the run ended with %v: %v", e.Reason, e.Err)
		}
		return m.Now().D(), reused
	}
	base, reused := end(0)
	if reused != 3 {
		t.Fatalf("%d go statements reused a descriptor, want the second wave's 3", reused)
	}
	if got, _ := end(time.Microsecond); got-base != 3*time.Microsecond {
		t.Errorf("with NewG 1µs the run ends %v later, want 3µs: the first wave's three go statements", got-base)
	}
}
