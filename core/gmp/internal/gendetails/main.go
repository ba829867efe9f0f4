// Command gendetails writes core/gmp/details_gen.go from the rule table.
// go generate ./core/gmp runs it in core/gmp's directory.
package main

import (
	"fmt"
	"os"

	"github.com/schedlab/schedlab/core/gmp/internal/rulegen"
)

func main() {
	events, err := os.ReadFile("events.go")
	if err == nil {
		var table, out []byte
		if table, err = os.ReadFile("ruletable.go"); err == nil {
			if out, err = rulegen.Generate(events, table); err == nil {
				err = os.WriteFile("details_gen.go", out, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendetails:", err)
		os.Exit(1)
	}
}
