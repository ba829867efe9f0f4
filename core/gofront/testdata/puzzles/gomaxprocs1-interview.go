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

// What the front end says today:
//
// want error: 15:2: sync.WaitGroup is not modelled yet (issue 24)
// want error: 19:4: sync.WaitGroup is not modelled yet (issue 24)
// want error: 25:4: sync.WaitGroup is not modelled yet (issue 24)
// want error: 28:2: sync.WaitGroup is not modelled yet (issue 24)
