// Source: the same example as many tutorials give it with
// runtime.Gosched in place of time.Sleep, to show two goroutines taking
// turns on one thread (the Tour's early text had this form).
package main

import (
	"fmt"
	"runtime"
)

func say(s string) {
	for i := 0; i < 5; i++ {
		runtime.Gosched()
		fmt.Println(s)
	}
}

func main() {
	go say("world")
	say("hello")
}

// What the front end reads:
//
// want:
// procs: 2
// main:
//   - go:
//       count: 1
//       do:
//         - loop:
//             times: 5
//             do:
//               - gosched
//               - print: "world"
//   - loop:
//       times: 5
//       do:
//         - gosched
//         - print: "hello"
