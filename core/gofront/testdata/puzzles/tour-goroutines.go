// Source: A Tour of Go, "Goroutines" (go.dev/tour/concurrency/1).
package main

import (
	"fmt"
	"time"
)

func say(s string) {
	for i := 0; i < 5; i++ {
		time.Sleep(100 * time.Millisecond)
		fmt.Println(s)
	}
}

func main() {
	go say("world")
	say("hello")
}

// What the front end reads:
//
// want:
// procs: 2
// main:
//   - go:
//       count: 1
//       do:
//         - loop:
//             times: 5
//             do:
//               - sleep: 100ms
//               - print: "world"
//   - loop:
//       times: 5
//       do:
//         - sleep: 100ms
//         - print: "hello"
