package exercise

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/teach/quiz"
)

// Topics about goroutines that hand each other work: an unbuffered
// channel's ping-pong, an errgroup's limit, a mutex's line, and a
// WaitGroup's last Done. Each answer is read from the model's run.

// nextStartOn is the first go-start on p after event i, or -1.
func (x *run) nextStartOn(i int, p gmp.PID) int {
	return x.find(i+1, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart && e.P == p })
}

// printed is the lines the run prints, and the events that print them.
func (x *run) printed() ([]string, []int) {
	idx := x.all(func(e *gmp.Event) bool { return e.Kind == gmp.KindPrint })
	lines := make([]string, len(idx))
	for k, i := range idx {
		lines[k] = x.events[i].Text()
	}
	return lines, idx
}

// Ping-pong: main and one goroutine pass a value back and forth over two
// unbuffered channels on one P. A send to a parked receiver readies it
// into the sender's runnext, so it runs as soon as the sender blocks.
var topicPingPong = &Topic{
	Name:  "pingpong",
	Title: "ping-pong on unbuffered channels: the woken receiver runs next",
	scenario: func(r *sim.Rand) string {
		n := between(r, 2, 4)
		return fmt.Sprintf(`title: pingpong
summary: "On one P, main sends on ping and receives on pong %d times, printing ping after each send; G2 receives on ping, prints pong and sends on pong."
procs: 1
seed: %d
chans: {ping: 0, pong: 0}
main:
  - go: {do: [{loop: {times: %d, do: [{recv: ping}, {print: pong}, {send: pong}]}}]}
  - loop: {times: %d, do: [{send: ping}, {print: ping}, {recv: pong}]}
`, n, between(r, 1, 99), n, n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		wakes := x.all(func(e *gmp.Event) bool { return e.Rule == gmp.RuleReadyChan })
		lines, idx := x.printed()
		if len(wakes) < 2 || len(idx) < 2 {
			return nil
		}
		w := wakes[r.Int63n(int64(len(wakes)))]
		e := x.events[w]
		next := x.nextStartOn(w, e.P)
		if next < 0 {
			return nil
		}
		return []Question{
			x.question(r, fmt.Sprintf("At %v, %v's channel operation wakes %v. Which goroutine runs next on %v?", e.T, e.Waker(), e.G, e.P),
				gname(x.events[next].G), []string{"G1", "G2"}, next, w),
			x.question(r, "What does the program print?", quiz.OrderText(lines), reorderings(lines), idx...),
		}
	},
}

// errgroup with SetLimit: Go blocks while every slot is taken, and a
// finishing goroutine's slot wakes the blocked caller.
var topicErrgroup = &Topic{
	Name:  "errgroup",
	Title: "errgroup.SetLimit: Go waits for a slot",
	scenario: func(r *sim.Rand) string {
		limit := between(r, 1, 3)
		n := between(r, limit+1, limit+3)
		return fmt.Sprintf(`title: errgroup
summary: "On one P, main starts %d goroutines of 100us with errgroup.Go under SetLimit(%d), then Waits."
procs: 1
seed: %d
main:
  - group: {limit: %d, count: %d, do: [{cpu: 100us}]}
`, n, limit, between(r, 1, 99), limit, n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		blocks := x.all(func(e *gmp.Event) bool {
			return e.Kind == gmp.KindGoBlock && e.G == 1 && strings.Contains(x.d.Describe(*e), "errgroup.Go")
		})
		slots := x.all(func(e *gmp.Event) bool { return e.Rule == gmp.RuleGroupSlot })
		done := x.find(0, func(e *gmp.Event) bool { return e.Rule == gmp.RuleGroupWaitDone })
		if len(blocks) < 1 || len(slots) < 1 || done < 0 {
			return nil
		}
		n := x.count(func(e *gmp.Event) bool { return e.Rule == gmp.RuleGroupGo })
		k := len(blocks)
		return []Question{
			x.question(r, "How many times does G1 wait in errgroup.Go for a slot?", fmt.Sprint(k), ints(k-1, k+1, n, 0), blocks...),
			x.question(r, "Whose end frees the first slot for G1?", gname(x.events[slots[0]].Waker()), gnames(2, gmp.GID(n+1)), slots[0]),
			x.question(r, "Which goroutine's end returns G1 from errgroup.Wait?", gname(x.events[done].Waker()), gnames(2, gmp.GID(n+1)), done),
		}
	},
}

// Mutex: main holds mu while its goroutines arrive; they spin (on two Ps)
// or queue, and each Unlock wakes the first in line to compete for it.
var topicMutex = &Topic{
	Name:  "mutex",
	Title: "sync.Mutex: who takes the mutex next",
	scenario: func(r *sim.Rand) string {
		k, procs := between(r, 2, 4), between(r, 1, 2)
		return fmt.Sprintf(`title: mutex
summary: "On %d P(s), main starts %d goroutines that each lock mu for 100us, locks it itself for 50us, then waits for them."
procs: %d
seed: %d
mutexes: [mu]
main:
  - go: {count: %d, do: [{lock: mu}, {cpu: 100us}, {unlock: mu}]}
  - lock: mu
  - cpu: 50us
  - unlock: mu
  - wait: children
`, procs, k, procs, between(r, 1, 99), k)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		takes := x.all(func(e *gmp.Event) bool {
			switch e.Rule {
			case gmp.RuleMutexLock, gmp.RuleMutexAcquire, gmp.RuleMutexHandedOff:
				return e.G != 1
			}
			return false
		})
		k := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		unlock := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindMutexUnlock && e.G == 1 })
		// The first question is about main's Unlock: a draw where a
		// goroutine took mu before main did asks nothing clear.
		if len(takes) < 2 || unlock < 0 || takes[0] < unlock {
			return nil
		}
		locks := quiz.Fact{Kind: quiz.FactLocks, MutexName: "mu"}
		first := x.question(r, "G1 unlocks mu. Which goroutine takes mu next?", gname(x.events[takes[0]].G), gnames(2, gmp.GID(k+1)), takes[0])
		first.Fact = locks
		last := x.question(r, "Which goroutine takes mu last?", gname(x.events[takes[len(takes)-1]].G), gnames(2, gmp.GID(k+1)), takes[len(takes)-1])
		last.Fact = locks
		return []Question{first, last}
	},
}

