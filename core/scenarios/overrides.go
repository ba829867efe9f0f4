package scenarios

import (
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// MaxMaxEvents bounds max_events and --max-events: a billion events is
// minutes of simulation and, in the UI, the most its history is sized for.
const MaxMaxEvents = 1_000_000_000

// Overrides are the command line's changes to a scenario's configuration:
// each field that is set replaces the file's value. run, tui, compare and
// check read them from one flag set.
type Overrides struct {
	Seed      *uint64
	Procs     int           // 0: the file's
	Until     time.Duration // 0: the file's
	MaxEvents int           // 0: the file's, else gmp.DefaultMaxEvents
	Policy    *gmp.Policy
	Noise     *bool
	CPUs      int  // 0: the file's
	Load      *int // nil: the file's
	// Costs are a machine's measured costs (--costs, a profile schedlab
	// calibrate wrote); nil keeps the model's defaults.
	Costs     *gmp.Costs
	WarmStart *bool
}

// ConfigWith returns the scenario's configuration with o applied.
func (s *Scenario) ConfigWith(o Overrides) gmp.Config {
	cfg := s.Config()
	if o.Seed != nil {
		cfg.Seed = *o.Seed
	}
	if o.Procs != 0 {
		cfg.Procs = o.Procs
	}
	if o.Until != 0 {
		cfg.Until = o.Until
	}
	if o.MaxEvents != 0 {
		cfg.MaxEvents = o.MaxEvents
	}
	if o.Policy != nil {
		cfg.Policy = *o.Policy
	}
	if o.Noise != nil {
		cfg.Noise = *o.Noise
	}
	if o.CPUs != 0 {
		cfg.CPUs = o.CPUs
	}
	if o.Load != nil {
		cfg.Load = *o.Load
	}
	if o.Costs != nil {
		cfg.Costs = *o.Costs
	}
	if o.WarmStart != nil {
		cfg.WarmStart = *o.WarmStart
	}
	return cfg
}
