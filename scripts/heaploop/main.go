// Command heaploop is the yardstick the model's speed is measured
// against (scripts/bench-run.sh, scripts/bench-model.sh): about the least work a
// discrete-event loop shaped like the model's can do per event. K wake-ups
// wait in a 4-ary heap ordered by time; each step takes the earliest,
// updates a few fields of the next of N 128-byte entities in turn (a run
// queue hands goroutines out in about the order they were made, and a G
// is 128 bytes), and schedules its next wake-up a random delay later. It
// prints the CPU time per step of the loop alone, setup left out.
//
//	go run ./scripts/heaploop                  # N 300,000, K 150, 6M steps
//	go run ./scripts/heaploop -n 100000 -k 70
//
// Ratios against it are what the speed figures give: both sides measured
// in the same run, interleaved, on the same machine.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/schedlab/schedlab/internal/cputime"
)

// entity stands for a goroutine: 128 bytes, a few of them touched a step.
type entity struct {
	state  uint32
	steps  uint32
	last   int64
	budget int64
	_      [104]byte
}

// wakeup is a pending event: when, and for which entity.
type wakeup struct {
	at  int64
	who int32
}

// queue is a 4-ary min-heap of wake-ups by time.
type queue []wakeup

func (q *queue) push(w wakeup) {
	*q = append(*q, w)
	h := *q
	i := len(h) - 1
	for i > 0 {
		up := (i - 1) / 4
		if h[up].at <= w.at {
			break
		}
		h[i] = h[up]
		i = up
	}
	h[i] = w
}

// replaceMin puts w where the earliest wake-up was and sifts it down: a
// pop and a push in one pass, as the model's agenda does.
func (q queue) replaceMin(w wakeup) {
	i := 0
	for {
		first := 4*i + 1
		if first >= len(q) {
			break
		}
		min := first
		for j := first + 1; j < first+4 && j < len(q); j++ {
			if q[j].at < q[min].at {
				min = j
			}
		}
		if q[min].at >= w.at {
			break
		}
		q[i] = q[min]
		i = min
	}
	q[i] = w
}

// rng is xorshift64*: cheap, seeded, the same sequence every run.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 0x2545f4914f6cdd1d
}

func main() {
	n := flag.Int("n", 300_000, "entities")
	k := flag.Int("k", 150, "wake-ups pending in the heap")
	steps := flag.Int("steps", 6_000_000, "events to process")
	mean := flag.Int64("mean", 1_000_000, "mean delay between an entity's wake-ups, in ns of simulated time")
	flag.Parse()
	if *n < 1 || *k < 1 || *steps < 1 || *mean < 1 {
		fmt.Fprintln(os.Stderr, "heaploop: -n, -k, -steps and -mean must be positive")
		os.Exit(2)
	}
	fmt.Println(run(*n, *k, *steps, *mean))
}

// run sets up and runs the loop, and returns its line of output.
func run(n, k, steps int, mean int64) string {
	runtime.LockOSThread()
	ents := make([]entity, n)
	r := rng(0x9e3779b97f4a7c15)
	q := make(queue, 0, k)
	for i := range k {
		q.push(wakeup{at: int64(r.next() % uint64(2*mean)), who: int32(i % n)})
	}
	runtime.GC()
	cpu0, ok := cputime.Process()
	next := 0
	for range steps {
		w := q[0]
		e := &ents[next]
		if next++; next == n {
			next = 0
		}
		e.state ^= 1
		e.steps++
		e.budget -= w.at - e.last
		e.last = w.at
		q.replaceMin(wakeup{at: w.at + int64(r.next()%uint64(2*mean)), who: w.who})
	}
	cpu1, _ := cputime.Process()
	var sum uint64
	for i := range ents {
		sum += uint64(ents[i].steps)
	}
	if sum != uint64(steps) {
		panic("heaploop: steps lost")
	}
	line := fmt.Sprintf("heaploop n=%d k=%d steps=%d", n, k, steps)
	if !ok {
		return line + " cpu_ns_per_step=n/a"
	}
	return fmt.Sprintf("%s cpu_ns_per_step=%.1f", line, float64((cpu1-cpu0).Nanoseconds())/float64(steps))
}
