package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
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
// (rtrace.Summary.CPUTime), and how long before its scenario main made the
// tracer's first go statement (rtrace.Summary.TracerLead).
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
	if obs.TracerLead == 0 || obs.TracerLead != sum.TracerLead {
		t.Errorf("tracer lead %v, the trace's %v", obs.TracerLead, sum.TracerLead)
	}
}

// verify's model computes at the work's pace a real program keeps,
// noise included: the pace over the noise's own mean.
func TestModelComputesAtTheRealWorksPace(t *testing.T) {
	sc, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := modelConfig(sc, scenarios.Overrides{}, 2)
	if got := cfg.Costs.WorkPace * gmp.NoiseWorkMean(); got < workPace-1e-9 || got > workPace+1e-9 {
		t.Errorf("the model's work pace with its noise is %v, want %v", got, workPace)
	}
	// A scenario that computes takes longer in verify's model than at
	// the written time, by about the pace.
	at, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Costs.WorkPace = 0
	written, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ratio := float64(at.CPUTime) / float64(written.CPUTime); ratio < 1.005 || ratio > 1.013 {
		t.Errorf("burst's CPU time at the pace over the written: %.4f, want about %.4f", ratio, workPace/gmp.NoiseWorkMean())
	}
}
