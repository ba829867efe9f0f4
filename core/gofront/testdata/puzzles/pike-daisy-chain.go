// Source: Rob Pike, "Go Concurrency Patterns" (Google I/O 2012), the
// daisy chain: 10000 goroutines, each passing a number one link to the
// left.
package main

import "fmt"

func f(left, right chan int) {
	left <- 1 + <-right
}

func main() {
	const n = 10000
	leftmost := make(chan int)
	right := leftmost
	left := leftmost
	for i := 0; i < n; i++ {
		right = make(chan int)
		go f(left, right)
		left = right
	}
	go func(c chan int) { c <- 1 }(right)
	fmt.Println(<-leftmost)
}

// What the front end says today:
//
// want error: 23:14: a printed value that depends on a value received from channel leftmost (main.go:23:14) cannot be evaluated
