package bench

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/table"
)

// disagree is the spread of a mode's wall times, max/min, beyond which
// the report warns: on a shared or busy machine the median alone hides
// that the runs do not agree.
const disagree = 1.25

// WallRange returns the fastest and slowest of the mode's runs.
func (r *Result) WallRange() (lo, hi time.Duration) {
	if len(r.Runs) == 0 {
		return r.Wall, r.Wall
	}
	lo, hi = time.Duration(math.MaxInt64), 0
	for i := range r.Runs {
		lo, hi = min(lo, r.Runs[i].Wall), max(hi, r.Runs[i].Wall)
	}
	return lo, hi
}

// rangeText writes a mode's wall-time range: "270ms–301ms", or "-" for a
// single run.
func (r *Result) rangeText() string {
	if len(r.Runs) < 2 {
		return "-"
	}
	lo, hi := r.WallRange()
	return table.Duration(lo) + "–" + table.Duration(hi)
}

// spreadWarning says which modes' runs disagree by more than disagree,
// or "".
func (rep *Report) spreadWarning() string {
	var worst *Result
	ratio := 0.0
	for _, r := range rep.Results {
		lo, hi := r.WallRange()
		if lo <= 0 || len(r.Runs) < 2 {
			continue
		}
		if x := float64(hi) / float64(lo); x > disagree && x > ratio {
			worst, ratio = r, x
		}
	}
	if worst == nil {
		return ""
	}
	return fmt.Sprintf("the runs disagree: %s's wall time ranges %s (×%.2f); the machine was busy, so read the medians with care or run again with more --runs",
		worst.Mode, worst.rangeText(), ratio)
}

// Estimate is a lower bound on how long bench runs with cfg: for each
// mode and run, the tasks' own time spread over the most that can run at
// once (the concurrency, and for CPU work the CPUs).
func Estimate(cfg Config) time.Duration {
	cpus := runtime.GOMAXPROCS(0)
	var total time.Duration
	for _, mode := range cfg.Modes {
		at := cfg.Concurrency
		if mode == taskmode.Raw {
			at = cfg.Tasks
		}
		var work time.Duration
		switch cfg.Shape {
		case CPU:
			work = perSlot(cfg.Tasks, min(at, cpus), cfg.TaskTime)
		case Sleep:
			work = perSlot(cfg.Tasks, at, cfg.TaskTime)
		default: // half of each
			work = perSlot((cfg.Tasks+1)/2, min(at, cpus), cfg.TaskTime) + perSlot(cfg.Tasks/2, at, cfg.TaskTime)
		}
		total += work * time.Duration(cfg.Runs)
	}
	return total
}

// perSlot is how long n tasks of d take, at most at at a time.
func perSlot(n, at int, d time.Duration) time.Duration {
	if n <= 0 || at <= 0 {
		return 0
	}
	rounds := (n + at - 1) / at
	if float64(rounds)*float64(d) > float64(math.MaxInt64/4) {
		return math.MaxInt64 / 4
	}
	return time.Duration(rounds) * d
}
