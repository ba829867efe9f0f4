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

// What the front end says today:
//
// want error: 23:3: sync.WaitGroup is not modelled yet (issue 24)
// want error: 26:10: sync.WaitGroup is not modelled yet (issue 24)
// want error: 31:2: sync.WaitGroup is not modelled yet (issue 24)
