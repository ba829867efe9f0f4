// Source: the Go FAQ (go.dev/doc/faq), "What happens with closures
// running as goroutines?": three goroutines started in a loop over a
// slice each print their value and signal done. Since Go 1.22 each
// iteration has its own v, so it prints a, b and c, in an order the
// scheduler decides (the last started sits in runnext).
package main

import "fmt"

func main() {
	done := make(chan bool)

	values := []string{"a", "b", "c"}
	for _, v := range values {
		go func() {
			fmt.Println(v)
			done <- true
		}()
	}

	// wait for all goroutines to complete before exiting
	for _ = range values {
		<-done
	}
}

// What the front end reads:
//
// want:
// procs: 2
// chans:
//   done: 0
// main:
//   - go:
//       count: 1
//       do:
//         - print: "a"
//         - send: done
//   - go:
//       count: 1
//       do:
//         - print: "b"
//         - send: done
//   - go:
//       count: 1
//       do:
//         - print: "c"
//         - send: done
//   - recv: done
//   - recv: done
//   - recv: done
