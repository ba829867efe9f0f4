// Source: The Go Memory Model (go.dev/ref/mem), "Incorrect
// synchronization": busy waiting on a flag another goroutine sets. The
// document warns that main may never see done set, and if it does, may
// not see a; the Memory Model prints with the print builtin.
package main

var a string
var done bool

func setup() {
	a = "hello, world"
	done = true
}

func main() {
	go setup()
	for !done {
	}
	print(a)
}

// What the front end says today:
//
// want error: 17:2: a loop on a flag another goroutine sets is not modelled yet (issue 25)
// want error: 19:2: print is not modelled yet (a print action) (issue 25)
