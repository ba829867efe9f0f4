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

// What the front end says today:
//
// want error: 17:2: print is not modelled yet (a print action) (issue 25)
