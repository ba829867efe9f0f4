package verify_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
	"github.com/schedlab/schedlab/internal/realtest"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/verify"
)

// go test -update (internal/golden's flag) rewrites testdata/baseline.json
// from a verify run of every built-in on this machine.

// robust says whether an observable of sc is one a shared 2-core machine
// reproduces run after run: the goroutines the scenario creates, and on
// one P the first goroutine to run (any of the real runs agreeing) and the
// printed order (the real runs' commonest among the model's).
// Timings, migrations and the peak of live goroutines (which depends on
// how soon the first ones exit) move with the machine's load and stay
// out, and so does the count of a run whose pool purges (makespan is the
// longest run's, model or real): how many purge goroutines a timer starts,
// and how many workers come back, depends on when the timer fires.
func robust(observable string, sc *scenarios.Scenario, makespan float64) bool {
	switch observable {
	case "goroutines created":
		for _, p := range sc.Pools {
			expiry := p.Expiry
			if expiry == 0 {
				expiry = gmp.DefaultPoolExpiry
			}
			if float64(expiry) < makespan {
				return false
			}
		}
		return true
	case "first goroutine started", "output order":
		// On one P the order of the prints is runnext's and the
		// rings', which the machine's load does not move.
		return sc.Procs == 1
	}
	return false
}

// baseline maps each built-in to the observables on which the model was
// within the real runs' range when the baseline was written.
type baseline map[string][]string

// TestFidelitySuite runs verify on every built-in (5 seeds, 5 real runs:
// the fewest with which the rank test can tell samples apart, stats.go)
// and fails when a robust observable the baseline holds within the real
// range has left it: a regression of the model or of the translation.
func TestFidelitySuite(t *testing.T) {
	realtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	const path = "testdata/baseline.json"
	var base baseline
	if !golden.Update() {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./real/verify -run FidelitySuite -update writes it)", err)
		}
		if err := json.Unmarshal(b, &base); err != nil {
			t.Fatal(err)
		}
	}
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	written := baseline{}
	for _, sc := range all {
		rep, err := verify.Scenario(ctx, sc, verify.Options{Seeds: 5, Runs: 5, Timeout: time.Minute})
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		held := []string{}
		// A pool purges in any run that outlasts its expiry, the model's
		// or a real one stretched by the machine's load.
		var makespan float64
		for _, row := range rep.Rows {
			if row.Observable == "makespan" {
				makespan = max(row.Model, row.RealMax)
			}
		}
		for _, row := range rep.Rows {
			if !robust(row.Observable, sc, makespan) {
				continue
			}
			if row.Within {
				held = append(held, row.Observable)
			}
			if !golden.Update() && slices.Contains(base[sc.Name], row.Observable) && !row.Within {
				t.Errorf("%s: %s: the model gives %v, the real runs %v to %v (%s)", sc.Name, row.Observable, row.Model, row.RealMin, row.RealMax, row.Verdict)
			}
		}
		written[sc.Name] = held
	}
	if golden.Update() {
		b, err := json.MarshalIndent(written, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name := range base {
		if _, ok := written[name]; !ok {
			t.Errorf("the baseline names %s, which is no longer a built-in: run -update", name)
		}
	}
	for name := range written {
		if _, ok := base[name]; !ok {
			t.Errorf("built-in %s has no baseline: run go test ./real/verify -run FidelitySuite -update", name)
		}
	}
}
