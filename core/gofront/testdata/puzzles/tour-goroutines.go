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

// What the front end says today:
//
// want error: 12:3: fmt.Println is not modelled yet (a print action) (issue 25)
