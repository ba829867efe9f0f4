package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/scenarios"
)

// The model's side counts its threads' time on the CPUs it models: in
// burst, 10,000 tasks of 20-200µs on 4 Ps sharing 2 CPUs, at least the
// tasks' 1.1s and at most both CPUs for the whole window. Where every M
// has a CPU of its own the model counts none.
func TestModelCountsItsThreadsCPUTime(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := modelConfig(sc, scenarios.Overrides{}, 2)
	if cfg.CPUs != 2 {
		t.Fatalf("burst's model on 2 CPUs has %d", cfg.CPUs)
	}
	obs, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if obs.CPUTime < 1090*time.Millisecond || obs.CPUTime > 2*(obs.Makespan+obs.RuntimeDelay) {
		t.Errorf("CPU time %v over a window of %v on 2 CPUs", obs.CPUTime, obs.Makespan)
	}
	cfg, _ = modelConfig(sc, scenarios.Overrides{}, 4)
	if obs, _, err := Model(sc.Program(), cfg); err != nil || obs.CPUTime != 0 {
		t.Errorf("with a CPU for each M: CPU time %v, %v", obs.CPUTime, err)
	}
}

// The real side takes the CPU time the program logs after its end mark
// (rtrace.Summary.CPUTime).
func TestRealSideTakesTheProgramsCPUTime(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "rtrace", "testdata", "cputime-steal.trace"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	obs, sum, err := Real(f, 2)
	if err != nil {
		t.Fatal(err)
	}
	if obs.CPUTime == 0 || obs.CPUTime != sum.CPUTime {
		t.Errorf("CPU time %v, the trace's %v", obs.CPUTime, sum.CPUTime)
	}
}
