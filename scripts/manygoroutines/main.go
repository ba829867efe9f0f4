// Command manygoroutines writes the runtime trace of a program that
// creates many short goroutines, as go test -trace of a busy test does:
// the trace issue 22 measured schedlab trace's interactive view on.
//
//	go run ./scripts/manygoroutines -o many.trace            # 700k goroutines, ~16 MB
//	/usr/bin/time -v schedlab trace many.trace               # in a terminal: end, home, q
//
// Goroutines come in batches of a thousand; half of each batch blocks on
// a channel until the batch's sender wakes it, so that each goroutine has
// four to six events (created, started, blocked, woken, started, exited),
// about 3.2M events for 700k goroutines.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/trace"
	"sync"
)

func main() {
	n := flag.Int("n", 700_000, "goroutines to create")
	out := flag.String("o", "many.trace", "the trace file to write")
	flag.Parse()
	if err := run(*out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "manygoroutines:", err)
		os.Exit(1)
	}
}

func run(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := traced(f, n); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// traced runs n goroutines under runtime/trace, writing the trace to w.
func traced(w io.Writer, n int) error {
	if err := trace.Start(w); err != nil {
		return err
	}
	defer trace.Stop()
	const batch = 1000
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		sum int
	)
	for i := 0; i < n; i += batch {
		size := min(batch, n-i)
		wake := make(chan int)
		for j := range size {
			wg.Go(func() {
				v := j
				if j%2 == 0 {
					v += <-wake
				}
				mu.Lock()
				sum += v
				mu.Unlock()
			})
		}
		for j := range (size + 1) / 2 {
			wake <- j
		}
		wg.Wait()
	}
	return nil
}
