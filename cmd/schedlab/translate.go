package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/core/gofront"
	"github.com/schedlab/schedlab/core/scenarios"
)

func newTranslateCmd(stdout io.Writer) *cobra.Command {
	var (
		rate   float64
		output string
	)
	cmd := &cobra.Command{
		Use:   "translate FILE.go",
		Short: "Print the YAML scenario a Go program gives",
		Long: `translate reads a Go program (a single-file package main in the subset
docs/go-subset.md lists) and prints the scenario it derived, as YAML that
reads back into the same program: a start for a teacher who wants notes,
questions or a change the Go cannot say. Each action's comment is the Go
line it comes from. A construct outside the subset is reported at its line,
every one of them, and nothing is printed.

Busy loops cost their iterations at the cpu rate (busy-loop iterations per
microsecond): --cpu-rate, else the file's //schedlab:cpu-rate, else 600.`,
		Example: `  schedlab translate main.go
  schedlab translate main.go -o main.yaml && schedlab tui main.yaml
  schedlab translate main.go --cpu-rate 300`,
		Args: exactArgs("a Go program (FILE.go, or - for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := gofront.Options{}
			if cmd.Flags().Changed("cpu-rate") {
				if !(rate > 0) || rate > 1e9 || math.IsInf(rate, 0) {
					return usageError{fmt.Errorf("--cpu-rate %v: want busy-loop iterations per microsecond, more than 0 (the default is %d)", rate, gofront.DefaultCPURate)}
				}
				opts.CPURate = rate
			}
			sc, err := loadGo(args[0], opts)
			if err != nil {
				return err
			}
			text := gofront.YAML(sc)
			if output == "" {
				_, err := stdout.Write(text)
				return err
			}
			if err := os.WriteFile(output, text, 0o644); err != nil {
				return usageError{fmt.Errorf("-o: %w", err)}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.Float64Var(&rate, "cpu-rate", gofront.DefaultCPURate, "busy-loop iterations per microsecond, over the file's //schedlab:cpu-rate")
	fl.StringVarP(&output, "output", "o", "", "write the YAML to this file instead of standard output")
	return cmd
}

// loadGo reads the Go program translate names: a .go file, or standard
// input.
func loadGo(name string, opts gofront.Options) (*scenarios.Scenario, error) {
	if name != "-" && !isGoFile(name) {
		return nil, usageError{fmt.Errorf("%s: translate reads a Go program (FILE.go); a scenario file is already YAML", name)}
	}
	if name == "-" {
		data, err := io.ReadAll(io.LimitReader(stdin, scenarios.MaxFileSize+1))
		if err != nil {
			return nil, usageError{err}
		}
		if !gofront.IsGoSource(data) {
			return nil, usageError{errors.New("standard input is not a Go program: it does not start with a package clause")}
		}
		sc, err := gofront.Translate(scenarios.StdinName, data, opts)
		if err != nil {
			return nil, usageError{err}
		}
		return sc, nil
	}
	sc, err := gofront.LoadFrom(name, nil, opts)
	if err != nil {
		return nil, usageError{err}
	}
	return sc, nil
}

func isGoFile(name string) bool { return len(name) > 3 && name[len(name)-3:] == ".go" }
