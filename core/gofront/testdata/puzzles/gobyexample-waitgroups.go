// Source: Go by Example, "WaitGroups" (gobyexample.com/waitgroups):
// a WaitGroup fan-out of five workers.
package main

import (
	"fmt"
	"sync"
	"time"
)

func worker(id int) {
	fmt.Printf("Worker %d starting\n", id)

	time.Sleep(time.Second)
	fmt.Printf("Worker %d done\n", id)
}

func main() {

	var wg sync.WaitGroup

	for i := 1; i <= 5; i++ {
		wg.Add(1)

		go func() {
			defer wg.Done()
			worker(i)
		}()
	}

	wg.Wait()

}

// What the front end gives:
//
// want:
// procs: 2
// waitgroups: [wg]
// main:
//   - add: {wg: wg, n: 1}
//   - go:
//       count: 1
//       do:
//         - print: "Worker 1 starting"
//         - sleep: 1s
//         - print: "Worker 1 done"
//         - done: wg
//   - add: {wg: wg, n: 1}
//   - go:
//       count: 1
//       do:
//         - print: "Worker 2 starting"
//         - sleep: 1s
//         - print: "Worker 2 done"
//         - done: wg
//   - add: {wg: wg, n: 1}
//   - go:
//       count: 1
//       do:
//         - print: "Worker 3 starting"
//         - sleep: 1s
//         - print: "Worker 3 done"
//         - done: wg
//   - add: {wg: wg, n: 1}
//   - go:
//       count: 1
//       do:
//         - print: "Worker 4 starting"
//         - sleep: 1s
//         - print: "Worker 4 done"
//         - done: wg
//   - add: {wg: wg, n: 1}
//   - go:
//       count: 1
//       do:
//         - print: "Worker 5 starting"
//         - sleep: 1s
//         - print: "Worker 5 done"
//         - done: wg
//   - wait: wg
