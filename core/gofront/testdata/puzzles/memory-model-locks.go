// Source: The Go Memory Model (go.dev/ref/mem), "Locks": the n-th call
// of l.Unlock() is synchronized before the (n+1)-th l.Lock() returns, so
// this program is guaranteed to print "hello, world".
package main

import "sync"

var l sync.Mutex
var a string

func f() {
	a = "hello, world"
	l.Unlock()
}

func main() {
	l.Lock()
	go f()
	l.Lock()
	print(a)
}

// What the front end reads:
//
// want:
// procs: 2
// mutexes: [l]
// main:
//   - lock: l
//   - go:
//       count: 1
//       do:
//         - cpu: 2ns
//         - unlock: l
//   - lock: l
//   - print: "hello, world"
