package gmp_test

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// MaxGoroutine is a true bound: no built-in without pools hands out a
// higher goroutine id, and one whose main returns reaches it exactly (every
// go statement ran). A program with pools has no known bound.
func TestMaxGoroutineBoundsEveryBuiltin(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, sc := range all {
		bound, known := sc.Program().MaxGoroutine()
		if known != (len(sc.Pools) == 0) {
			t.Errorf("%s: known %v with %d pools", sc.Name, known, len(sc.Pools))
		}
		if !known {
			continue
		}
		cfg := sc.Config()
		if cfg.Until == 0 || cfg.Until > 20e6 {
			cfg.Until = 20e6 // 20ms: enough to start what most start
		}
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		highest := gmp.GID(0)
		m.SetSink(func(e gmp.Event) { highest = max(highest, e.G, e.G2, e.G3) })
		end := m.Run()
		if highest > bound {
			t.Errorf("%s: G%d ran, past the bound %v", sc.Name, highest, bound)
		}
		if end.Reason == gmp.MainReturned && highest != bound {
			t.Errorf("%s: main returned having started up to G%d, bound %v", sc.Name, highest, bound)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no built-in without pools")
	}
	pooled := &gmp.Program{Pools: []gmp.PoolDecl{{Name: "p", Size: 1}}}
	if _, known := pooled.MaxGoroutine(); known {
		t.Error("a program with a pool has a known bound")
	}
}
