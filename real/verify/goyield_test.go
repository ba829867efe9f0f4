package verify

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A sync.Mutex in starvation mode hands the lock to its waiter and yields
// (goyield), which runtime/trace records as a preemption: the real
// mutex-starvation runs showed 4 to 14 preempted slices in 10ms, each
// right after the unlocking goroutine readied the waiter, where the
// model, counting only its preemptions, showed 0. The model's side now
// counts its yields after a handoff as the trace does.
func TestGoyieldCountsAsATracedPreemption(t *testing.T) {
	sc, err := scenarios.Load("mutex-starvation")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.ConfigWith(scenarios.Overrides{})
	cfg.Noise = true
	yields := 0
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	m.SetSink(func(e gmp.Event) {
		if e.Kind == gmp.KindGoStop && e.Rule == gmp.RuleGoyield {
			yields++
		}
	})
	m.Run()
	if yields == 0 {
		t.Fatal("the model's run has no handoff's yield to count")
	}
	obs, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if obs.Preempted < yields {
		t.Errorf("preempted slices %d, want the %d yields among them", obs.Preempted, yields)
	}
}
