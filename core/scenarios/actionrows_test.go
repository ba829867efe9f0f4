package scenarios

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// Every action the model runs (gmp.Actions) has a row in the action
// table, so a scenario can write it. Add OpYield to core/gmp/exec.go and
// leave actions.go alone, and this fails: "the model's action yield has
// no row in actionTable".
func TestEveryActionHasARow(t *testing.T) {
	for _, k := range gmp.Actions() {
		found := false
		for _, a := range actionTable {
			found = found || a.kind == k
		}
		if !found {
			t.Errorf("the model's action %s has no row in actionTable (core/scenarios/actions.go)", k)
		}
	}
}
