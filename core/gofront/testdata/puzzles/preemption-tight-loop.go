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

// What the front end says today:
//
// want error: 16:3: a loop that never ends (for {}) is not modelled yet (issue 25)
// want error: 20:2: fmt.Println is not modelled yet (a print action) (issue 25)
