// Source: golang.org/x/sync/semaphore, Example (WorkerPool): at most
// GOMAXPROCS goroutines compute Collatz steps at a time.
package main

import (
	"context"
	"fmt"
	"log"
	"runtime"

	"golang.org/x/sync/semaphore"
)

func main() {
	ctx := context.TODO()

	var (
		maxWorkers = runtime.GOMAXPROCS(0)
		sem        = semaphore.NewWeighted(int64(maxWorkers))
		out        = make([]int, 32)
	)

	// Compute the output using up to maxWorkers goroutines at a time.
	for i := range out {
		// When maxWorkers goroutines are in flight, Acquire blocks until one of the
		// workers finishes.
		if err := sem.Acquire(ctx, 1); err != nil {
			log.Printf("Failed to acquire semaphore: %v", err)
			break
		}

		go func(i int) {
			defer sem.Release(1)
			out[i] = collatzSteps(i + 1)
		}(i)
	}

	// Acquire all of the tokens to wait for any remaining workers to finish.
	//
	// If you are already waiting for the workers, you can avoid this call (and
	// return a nil error) by using errgroup.Group's SetLimit method.
	if err := sem.Acquire(ctx, int64(maxWorkers)); err != nil {
		log.Printf("Failed to acquire semaphore: %v", err)
	}

	fmt.Println(out)
}

// collatzSteps computes the number of steps to reach 1 under the Collatz
// conjecture. (See https://en.wikipedia.org/wiki/Collatz_conjecture.)
func collatzSteps(n int) (steps int) {
	if n <= 0 {
		panic("nonpositive input")
	}

	for ; n > 1; steps++ {
		if steps < 0 {
			panic("too many steps")
		}

		if n%2 == 0 {
			n /= 2
			continue
		}

		const maxInt = int(^uint(0) >> 1)
		if n > (maxInt-1)/3 {
			panic("overflow")
		}
		n = 3*n + 1
	}

	return steps
}

// What the front end reads:
//
// want:
// procs: 2
// sems:
//   sem: 2
// main:
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 2ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 12ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 3ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 8ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 13ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 27ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 5ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 32ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 10ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 23ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 15ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 15ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 28ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 28ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 7ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 20ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 33ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 33ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 12ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 12ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 25ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 25ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 17ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 38ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 17ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 185ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 30ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 30ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 30ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 177ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 1}
//   - go:
//       count: 1
//       do:
//         - cpu: 8ns
//         - release: {sem: sem, n: 1}
//   - acquire: {sem: sem, n: 2}
//   - print: "[0 1 7 2 5 8 16 3 19 6 14 9 9 17 17 4 12 20 20 7 7 15 15 10 23 10 111 18 18 18 106 5]"
