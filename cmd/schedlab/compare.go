package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/compare"
	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/taskmode"
)

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var (
		sim                     simFlags
		modes, policies, format string
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
pool its worker reuse and purges.

With --policies, compare runs the scenario as written (any scenario, not
only one that submits) under what-if schedulers instead, a column each:
  schedlab compare steal --policies default,no-steal
The rows add two measures: the longest any goroutine waited to run, and
the time Ps sat idle while goroutines waited in a queue (work
conservation: 0 means no P idled while there was work). The policies are
listed by schedlab list --policies.`,
		Example: `  schedlab compare burst
  schedlab compare burst --modes raw,pool --procs 8
  schedlab compare my.yaml --format json | jq '.modes[] | {mode, makespan_ns}'
  schedlab compare steal --policies default,no-steal,steal-all`,
		Args: exactArgs("a scenario name or file"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			// Every built-in compares under --policies; the modes need
			// one that submits tasks.
			if cmd.Flags().Changed("policies") {
				return scenarios.BuiltinNames(), cobra.ShellCompDirectiveDefault
			}
			all, _ := scenarios.Builtins()
			var names []string
			for _, sc := range all {
				if compare.Submits(sc.Program()) {
					names = append(names, sc.Name)
				}
			}
			return names, cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("unknown format %q: use text or json", format)}
			}
			var pols []gmp.Policy
			if cmd.Flags().Changed("policies") {
				if cmd.Flags().Changed("modes") || cmd.Flags().Changed("policy") {
					return usageError{fmt.Errorf("--policies compares the scenario as written: leave out --modes and --policy")}
				}
				for _, name := range strings.Split(policies, ",") {
					p, err := gmp.ParsePolicy(strings.TrimSpace(name))
					if err != nil {
						return usageError{fmt.Errorf("--policies: %w", err)}
					}
					pols = append(pols, p)
				}
				if len(pols) < 2 {
					return usageError{fmt.Errorf("--policies %q: name two or more, e.g. default,no-steal", policies)}
				}
			}
			ms, err := taskmode.Parse(modes)
			if err != nil {
				return usageError{fmt.Errorf("--modes: %w", err)}
			}
			over, err := sim.overrides(cmd)
			if err != nil {
				return err
			}
			sc, err := loadScenario(args[0], over)
			if err != nil {
				return err
			}
			cfg := sc.ConfigWith(over)
			var rep *compare.Report
			if pols != nil {
				rep, err = compare.ComparePolicies(sc.Name, sc.Title, sc.Program(), cfg, pols)
			} else {
				rep, err = compare.Compare(sc.Name, sc.Title, sc.Program(), cfg, ms)
			}
			if err != nil {
				return usageError{err}
			}
			write := rep.WriteText
			if format == "json" {
				write = rep.WriteJSON
			}
			if err := write(stdout); err != nil {
				return err
			}
			// A run that ended in a way the scenario does not declare
			// (expect:) is a failed comparison, after the table.
			var bad []error
			for _, r := range rep.Results {
				if r.End.Err != nil && r.End.Reason != sc.Expect {
					bad = append(bad, fmt.Errorf("%s: %w", r.Label, r.End.Err))
				}
			}
			if len(bad) > 0 {
				return runError{errors.Join(bad...)}
			}
			return nil
		},
	}
	sim.register(cmd, "stop each run")
	fl := cmd.Flags()
	fl.StringVar(&modes, "modes", "raw,pool,semaphore,errgroup", "the ways to run the tasks, comma-separated")
	fl.StringVar(&policies, "policies", "", "compare what-if schedulers instead, comma-separated (e.g. default,no-steal)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("policies", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, name := range gmp.PolicyNames()[1:] {
			out = append(out, "default,"+name)
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("modes", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"raw,pool,semaphore,errgroup", "raw,pool", "pool,semaphore", "pool,errgroup"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
