//go:build !linux

// Command vcpupack measures Linux's placement of a woken thread; see
// main.go. Elsewhere it says so and exits.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "vcpupack: measures Linux's scheduler, and runs on Linux only")
	os.Exit(2)
}
