package exercise

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Topics about the libraries a scenario can use: package pool and
// x/sync/semaphore.

var topicPool = &Topic{
	Name:  "pool",
	Title: "a pool reuses idle workers and makes submitters wait",
	scenario: func(r *sim.Rand) string {
		size := between(r, 2, 5)
		n := between(r, size+1, 3*size)
		procs := between(r, 1, 2)
		return fmt.Sprintf(`title: pool
summary: "Main submits %d tasks of 1ms to a pool of %d workers on %d P(s)."
procs: %d
seed: %d
pools: {w: {size: %d}}
main:
  - submit: {pool: w, count: %d, do: [{cpu: 1ms}]}
  - wait: children
`, n, size, procs, procs, between(r, 1, 99), size, n)
	},
	ask: func(x *run, r *sim.Rand) []Question {
		size := x.sc.Pools[0].Size
		dispatch := func(e *gmp.Event) bool { return e.Kind == gmp.KindPoolDispatch }
		tasks := x.count(dispatch)
		starts := x.all(func(e *gmp.Event) bool { return e.Kind == gmp.KindPoolDispatch && e.Rule == gmp.RulePoolDispatchNew })
		waits := x.all(func(e *gmp.Event) bool { return e.Kind == gmp.KindPoolBlock })
		started, waited := len(starts), len(waits)
		lastTask := -1
		for i := range x.events {
			if dispatch(&x.events[i]) && x.events[i].Task() == tasks {
				lastTask = i
			}
		}
		if lastTask < 0 || started == 0 {
			return nil
		}
		var workers []string
		for w := 1; w <= size; w++ {
			workers = append(workers, "w"+strconv.Itoa(w))
		}
		qs := []Question{
			x.question(r, fmt.Sprintf("Main submits %d tasks to a pool of %d. How many workers does the pool start?", tasks, size),
				strconv.Itoa(started), ints(started-1, started+1, tasks, 1), starts...),
			x.question(r, fmt.Sprintf("Which worker runs the last task (task %d)?", tasks),
				"w"+strconv.Itoa(x.events[lastTask].Worker()), workers, lastTask),
		}
		if waited > 0 {
			qs = append(qs, x.question(r, "How many times does main have to wait for a worker?",
				strconv.Itoa(waited), ints(waited-1, waited+1, tasks-size, 0), waits...))
		}
		return qs
	},
}

var topicSemaphore = &Topic{
	Name:  "semaphore",
	Title: "a weighted semaphore serves its waiters in order",
	scenario: func(r *sim.Rand) string {
		w := between(r, 3, 6)
		k := between(r, 3, 5)
		s := fmt.Sprintf(`title: semaphore
summary: "%d goroutines take parts of a semaphore of weight %d for 1ms each."
procs: %d
seed: %d
sems: {s: %d}
main:
`, k, w, between(r, 1, 2), between(r, 1, 99), w)
		for range k {
			n := between(r, 1, w)
			s += fmt.Sprintf("  - go: {do: [{acquire: {sem: s, n: %d}}, {cpu: 1ms}, {release: {sem: s, n: %d}}]}\n", n, n)
		}
		return s + "  - wait: children\n"
	},
	ask: func(x *run, r *sim.Rand) []Question {
		k := x.count(func(e *gmp.Event) bool { return e.Kind == gmp.KindGoCreate })
		all := gnames(2, gmp.GID(k+1))
		wait := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindSemAcquire && e.Rule == gmp.RuleSemWait })
		if wait < 0 {
			return nil
		}
		woken := x.find(wait, func(e *gmp.Event) bool { return e.Kind == gmp.KindGoUnblock && e.Rule == gmp.RuleReadySem })
		acquired := x.find(0, func(e *gmp.Event) bool { return e.Kind == gmp.KindSemAcquire && e.Rule == gmp.RuleSemAcquire })
		qs := []Question{}
		if acquired >= 0 {
			qs = append(qs, x.question(r, "Which goroutine takes the semaphore first?", gname(x.events[acquired].G), all, acquired))
		}
		qs = append(qs, x.question(r, "Which goroutine is the first to wait for it?", gname(x.events[wait].G), all, wait))
		if woken >= 0 {
			qs = append(qs, x.question(r, "Which waiter is the first to be let through by a release?",
				gname(x.events[woken].G), all, woken))
		}
		return qs
	},
}
