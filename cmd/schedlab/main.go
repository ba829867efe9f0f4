// Command schedlab shows how the Go scheduler and goroutine pools work:
// a step-by-step UI by default, and headless commands for traces, checks,
// comparisons and benchmarks.
package main

import (
	"os"
)

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}
