// Source: Go by Example, "Channel Synchronization"
// (gobyexample.com/channel-synchronization), by Mark McGranaghan and Eli
// Bendersky: main blocks on a receive until the worker goroutine, after
// its second of work, sends on done; without the receive the program
// would end before the worker started.
package main

import (
	"fmt"
	"time"
)

func worker(done chan bool) {
	fmt.Print("working...")
	time.Sleep(time.Second)
	fmt.Println("done")

	done <- true
}

func main() {

	done := make(chan bool, 1)
	go worker(done)

	<-done
}

// What the front end reads:
//
// want:
// procs: 2
// chans:
//   done: 1
// main:
//   - go:
//       count: 1
//       do:
//         - print: "working..."
//         - sleep: 1s
//         - print: "done"
//         - send: done
//   - recv: done
