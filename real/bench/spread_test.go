package bench

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
)

// Runs that disagree by more than a quarter are named with their range;
// runs that agree are not.
func TestSpreadWarning(t *testing.T) {
	runs := func(walls ...time.Duration) []Measurement {
		var out []Measurement
		for _, w := range walls {
			out = append(out, Measurement{Wall: w})
		}
		return out
	}
	rep := &Report{Results: []*Result{
		{Mode: taskmode.Raw, Runs: runs(421*time.Millisecond, 683*time.Millisecond, 500*time.Millisecond)},
		{Mode: taskmode.Pool, Runs: runs(400*time.Millisecond, 410*time.Millisecond)},
	}}
	w := rep.spreadWarning()
	if !strings.Contains(w, "raw's wall time ranges 421ms–683ms (×1.62)") {
		t.Errorf("warning %q", w)
	}
	rep.Results = rep.Results[1:]
	if w := rep.spreadWarning(); w != "" {
		t.Errorf("runs within 3%% gave the warning %q", w)
	}
	if got := rep.Results[0].rangeText(); got != "400ms–410ms" {
		t.Errorf("range %q", got)
	}
}

// The estimate is the tasks' own time over what can run at once.
func TestEstimate(t *testing.T) {
	cpus := runtime.GOMAXPROCS(0)
	cfg := Config{Tasks: 1_000_000, Concurrency: 1000, Shape: Sleep, TaskTime: 2 * time.Second, Runs: 1,
		Modes: []taskmode.Mode{taskmode.Pool}}
	if got, want := Estimate(cfg), 2000*time.Second; got != want {
		t.Errorf("sleep: %v, want %v", got, want)
	}
	cfg.Modes = []taskmode.Mode{taskmode.Raw}
	if got, want := Estimate(cfg), 2*time.Second; got != want {
		t.Errorf("raw sleep: %v, want %v (all at once)", got, want)
	}
	cfg = Config{Tasks: 100, Concurrency: 8, Shape: CPU, TaskTime: time.Millisecond, Runs: 3, Modes: []taskmode.Mode{taskmode.Pool}}
	want := 3 * time.Duration((100+min(8, cpus)-1)/min(8, cpus)) * time.Millisecond
	if got := Estimate(cfg); got != want {
		t.Errorf("cpu: %v, want %v", got, want)
	}
}
