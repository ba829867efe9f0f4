package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/compare"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/taskmode"
)

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var (
		seed, modes, format string
		procs               int
		until               time.Duration
	)
	cmd := &cobra.Command{
		Use:   "compare NAME|FILE",
		Short: "Run a workload as raw goroutines, a pool, a semaphore and an errgroup, and compare",
		Long: `compare runs the tasks a scenario submits to a pool (its submit: actions)
in the simulated scheduler four ways, with the same seed:

  raw        a goroutine per task
  pool       the scenario's pool, as written
  semaphore  a goroutine per task, at most the pool's size at once
             (golang.org/x/sync/semaphore)
  errgroup   errgroup.Group with SetLimit(the pool's size)

and prints, for each, the makespan, the goroutines created and alive at
once, the stack memory they hold (2 KiB per goroutine descriptor, the
free-list cache included), the longest local and global run queues,
steals, preemptions, scheduling latency (runnable to running), and for the
pool its worker reuse and purges.`,
		Example: `  schedlab compare burst
  schedlab compare burst --modes raw,pool --procs 8
  schedlab compare my.yaml --format json | jq '.modes[] | {mode, makespan_ns}'`,
		Args: exactArgs("a scenario name or file"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("unknown format %q: use text or json", format)}
			}
			ms, err := taskmode.Parse(modes)
			if err != nil {
				return usageError{fmt.Errorf("--modes: %w", err)}
			}
			sc, err := scenarios.Load(args[0])
			if err != nil {
				return usageError{err}
			}
			cfg := sc.Config()
			if cmd.Flags().Changed("seed") {
				if cfg.Seed, err = parseSeed(seed); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("procs") {
				if err := checkProcs(procs); err != nil {
					return err
				}
				cfg.Procs = procs
			}
			if until < 0 {
				return usageError{errors.New("--until must not be negative")}
			}
			if until > 0 {
				cfg.Until = until
			}
			rep, err := compare.Compare(sc.Name, sc.Title, sc.Program(), cfg, ms)
			if err != nil {
				return usageError{fmt.Errorf("%s: %w", sc.File, err)}
			}
			if format == "json" {
				return rep.WriteJSON(stdout)
			}
			return rep.WriteText(stdout)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&modes, "modes", "raw,pool,semaphore,errgroup", "the ways to run the tasks, comma-separated")
	fl.StringVar(&seed, "seed", "", "seed for the random choices (default: the scenario's seed, else 1)")
	fl.IntVar(&procs, "procs", 0, "GOMAXPROCS (default: the scenario's procs)")
	fl.DurationVar(&until, "until", 0, "stop each run at this simulated time (default: the scenario's until, else the end)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("modes", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"raw,pool,semaphore,errgroup", "raw,pool", "pool,semaphore", "pool,errgroup"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
