// Source: Go by Example, "Timeouts" (gobyexample.com/timeouts), by Mark
// McGranaghan and Eli Bendersky: the first select times out after a
// second ("timeout 1") before the two-second result arrives; the second
// waits three seconds and gets "result 2".
package main

import (
	"fmt"
	"time"
)

func main() {

	c1 := make(chan string, 1)
	go func() {
		time.Sleep(2 * time.Second)
		c1 <- "result 1"
	}()

	select {
	case res := <-c1:
		fmt.Println(res)
	case <-time.After(1 * time.Second):
		fmt.Println("timeout 1")
	}

	c2 := make(chan string, 1)
	go func() {
		time.Sleep(2 * time.Second)
		c2 <- "result 2"
	}()
	select {
	case res := <-c2:
		fmt.Println(res)
	case <-time.After(3 * time.Second):
		fmt.Println("timeout 2")
	}
}

// What the front end says today (it prints the value received in a
// select case, which the front end does not know):
//
// want error: 22:15: a printed value that depends on a value received in the select case at main.go:21:2 cannot be evaluated
// want error: 34:15: a printed value that depends on a value received in the select case at main.go:33:2 cannot be evaluated
