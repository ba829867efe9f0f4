package bench

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
)

// Defaults: 1.5s of CPU work per run, so about 0.75s on 2 cores, and the
// twelve runs of a default bench (four modes, three runs) take 10 to 15s,
// well under a minute. Eight workers keep both cores busy while raw piles
// up thousands of goroutines.
const (
	DefaultTasks       = 30000
	DefaultConcurrency = 8
	DefaultTaskTime    = 50 * time.Microsecond
	DefaultRuns        = 3
)

// Limits that keep a typo from exhausting the machine.
const (
	MaxTasks = 10_000_000 // the exactly-once check holds 4 bytes per task
	MaxRuns  = 100
)

// Config says what to run. Its fields are the flags of schedlab bench.
type Config struct {
	// Tasks is the number of tasks each run executes.
	Tasks int
	// Concurrency bounds the bounded modes: the pool's size, the
	// semaphore's weight, the errgroup's limit. raw ignores it.
	Concurrency int
	// Shape and TaskTime say what a task does and for how long.
	Shape    Shape
	TaskTime time.Duration
	// Modes are run in this order, which is the report's column order.
	Modes []taskmode.Mode
	// Runs is how many times each mode runs; the report has the medians.
	Runs int

	// Trace, if not nil, receives a runtime/trace of one more run of
	// TraceMode, made after the measured runs and left out of the
	// figures, since tracing slows the scheduler down.
	Trace     io.Writer
	TraceMode taskmode.Mode

	// SpinPerMicro is the busy loop's speed, in iterations per
	// microsecond; zero means Run calibrates it. Tests set it to skip the
	// calibration.
	SpinPerMicro float64
}

// DefaultConfig returns the configuration of a bare schedlab bench.
func DefaultConfig() Config {
	return Config{
		Tasks: DefaultTasks, Concurrency: DefaultConcurrency, Shape: CPU, TaskTime: DefaultTaskTime,
		Modes: taskmode.All, Runs: DefaultRuns,
	}
}

// ConfigError is a setting out of range. Field is named as the flag that
// sets it, so the command can quote it.
type ConfigError struct {
	Field string // "tasks", "concurrency", …
	Value any
	Want  string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s %v: want %s", e.Field, e.Value, e.Want)
}

// Validate checks every setting and returns the first one out of range as
// a *ConfigError.
func (c *Config) Validate() error {
	switch {
	case c.Tasks < 1:
		return &ConfigError{"tasks", c.Tasks, "at least 1"}
	case c.Tasks > MaxTasks:
		return &ConfigError{"tasks", c.Tasks, fmt.Sprintf("at most %d", MaxTasks)}
	case c.Concurrency < 1:
		return &ConfigError{"concurrency", c.Concurrency, "at least 1"}
	case c.TaskTime <= 0:
		return &ConfigError{"task-time", c.TaskTime, "more than 0"}
	case int(c.Shape) >= len(shapeNames):
		return &ConfigError{"shape", c.Shape, "cpu, sleep or mixed"}
	case len(c.Modes) == 0:
		return &ConfigError{"modes", `""`, "at least one mode"}
	case c.Runs < 1 || c.Runs > MaxRuns:
		return &ConfigError{"runs", c.Runs, fmt.Sprintf("1 to %d", MaxRuns)}
	case c.SpinPerMicro < 0:
		return &ConfigError{"spin-per-micro", c.SpinPerMicro, "0 (calibrate) or more"}
	}
	for i, m := range c.Modes {
		if !slices.Contains(taskmode.All, m) {
			return &ConfigError{"modes", m, "raw, pool, semaphore or errgroup"}
		}
		for _, earlier := range c.Modes[:i] {
			if earlier == m {
				return &ConfigError{"modes", m, "each mode once"}
			}
		}
	}
	if c.Trace != nil && !slices.Contains(taskmode.All, c.TraceMode) {
		return &ConfigError{"trace-mode", c.TraceMode, "raw, pool, semaphore or errgroup"}
	}
	return nil
}
