package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/teach/exercise"
)

func newExerciseCmd(stdout io.Writer) *cobra.Command {
	var (
		seed, format    string
		answers, asYAML bool
	)
	cmd := &cobra.Command{
		Use:   "exercise TOPIC",
		Short: "Print a generated exercise with questions, and its answer key",
		Long: `exercise draws a small scenario on one topic from a seed, runs it, and asks
numbered questions about the run. The answers are read off the model's run,
each with the sentences of the events that settle it (--answers). The same
topic and seed always give the same exercise, so a class can share one.

Topics: ` + strings.Join(exercise.TopicNames(), ", ") + `.
With no topic, the topics are listed.`,
		Example: `  schedlab exercise steal --seed 3
  schedlab exercise steal --seed 3 --answers
  schedlab exercise pool --seed 5 --format md > handout.md
  schedlab exercise steal --seed 3 --scenario > steal-3.yaml && schedlab tui steal-3.yaml`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return exercise.TopicNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "TOPIC\tWHAT IT ASKS ABOUT")
				for _, t := range exercise.Topics() {
					fmt.Fprintf(tw, "%s\t%s\n", t.Name, t.Title)
				}
				return tw.Flush()
			}
			f, err := exercise.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			if asYAML && (answers || cmd.Flags().Changed("format")) {
				return usageError{fmt.Errorf("--scenario prints only the scenario file; it takes neither --answers nor --format")}
			}
			s := uint64(1)
			if cmd.Flags().Changed("seed") {
				if s, err = parseSeed(seed); err != nil {
					return err
				}
			}
			x, err := exercise.Generate(args[0], s)
			if err != nil {
				if exercise.Lookup(args[0]) == nil {
					return usageError{err}
				}
				return err
			}
			if asYAML {
				_, err := io.WriteString(stdout, x.YAML)
				return err
			}
			return x.Write(stdout, f, answers)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&seed, "seed", "1", "seed the exercise is drawn from")
	fl.BoolVar(&answers, "answers", false, "print the worked answers too")
	fl.StringVar(&format, "format", "text", "output format: text or md (a handout)")
	fl.BoolVar(&asYAML, "scenario", false, "print only the scenario file, to open in the UI")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "md"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
