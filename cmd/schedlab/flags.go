package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/gofront"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/calibrate"
)

// simFlags are the simulation's flags, registered and checked in one place
// for every command that runs a scenario: run, tui, compare, export,
// check and verify (real refuses those that have no real counterpart).
// --seed is a string so that its error can quote what was typed.
type simFlags struct {
	seed      string
	procs     int
	until     time.Duration
	maxEvents int
	policy    string
	noise     bool
	cpus      int
	load      int
	costs     string
	// costsSet and profile are what overrides read of --costs: whether
	// it was given, and the profile it named (nil for builtin).
	costsSet bool
	profile  *calibrate.Profile
	warm     bool
}

// register adds the flags to cmd. each says what a value applies to, for
// the help text ("stop" or "stop each run").
func (f *simFlags) register(cmd *cobra.Command, each string) {
	fl := cmd.Flags()
	fl.StringVar(&f.seed, "seed", "", "seed for the random choices (default: the scenario's seed, else 1)")
	fl.IntVar(&f.procs, "procs", 0, "GOMAXPROCS (default: the scenario's procs)")
	fl.DurationVar(&f.until, "until", 0, each+" at this simulated time (default: the scenario's until, else the end)")
	fl.IntVar(&f.maxEvents, "max-events", 0, fmt.Sprintf("end a run that has not ended after this many events (default: the scenario's max_events, else %d)", gmp.DefaultMaxEvents))
	fl.StringVar(&f.policy, "policy", "", "a what-if scheduler: "+strings.Join(gmp.PolicyNames(), ", ")+"; join several with + (see schedlab list --policies)")
	fl.BoolVar(&f.noise, "noise", false, "make thread wake-ups and timed waits late by seeded amounts, as on a real machine (--noise=false for exact)")
	fl.IntVar(&f.cpus, "cpus", 0, "run the Ms on this many CPUs, scheduled as Linux's EEVDF does (default: the scenario's cpus, else none modelled: each M runs when it can; with --load, as many as Ps)")
	fl.IntVar(&f.load, "load", 0, "share the CPUs with this many busy threads of other programs (default: the scenario's load, else 0)")
	fl.StringVar(&f.costs, "costs", "", "time the runtime's own work with the cost profile in FILE, which schedlab calibrate writes ("+builtinCosts+": the model's own costs)")
	fl.BoolVar(&f.warm, "warm-start", false, "start as the runtime is when main.main starts: idle threads already made, schedtick advanced (the scenario's start: warm; --warm-start=false for a bare start)")
	_ = cmd.RegisterFlagCompletionFunc("policy", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return gmp.PolicyNames(), cobra.ShellCompDirectiveNoFileComp
	})
}

// overrides checks the flags that were given and returns them as changes
// to a scenario's configuration.
func (f *simFlags) overrides(cmd *cobra.Command) (scenarios.Overrides, error) {
	var o scenarios.Overrides
	fl := cmd.Flags()
	if fl.Changed("seed") {
		v, err := parseSeed(f.seed)
		if err != nil {
			return o, err
		}
		o.Seed = &v
	}
	if fl.Changed("procs") {
		if f.procs < 1 || f.procs > gmp.MaxProcs {
			return o, usageError{fmt.Errorf("--procs %d: want 1 to %d", f.procs, gmp.MaxProcs)}
		}
		o.Procs = f.procs
	}
	if fl.Changed("until") {
		if f.until <= 0 {
			return o, usageError{fmt.Errorf("--until %v: want a positive duration such as 50ms (leave it out to run to the end)", f.until)}
		}
		o.Until = f.until
	}
	if fl.Changed("max-events") {
		if f.maxEvents < 1 || f.maxEvents > scenarios.MaxMaxEvents {
			return o, usageError{fmt.Errorf("--max-events %d: want 1 to %d", f.maxEvents, scenarios.MaxMaxEvents)}
		}
		o.MaxEvents = f.maxEvents
	}
	if fl.Changed("policy") {
		p, err := gmp.ParsePolicy(f.policy)
		if err != nil {
			return o, usageError{fmt.Errorf("--policy: %w", err)}
		}
		o.Policy = &p
	}
	if fl.Changed("noise") {
		o.Noise = &f.noise
	}
	if fl.Changed("cpus") {
		if f.cpus < 1 || f.cpus > gmp.MaxProcs {
			return o, usageError{fmt.Errorf("--cpus %d: want 1 to %d", f.cpus, gmp.MaxProcs)}
		}
		o.CPUs = f.cpus
	}
	if fl.Changed("load") {
		if f.load < 0 || f.load > gmp.MaxLoad {
			return o, usageError{fmt.Errorf("--load %d: want 0 to %d busy threads", f.load, gmp.MaxLoad)}
		}
		o.Load = &f.load
	}
	if fl.Changed("costs") {
		k, p, err := readCosts(f.costs)
		if err != nil {
			return o, err
		}
		o.Costs, f.costsSet, f.profile = k, true, p
	}
	if fl.Changed("warm-start") {
		o.WarmStart = &f.warm
	}
	return o, nil
}

