package scenarios

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// TestBuiltinsUnderEveryPolicy runs every built-in under every what-if
// policy with the invariants checked after each step: a policy changes
// decisions, never the model's consistency, and every run still ends.
func TestBuiltinsUnderEveryPolicy(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range gmp.Policies() {
		name := info.Name
		if name == "fairness=N" {
			name = "fairness=5"
		}
		policy, err := gmp.ParsePolicy(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range all {
			cfg := sc.Config()
			cfg.Policy = policy
			cfg.Check = true
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			end := m.Run()
			if end.Reason == gmp.Invariant || end.Reason == gmp.EventLimit {
				t.Errorf("%s under %s: %s: %v", sc.Name, name, end.Reason, end.Err)
			}
		}
	}
}
