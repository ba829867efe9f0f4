// Source: Go by Example, "Worker Pools" (gobyexample.com/worker-pools):
// three workers range over one jobs channel.
package main

import (
	"fmt"
	"time"
)

func worker(id int, jobs <-chan int, results chan<- int) {
	for j := range jobs {
		fmt.Println("worker", id, "started  job", j)
		time.Sleep(time.Second)
		fmt.Println("worker", id, "finished job", j)
		results <- j * 2
	}
}

func main() {

	const numJobs = 5
	jobs := make(chan int, numJobs)
	results := make(chan int, numJobs)

	for w := 1; w <= 3; w++ {
		go worker(w, jobs, results)
	}

	for j := 1; j <= numJobs; j++ {
		jobs <- j
	}
	close(jobs)

	for a := 1; a <= numJobs; a++ {
		<-results
	}
}

// What the front end says today:
//
// want error: 11:2: how the values of channel jobs split among its receivers is decided as the program runs
// want error: 12:45: a printed value that depends on a value received from channel jobs (main.go:11:2) cannot be evaluated
// want error: 14:45: a printed value that depends on a value received from channel jobs (main.go:11:2) cannot be evaluated