// builtinCosts is the --costs value that names the model's own costs.
// (A profile called builtin is ./builtin.)
const builtinCosts = "builtin"

// readCosts reads the cost profile --costs names: its costs for the model
// and the profile, or nil for both with builtin. A bad profile is a
// mistake in a file, as a bad scenario is.
func readCosts(path string) (*gmp.Costs, *calibrate.Profile, error) {
	switch path {
	case builtinCosts:
		return nil, nil, nil
	case "":
		return nil, nil, usageError{fmt.Errorf("--costs needs a cost profile's file (schedlab calibrate writes one) or %s", builtinCosts)}
	}
	p, err := calibrate.Read(path)
	if err != nil {
		return nil, nil, usageError{err}
	}
	k, err := p.Costs()
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("%s: %w", path, err)}
	}
	return &k, p, nil
}

// parseSeed reads a --seed value.
func parseSeed(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > math.MaxInt64 {
		return 0, usageError{fmt.Errorf("--seed %q: want a whole number from 0 to %d", s, int64(math.MaxInt64))}
	}
	return v, nil
}

// byteSize is a flag holding a number of bytes, written with a binary
// unit: 512MiB, 1GiB, 64KiB, or bytes alone.
type byteSize int64

var byteUnits = []struct {
	suffix string
	n      int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

func (b *byteSize) Set(s string) error {
	num, unit := s, int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, unit = rest, u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return fmt.Errorf("want a positive size such as 512MiB or 2GiB (units: KiB, MiB, GiB, TiB)")
	}
	*b = byteSize(n * unit)
	return nil
}

func (b *byteSize) String() string {
	for _, u := range byteUnits {
		if int64(*b)%u.n == 0 && int64(*b) >= u.n {
			return strconv.FormatInt(int64(*b)/u.n, 10) + u.suffix
		}
	}
	return strconv.FormatInt(int64(*b), 10) + "B"
}

func (b *byteSize) Type() string { return "size" }

// loadScenario reads the scenario a command names (a built-in, a YAML
// file, a Go program, or - for standard input) and checks it against the configuration the
// command line gives it: an ask: naming a P or goroutine that run cannot
// have is a mistake in the file, refused alike by every command (exit 2).
func loadScenario(name string, over scenarios.Overrides) (*scenarios.Scenario, error) {
	sc, err := gofront.LoadFrom(name, stdin, gofront.Options{})
	if err != nil {
		return nil, usageError{err}
	}
	if err := sc.Validate(sc.ConfigWith(over)); err != nil {
		return nil, usageError{err}
	}
	return sc, nil
}

// completeScenario completes a command's scenario argument with the
// built-ins' names, and files as the shell does.
func completeScenario(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
}
