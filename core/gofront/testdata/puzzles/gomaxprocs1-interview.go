// Source: a Go interview question widely circulated since 2017 ("what
// does this print with GOMAXPROCS(1)?"): B: 9 first (it sits in
// runnext), then the rest in creation order.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

func main() {
	runtime.GOMAXPROCS(1)
	wg := sync.WaitGroup{}
	wg.Add(20)
	for i := 0; i < 10; i++ {
		go func() {
			fmt.Println("A: ", i)
			wg.Done()
		}()
	}
	for i := 0; i < 10; i++ {
		go func(i int) {
			fmt.Println("B: ", i)
			wg.Done()
		}(i)
	}
	wg.Wait()
}

// What the front end gives:
//
// want:
// procs: 1
// waitgroups: [wg]
// main:
//   - add: {wg: wg, n: 20}
//   - go:
//       count: 1
//       do:
//         - print: "A:  0"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  1"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  2"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  3"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  4"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  5"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  6"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  7"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  8"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "A:  9"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  0"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  1"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  2"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  3"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  4"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  5"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  6"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  7"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  8"
//         - done: wg
//   - go:
//       count: 1
//       do:
//         - print: "B:  9"
//         - done: wg
//   - wait: wg
