package gofront

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/view/tracelog"
)

// textTrace is the model's text trace of sc, without notes (a Go program
// has none).
func textTrace(t *testing.T, sc *scenarios.Scenario) string {
	t.Helper()
	plain := *sc
	plain.Notes = nil
	var out bytes.Buffer
	if _, _, err := tracelog.Run(&plain, tracelog.Options{}, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// For every built-in, the program schedlab real --emit writes reads back
// into a program whose trace is the built-in's, byte for byte. The
// settings Go has no words for (policy, noise, the warm start) come
// from the built-in.
func TestGoRoundTripOfEveryBuiltin(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			p, err := prog.Translate(sc, sc.Config())
			if err != nil {
				t.Fatal(err)
			}
			back, err := Translate("main.go", p.Main, Options{})
			if err != nil {
				t.Fatalf("the front end refuses real's program:\n%v", err)
			}
			back.Policy, back.Noise, back.Expect, back.WarmStart = sc.Policy, sc.Noise, sc.Expect, sc.WarmStart
			if back.Name != sc.Name || back.Procs != sc.Procs || back.Until != sc.Until || back.Seed != sc.Seed {
				t.Errorf("settings: got %s procs %d until %v seed %d, want %s procs %d until %v seed %d",
					back.Name, back.Procs, back.Until, back.Seed, sc.Name, sc.Procs, sc.Until, sc.Seed)
			}
			want, got := textTrace(t, sc), textTrace(t, back)
			if got != want {
				t.Errorf("traces differ; the front end's program:\n%s", YAML(back))
			}
		})
	}
}

// The front end knows the mark of a scenario's end by rtrace's category.
func TestEndMarkCategoryIsRtraces(t *testing.T) {
	if rtraceEndMarkCategory != rtrace.EndMarkCategory {
		t.Errorf("the front end skips trace.Log of %q; real writes %q", rtraceEndMarkCategory, rtrace.EndMarkCategory)
	}
}

// The front end's stubs stand at the paths where real's programs import
// their own packages.
func TestGeneratedPackagePathsAreReals(t *testing.T) {
	if poolImport != prog.ModulePath+"/pool" || cputimeImport != prog.ModulePath+"/cputime" {
		t.Errorf("the front end stubs %q and %q; real's module is %q", poolImport, cputimeImport, prog.ModulePath)
	}
}
