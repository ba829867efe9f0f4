package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/quiz"
)

func newListCmd(stdout io.Writer) *cobra.Command {
	var policies, facts bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the built-in scenarios, the what-if policies, or the facts a question can ask",
		Example: `  schedlab list
  schedlab list --policies
  schedlab list --facts`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("list takes no arguments; to see one scenario, run: schedlab run %s", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case policies && facts:
				return usageError{fmt.Errorf("list one thing at a time: --policies or --facts")}
			case policies:
				for _, p := range gmp.Policies() {
					fmt.Fprintf(stdout, "%s\n%s\n", p.Name, wrap(p.Doc, "    ", 76))
				}
				fmt.Fprintln(stdout, "\nJoin several with +, e.g. --policy no-steal+no-preempt; in a file, policy: no-steal.")
				return nil
			case facts:
				fmt.Fprintln(stdout, "A question in a scenario (ask:) names the fact that answers it, e.g. answer: {next-on: P1}:")
				for _, f := range quiz.FactNames() {
					fmt.Fprintf(stdout, "  %s\n", f)
				}
				return nil
			}
			all, err := scenarios.Builtins()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tPROCS\tSUMMARY")
			for _, sc := range all {
				fmt.Fprintf(tw, "%s\t%d\t%s\n", sc.Name, sc.Procs, sc.Summary)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&policies, "policies", false, "list the what-if schedulers --policy and --policies take")
	cmd.Flags().BoolVar(&facts, "facts", false, "list the facts a scenario's questions (ask:) can name")
	return cmd
}

// wrap breaks text into lines of at most width, each with indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line)
	return b.String()
}
