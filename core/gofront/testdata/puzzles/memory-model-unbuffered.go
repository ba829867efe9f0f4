// Source: The Go Memory Model (go.dev/ref/mem), "Channel communication":
// a receive from an unbuffered channel is synchronized before the send
// completes; with a buffered c the print would not be guaranteed.
package main

var c = make(chan int)
var a string

func f() {
	a = "hello, world"
	<-c
}

func main() {
	go f()
	c <- 0
	print(a)
}

// What the front end reads:
//
// want:
// procs: 2
// chans:
//   c: 0
// main:
//   - go:
//       count: 1
//       do:
//         - cpu: 2ns
//         - recv: c
//   - send: c
//   - print: "hello, world"
