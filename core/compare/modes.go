// Package compare runs one workload several ways in the simulated
// scheduler — raw goroutines, a pool, a semaphore, an errgroup — and
// measures what each costs: how long it takes, how many goroutines it
// makes, how long the queues grow, how long goroutines wait to run.
//
// The workload is a scenario whose tasks are submitted to a pool
// (submit: actions). Each mode rewrites those actions and nothing else:
//
//	raw        go: {count, do}: a goroutine per task, no limit
//	pool       submit: as written
//	semaphore  count times: acquire the pool's size, go: {do, then release}
//	errgroup   group: {limit: the pool's size, count, do}
//
// An errgroup waits for its tasks where it stands (errgroup.Wait), while
// the other modes go on and wait at the scenario's wait: children; for a
// burst of tasks followed by a wait the two are the same.
package compare

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/taskmode"
)

// Transform returns prog with its submit: actions rewritten for mode. It
// fails if prog submits nothing, since then every mode is the same.
func Transform(prog *gmp.Program, mode taskmode.Mode) (*gmp.Program, error) {
	if !Submits(prog) {
		return nil, fmt.Errorf("%s submits no tasks to a pool: compare runs the tasks of submit: actions each way, and there are none (to compare what-if schedulers on it, use --policies default,no-steal)", prog.Name)
	}
	out := *prog
	out.Sems = slices.Clone(prog.Sems)
	t := &transformer{prog: &out, pools: prog.Pools, mode: mode, semOf: map[int]int{}}
	out.Main = t.ops(prog.Main, 0)
	if t.err != nil {
		return nil, t.err
	}
	if mode != taskmode.Pool {
		out.Pools = nil // nothing submits to them any more
	}
	return &out, nil
}

// Submits reports whether prog submits tasks to a pool, the tasks the
// modes rewrite.
func Submits(prog *gmp.Program) bool { return submits(prog.Main) }

func submits(ops []gmp.Op) bool {
	for i := range ops {
		if ops[i].Kind == gmp.OpSubmit || submits(ops[i].Body) {
			return true
		}
		for _, c := range ops[i].Cases {
			if submits(c.Body) {
				return true
			}
		}
	}
	return false
}

type transformer struct {
	prog  *gmp.Program
	pools []gmp.PoolDecl // the original program's
	mode  taskmode.Mode
	semOf map[int]int // pool index -> the semaphore that stands for it
	err   error       // the first submit the mode cannot rewrite
}

// ops rewrites a list of actions that runs inside loops loops of its
// goroutine.
func (t *transformer) ops(in []gmp.Op, loops int) []gmp.Op {
	if in == nil {
		return nil
	}
	out := make([]gmp.Op, 0, len(in))
	for _, op := range in {
		switch op.Kind {
		case gmp.OpLoop:
			op.Body = t.ops(op.Body, loops+1)
		case gmp.OpSelect:
			// A case's body is a level of the goroutine's, as a loop's.
			// The cases are the program's: copy them before rewriting.
			op.Cases = slices.Clone(op.Cases)
			for k := range op.Cases {
				op.Cases[k].Body = t.ops(op.Cases[k].Body, loops+1)
			}
		default:
			op.Body = t.ops(op.Body, 0) // a new goroutine's, or a task's
		}
		if op.Kind == gmp.OpSubmit {
			t.checkDepth(op, loops)
			op = t.submit(op)
		}
		out = append(out, op)
	}
	return out
}

// checkDepth refuses a submit the mode would rewrite into more loop
// levels than a goroutine has: the semaphore's loop takes one, an
// errgroup two.
func (t *transformer) checkDepth(op gmp.Op, loops int) {
	frames := map[taskmode.Mode]int{taskmode.Semaphore: 1, taskmode.Errgroup: 2}[t.mode]
	if t.err == nil && frames > 0 && t.pools[op.Pool].Size > 0 && loops+frames > gmp.MaxLoopDepth {
		t.err = fmt.Errorf("%v: the %s mode cannot rewrite this submit: inside %d loops, its %s would nest %d deep, more than the %d levels a goroutine allows; compare the other modes (--modes)",
			op.Pos, t.mode, loops, map[taskmode.Mode]string{taskmode.Semaphore: "loop of acquires", taskmode.Errgroup: "errgroup"}[t.mode],
			loops+frames, gmp.MaxLoopDepth)
	}
}

// submit rewrites one submit action for the mode.
func (t *transformer) submit(op gmp.Op) gmp.Op {
	size := t.pools[op.Pool].Size
	switch {
	case t.mode == taskmode.Pool:
		return op
	case t.mode == taskmode.Raw || size <= 0:
		// An unlimited pool limits nothing: the same as raw goroutines.
		return gmp.Op{Kind: gmp.OpGo, Count: op.Count, Body: op.Body, Pos: op.Pos}
	case t.mode == taskmode.Errgroup:
		return gmp.Op{Kind: gmp.OpGroup, Limit: size, Count: op.Count, Body: op.Body, Pos: op.Pos}
	}
	sem := t.sem(op.Pool, size)
	// The release is deferred in the task's wrapper, so a task that
	// calls runtime.Goexit still gives its slot back.
	body := append(slices.Clone(op.Body), gmp.Op{Kind: gmp.OpRelease, Sem: sem, N: 1, Pos: op.Pos, Defer: true})
	return gmp.Op{Kind: gmp.OpLoop, Count: op.Count, Pos: op.Pos, Body: []gmp.Op{
		{Kind: gmp.OpAcquire, Sem: sem, N: 1, Pos: op.Pos},
		{Kind: gmp.OpGo, Count: 1, Body: body, Pos: op.Pos},
	}}
}

// sem returns the semaphore that stands for pool pi, declaring it once.
func (t *transformer) sem(pi, size int) int {
	if s, ok := t.semOf[pi]; ok {
		return s
	}
	d := t.pools[pi]
	t.prog.Sems = append(t.prog.Sems, gmp.SemDecl{Name: d.Name + "-sem", Size: size, Pos: d.Pos})
	t.semOf[pi] = len(t.prog.Sems) - 1
	return t.semOf[pi]
}
