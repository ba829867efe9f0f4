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

// What the front end reads:
//
// want:
// procs: 2
// main:
//   - go:
//       count: 1
//       do:
//         - cpu: 2ns
//         - set: done
//   - loop:
//       until: done
//   - print: "hello, world"
