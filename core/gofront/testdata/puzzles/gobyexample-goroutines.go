// Source: Go by Example, "Goroutines" (gobyexample.com/goroutines), by
// Mark McGranaghan and Eli Bendersky: f("direct") runs to the end first;
// the two goroutines it then starts print in an order of the scheduler's
// choosing (the site's sample output shows "going" before the three
// "goroutine" lines) while main sleeps a second, then "done".
package main

import (
	"fmt"
	"time"
)

func f(from string) {
	for i := 0; i < 3; i++ {
		fmt.Println(from, ":", i)
	}
}

func main() {

	f("direct")

	go f("goroutine")

	go func(msg string) {
		fmt.Println(msg)
	}("going")

	time.Sleep(time.Second)
	fmt.Println("done")
}

// What the front end reads:
//
// want:
// procs: 2
// main:
//   - print: "direct : 0"
//   - print: "direct : 1"
//   - print: "direct : 2"
//   - go:
//       count: 1
//       do:
//         - print: "goroutine : 0"
//         - print: "goroutine : 1"
//         - print: "goroutine : 2"
//   - go:
//       count: 1
//       do:
//         - print: "going"
//   - sleep: 1s
//   - print: "done"
