// Source: Sameer Ajmani, "Advanced Go Concurrency Patterns" (Google I/O
// 2013), the ping-pong table. Since Go 1.5's runnext, pong prints first.
package main

import (
	"fmt"
	"time"
)

type Ball struct{ hits int }

func main() {
	table := make(chan *Ball)
	go player("ping", table)
	go player("pong", table)

	table <- new(Ball) // game on; toss the ball
	time.Sleep(1 * time.Second)
	<-table // game over; grab the ball
}

func player(name string, table chan *Ball) {
	for {
		ball := <-table
		ball.hits++
		fmt.Println(name, ball.hits)
		time.Sleep(100 * time.Millisecond)
		table <- ball
	}
}

// What the front end says today:
//
// want error: 26:21: a printed value that depends on the field hits (fields are not followed) cannot be evaluated
