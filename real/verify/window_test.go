package verify_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/realtest"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/real/verify"
)

// A generated program's main closes standard output after the scenario
// (done-flag's, which prints), a system call of its own that the model's
// run, ended when main returned, has no counterpart of. The real run's
// window ends where main left the scenario: the close and whatever ran
// with it are set apart, and main's only traced act, creating G2, is the
// whole window, as in the model.
func TestRealWindowEndsWhenMainLeavesTheScenario(t *testing.T) {
	realtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := prog.FindGo(ctx); err != nil {
		t.Skip(err)
	}
	sc, err := scenarios.Load("done-flag")
	if err != nil {
		t.Fatal(err)
	}
	s, done, err := verify.Session(ctx, sc, sc.ConfigWith(scenarios.Overrides{}), prog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	path, _, err := s.RunOutput(ctx, 1, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := rtrace.ReadWith(f, rtrace.Options{Scenario: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AfterScenario < 2 || sum.ScenarioEnd <= 0 || sum.Kinds["syscall-enter"] != 0 {
		t.Errorf("after the scenario %d events, its end at %v, %d system calls in it; want main's close of standard output (2 events) after it and none in it",
			sum.AfterScenario, sum.ScenarioEnd, sum.Kinds["syscall-enter"])
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	o, _, err := verify.Real(f, s.Prog.Procs)
	if err != nil {
		t.Fatal(err)
	}
	if o.Goroutines != 1 || o.Utilisation != 1 {
		t.Errorf("real run %v: want G2 created and main running the whole window", o)
	}
}
