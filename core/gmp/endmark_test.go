package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// Costs.EndMark is what main does after its last action before it
// returns: main returns, and the run ends, that much later, with the same
// events and main's return the last of them.
func TestEndMarkComesBeforeMainReturns(t *testing.T) {
	sc := parse(t, `procs: 1
main:
  - go: {do: [{cpu: 10us}]}
  - cpu: 5us
`)
	end := func(mark time.Duration) (time.Duration, []gmp.Kind) {
		t.Helper()
		cfg := sc.Config()
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.EndMark = mark
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var kinds []gmp.Kind
		var last time.Duration
		m.SetSink(func(e gmp.Event) {
			kinds = append(kinds, e.Kind)
			last = e.T.D()
		})
		if e := m.Run(); e.Reason != gmp.MainReturned {
			t.Fatalf("the run ended with %v: %v", e.Reason, e.Err)
		}
		return last, kinds
	}
	base, baseKinds := end(0)
	got, kinds := end(700 * time.Nanosecond)
	if got-base != 700*time.Nanosecond {
		t.Errorf("main returned %v later with a 700ns end mark, want 700ns", got-base)
	}
	if len(kinds) != len(baseKinds) || kinds[len(kinds)-1] != gmp.KindGoExit {
		t.Errorf("events %v with the end mark, want those without it, %v, main's exit last", kinds, baseKinds)
	}
}
