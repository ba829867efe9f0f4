// Source: the tight loop of golang/go#10958 ("runtime: tight loops should
// be preemptible") as the Go 1.14 asynchronous preemption write-ups show
// it: before Go 1.14 this hangs; since, sysmon preempts the loop and main
// prints OK.
package main

import (
	"fmt"
	"runtime"
	"time"
)

func main() {
	runtime.GOMAXPROCS(1)
	go func() {
		for {
		}
	}()
	time.Sleep(time.Millisecond)
	fmt.Println("OK")
}

// What the front end reads:
//
// want:
// procs: 1
// main:
//   - go:
//       count: 1
//       do:
//         - loop: forever
//   - sleep: 1ms
//   - print: "OK"
