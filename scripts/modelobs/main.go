// Command modelobs prints the observables verify measures of the model's
// side of a scenario, seed by seed, with the model verify runs (this
// machine's profile, traced, and verify's configuration: verify.ModelConfig),
// so that a change to the model can be read against a verify report's real
// column without running the real program again.
//
//	go run ./scripts/modelobs [-seeds 10] [-cpus N] [-load N] [-newm D] NAME...
//
// -load and -newm are sensitivity checks, not costs: how far a busy
// machine, or a slower first thread, would move the model's figures.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/calibrate"
	"github.com/schedlab/schedlab/real/verify"
)

func main() {
	seeds := flag.Int("seeds", 10, "seeds 1 to this")
	cpus := flag.Int("cpus", 0, "CPUs (0: verify's, the machine's when the Ps are more)")
	load := flag.Int("load", 0, "busy threads of other programs beside the model's (with -cpus, or the machine's CPUs)")
	newM := flag.Duration("newm", 0, "a sensitivity check, not a cost: a new thread's start (Costs.NewM) instead of the profile's")
	flag.Parse()
	k, err := calibrate.DefaultTracedCosts()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, name := range flag.Args() {
		sc, err := scenarios.Load(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cfg := verify.ModelConfig(sc, k, runtime.NumCPU())
		if *newM > 0 {
			cfg.Costs.NewM = *newM
		}
		if *cpus > 0 {
			cfg.CPUs = *cpus
		}
		if *load > 0 {
			cfg.Load = *load
			if cfg.CPUs == 0 {
				cfg.CPUs = runtime.NumCPU()
			}
		}
		var util, mk []float64
		for s := 1; s <= *seeds; s++ {
			c := cfg
			c.Seed = uint64(s)
			o, _, err := verify.Model(sc.Program(), c)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Printf("%s seed %d: %s\n", name, s, o)
			util = append(util, o.Utilisation)
			mk = append(mk, float64(o.Makespan))
		}
		sort.Float64s(util)
		sort.Float64s(mk)
		fmt.Printf("%s: utilisation %.1f%%–%.1f%%, makespan %.3gms–%.3gms\n", name, util[0]*100, util[len(util)-1]*100, mk[0]/1e6, mk[len(mk)-1]/1e6)
	}
}
