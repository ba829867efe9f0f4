package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/scenarios"
)

func newListCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the built-in scenarios",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("list takes no arguments; to see one scenario, run: schedlab run %s", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
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
}
