package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/real/calibrate"
)

func newCalibrateCmd(stdout io.Writer) *cobra.Command {
	var (
		out     string
		samples int
		rounds  int
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Measure this machine's costs for the model and write them as a cost profile",
		Long: `calibrate measures what the runtime's own work costs on this machine: a
thread's wake-up by futex, a context switch, the slack of a short
nanosleep, of a 10ms one (with the machine idle, and beside a thread
that computes, as the runtime's sysmon sleeps in a program that runs)
and of a 1ms time.Sleep, a system call, the kernel's timer slack,
a go statement and its first run, a hand-off between two goroutines on one P,
the speed of the loop a scenario's cpu action runs for real, how late a
thread starts when a go statement wakes it after the program has been idle
2 to 8ms (timed in fresh copies of schedlab), what such a wake-up
costs the thread that makes it, what a program's first print and its
write to its output cost more than its later ones (in fresh copies too,
untraced and traced), how long the network poller takes to return a goroutine
whose read became ready, a round of a goroutine's spinning on a held
mutex (the CPU's PAUSE instruction), and how often the kernel puts a woken
thread beside its waker on a busy CPU rather than on an idle one (in fresh
copies too; some kernels pack threads so on purpose). Each is the median
of many samples, with its spread. The figures are taken in turn, --rounds
times over, each time with their share of the samples: a virtual machine's
CPUs change pace within seconds, and a figure taken all at once is of one
moment.

It writes them as a cost profile (JSON, described in docs/fidelity.md) to
-o FILE, by default costs.json in schedlab's folder of the user's
configuration directory. --costs FILE on run, tui, compare, export, check
and verify times the model's runtime work with it; verify uses the default
profile when there is one.

The figures include whatever else the machine runs: calibrate on a quiet
machine. It takes about twenty seconds.`,
		Example: `  schedlab calibrate
  schedlab calibrate -o laptop.json && schedlab run pingpong --costs laptop.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("calibrate takes no arguments, got %q", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if samples < 1 || samples > 100_000 {
				return usageError{fmt.Errorf("--samples %d: want 1 to 100000", samples)}
			}
			// The default's ten rounds are fewer with fewer samples.
			if !cmd.Flags().Changed("rounds") {
				rounds = min(rounds, samples)
			}
			if rounds < 1 || rounds > samples {
				return usageError{fmt.Errorf("--rounds %d: want 1 to --samples (%d)", rounds, samples)}
			}
			path := out
			if path == "" {
				var err error
				if path, err = calibrate.DefaultPath(); err != nil {
					return usageError{fmt.Errorf("no configuration directory to write the profile into (%w): give -o FILE", err)}
				}
			}
			ctx, stop := interruptible()
			defer stop()
			p, err := calibrate.Measure(ctx, calibrate.Options{Samples: samples, Rounds: rounds})
			if err != nil {
				return runError{err}
			}
			if err := p.WriteText(stdout); err != nil {
				return err
			}
			if err := p.Write(path); err != nil {
				return runError{fmt.Errorf("writing the profile: %w", err)}
			}
			use := "--costs " + path + " uses it"
			if def, err := calibrate.DefaultPath(); err == nil && def == path {
				use = "verify uses it by default, --costs " + path + " the other commands"
			}
			_, err = fmt.Fprintf(stdout, "wrote %s: %s\n", path, use)
			return err
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the profile to this file (default: costs.json in schedlab's configuration folder)")
	cmd.Flags().IntVar(&samples, "samples", calibrate.DefaultSamples, "how many times to take each figure")
	cmd.Flags().IntVar(&rounds, "rounds", calibrate.DefaultRounds, "take the figures in turn this many times over, each time with its share of the samples, so that each is of the whole calibration and not of one moment in it (1: each all at once)")
	return cmd
}
