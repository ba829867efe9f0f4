// Source: The Go Memory Model (go.dev/ref/mem), "Channel communication":
// a send on a buffered channel is synchronized before the receive
// completes, so this program is guaranteed to print "hello, world".
package main

var c = make(chan int, 10)
var a string

func f() {
	a = "hello, world"
	c <- 0
}

func main() {
	go f()
	<-c
	print(a)
}

// What the front end reads:
//
// want:
// procs: 2
// chans:
//   c: 10
// main:
//   - go:
//       count: 1
//       do:
//         - cpu: 2ns
//         - send: c
//   - recv: c
//   - print: "hello, world"