// WaitGroup: main adds k, starts k goroutines that each call Done after
// some work, and waits; the last Done readies main into its P's runnext.
var topicWaitGroup = &Topic{
	Name:  "waitgroup",
	Title: "sync.WaitGroup: the last Done wakes Wait",
	scenario: func(r *sim.Rand) string {
		k, procs := between(r, 2, 4), between(r, 1, 2)
		var b strings.Builder
		fmt.Fprintf(&b, `title: waitgroup
summary: "On %d P(s), main adds %d to wg, starts %d goroutines that each work and call Done, waits, and prints done."
procs: %d
seed: %d
waitgroups: [wg]
main:
  - add: {wg: wg, n: %d}
`, procs, k, k, procs, between(r, 1, 99), k)
		for range k {
			fmt.Fprintf(&b, "  - go: {do: [{cpu: %dms}, {done: wg}]}\n", between(r, 1, 3))
		}
		b.WriteString("  - wait: wg\n  - print: done\n")
		return b.String()
	},
	ask: func(x *run, r *sim.Rand) []Question {
		wake := x.find(0, func(e *gmp.Event) bool { return e.Rule == gmp.RuleReadyWG })
		if wake < 0 {
			return nil
		}
		e := x.events[wake]
		back := x.find(wake+1, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoStart && e.G == 1 })
		next := x.nextStartOn(wake, e.P)
		if back < 0 || next < 0 {
			return nil
		}
		k := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		t := x.events[back].T.Sub(0)
		return []Question{
			x.question(r, "Whose Done brings wg's counter to zero?", gname(e.Waker()), gnames(2, gmp.GID(k+1)), wake),
			x.question(r, fmt.Sprintf("After that Done, which goroutine runs next on %v?", e.P), gname(x.events[next].G), gnames(1, gmp.GID(k+1)), next),
			x.question(r, "When does main return from Wait and run again?", aboutMs(t), msChoices(t, -2e6, -1e6, 1e6, 2e6), back),
		}
	},
}
