//go:build !linux || !(amd64 || arm64)

// Command vcpupack measures Linux's placement of a woken thread; see
// main.go. Elsewhere it says so and exits.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "vcpupack: measures Linux's scheduler, and runs on Linux (amd64, arm64) only")
	os.Exit(2)
}
