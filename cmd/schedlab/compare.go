package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/compare"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/taskmode"
)

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var (
		sim           simFlags
		modes, format string
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
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			cfg := sc.ConfigWith(over)
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
	sim.register(cmd, "stop each run")
	fl := cmd.Flags()
	fl.StringVar(&modes, "modes", "raw,pool,semaphore,errgroup", "the ways to run the tasks, comma-separated")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("modes", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"raw,pool,semaphore,errgroup", "raw,pool", "pool,semaphore", "pool,errgroup"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
