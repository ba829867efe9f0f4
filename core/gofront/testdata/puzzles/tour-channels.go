// Source: A Tour of Go, "Channels" (go.dev/tour/concurrency/2): two
// goroutines sum the halves of a slice and send on one unbuffered
// channel; the tour's output, "-5 17 12", shows the second goroutine's
// sum received first.
package main

import "fmt"

func sum(s []int, c chan int) {
	sum := 0
	for _, v := range s {
		sum += v
	}
	c <- sum // send sum to c
}

func main() {
	s := []int{7, 2, 8, -9, 4, 0}

	c := make(chan int)
	go sum(s[:len(s)/2], c)
	go sum(s[len(s)/2:], c)
	x, y := <-c, <-c // receive from c

	fmt.Println(x, y, x+y)
}

// What the front end says today (it prints the values received):
//
// want error: 25:14: a printed value that depends on a value received from channel c (main.go:23:10) cannot be evaluated
