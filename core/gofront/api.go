package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// The calls of the packages in the stubs, each handled by its row of the
// table (constructs.go). A row that is not Accepted has no handler: its
// call is refused with the row's message.

// site is a call being made.
type site struct {
	x    *ast.CallExpr
	fn   *types.Func
	recv value
	args []value
}

// argPos is where argument i is written.
func (s *site) argPos(i int) token.Pos {
	if i < len(s.x.Args) {
		return s.x.Args[i].Pos()
	}
	return s.x.Pos()
}

func (s *site) arg(i int) value {
	if i < len(s.args) {
		return s.args[i]
	}
	return refusedValue
}

// rest returns the variadic arguments from i on, spread or not.
func (s *site) rest(i int) []value {
	if s.x.Ellipsis.IsValid() && len(s.args) == i+1 {
		v := s.args[i]
		if v.k == kSlice {
			var out []value
			for j := 0; j < v.sl.len; j++ {
				out = append(out, v.sl.at(j))
			}
			return out
		}
		if v.k == kNil {
			return nil
		}
		return []value{v}
	}
	if i >= len(s.args) {
		return nil
	}
	return s.args[i:]
}

type handler func(t *translator, s *site) []value

// handlers maps the Accepted rows with an API to their code. It is set
// in init: the handlers call back into the translator, which looks
// them up here.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"time.Sleep": func(t *translator, s *site) []value {
			if d, ok := t.duration(s.arg(0), s.argPos(0), "time.Sleep's duration"); ok {
				t.emit(item{op: gmp.Op{Kind: gmp.OpSleep, Dur: d, Pos: t.pos(s.x.Pos())}})
			}
			return nil
		},
		"time.Now": func(t *translator, s *site) []value {
			return t.results(s, unknown(fmt.Sprintf("the clock (%s)", shortName(s.fn))))
		},
		"runtime.Gosched": func(t *translator, s *site) []value {
			t.emit(item{op: gmp.Op{Kind: gmp.OpGosched, Pos: t.pos(s.x.Pos())}})
			return nil
		},
		"runtime.Goexit": func(t *translator, s *site) []value {
			if t.g.pendingDefers > 0 {
				t.errorf(s.x.Pos(), "call the deferred function before runtime.Goexit",
					"runtime.Goexit runs the deferred calls, and with one pending that acts, this is not modelled")
				return nil
			}
			t.emit(item{op: gmp.Op{Kind: gmp.OpExit, Pos: t.pos(s.x.Pos())}})
			t.g.exited = true
			return nil
		},
		"runtime.GOMAXPROCS": gomaxprocs,
		"runtime.NumGoroutine": func(t *translator, s *site) []value {
			if s.fn.Name() == "NumCPU" {
				return []value{unknown("runtime.NumCPU(), which depends on the machine")}
			}
			return []value{unknown("runtime.NumGoroutine(), decided as the program runs")}
		},
		"os.Exit": osExit,
		"fmt.Sprintf": func(t *translator, s *site) []value {
			switch s.fn.Name() {
			case "Errorf", "New":
				return []value{{k: kErr}}
			}
			return []value{unknown("a formatted string")}
		},
		"context.Background": func(t *translator, s *site) []value { return []value{{k: kCtx}} },
		"fmt.Print":          printCall,
		"atomic.Bool": func(t *translator, s *site) []value {
			if s.recv.k != kFlag {
				t.refuseRecv(s, "atomic.Bool")
				return t.unknownResults(s.x)
			}
			name := t.flags[s.recv.idx].name
			if s.fn.Name() == "Store" {
				t.setFlag(s.recv.idx, s.arg(0), s.x.Pos(), name+".Store")
				return nil
			}
			// A Load outside a loop's condition: true or false as the
			// program runs.
			return []value{unknown(fmt.Sprintf("the flag %s, set as the program runs", name))}
		},
		"atomic counters": func(t *translator, s *site) []value {
			t.plain(s.x.Pos(), 1)
			return t.results(s, unknown(fmt.Sprintf("the value %s gives, decided as the program runs", shortName(s.fn))))
		},

		"semaphore.NewWeighted": func(t *translator, s *site) []value {
			n, ok := t.need(s.arg(0), s.argPos(0), "the semaphore's weight")
			if !ok {
				return []value{refusedValue}
			}
			if n < 1 {
				t.errorf(s.argPos(0), "give it a weight of 1 or more", "a semaphore of weight %d lets nobody in, which the model does not model", n)
				return []value{refusedValue}
			}
			name := t.declName(t.nameHint, "sem", "sem_")
			t.sems = append(t.sems, gmp.SemDecl{Name: name, Size: int(min(n, math.MaxInt32)), Pos: t.pos(s.x.Pos())})
			t.creations++
			return []value{{k: kSem, idx: len(t.sems) - 1}}
		},
		"semaphore.Acquire": func(t *translator, s *site) []value {
			return []value{t.semOp(s, gmp.OpAcquire, 1)}
		},
		"semaphore.Release": func(t *translator, s *site) []value {
			t.semOp(s, gmp.OpRelease, 0)
			return nil
		},
		"sync.Mutex":     mutexCall,
		"sync.RWMutex":   mutexCall,
		"sync.WaitGroup": waitGroupCall,
		"time.After": func(t *translator, s *site) []value {
			// A select case reads time.After itself (selectStmt): a
			// call met here is outside one.
			t.errorf(s.x.Pos(), lookup("time.After").Hint, "time.After outside a select case is not modelled")
			return []value{refusedValue}
		},
		"errgroup":     errgroupCall,
		"ants.NewPool": newPoolCall,
		"ants.NewPoolWithFunc": func(t *translator, s *site) []value {
			if s.fn.Name() == "Invoke" {
				return submitCall(t, s)
			}
			return newPoolCall(t, s)
		},
		"ants options":      poolOptionCall,
		"pool queue":        poolOptionCall,
		"pool coarse clock": poolOptionCall,
		"ants.Submit":       submitCall,
		"ants.Release": func(t *translator, s *site) []value {
			t.emit(item{kind: iRelease, op: gmp.Op{Pos: t.pos(s.x.Pos())}})
			return nil
		},
		"ants default pool": func(t *translator, s *site) []value {
			switch s.fn.Name() {
			case "Submit":
				s.recv = t.defaultPool(s.x)
				return submitCall(t, s)
			case "Release":
				t.emit(item{kind: iRelease, op: gmp.Op{Pos: t.pos(s.x.Pos())}})
				return nil
			}
			return []value{unknown("ants.Running(), decided as the program runs")}
		},
		"ants counts": func(t *translator, s *site) []value {
			if s.fn.Name() == "Cap" && s.recv.k == kPool {
				size := t.pools[s.recv.pool.idx].Size
				if size == 0 {
					size = -1 // ants reports an unlimited pool's capacity as -1
				}
				return []value{constVal(constant.MakeInt64(int64(size)))}
			}
			return []value{unknown(fmt.Sprintf("%s, decided as the program runs", shortName(s.fn)))}
		},
	}
}

// callAPI calls a function or method of a stub package.
func (t *translator) callAPI(c callee, args []value, x *ast.CallExpr) []value {
	s := &site{x: x, fn: c.api, recv: c.recv, args: args}
	if c.recv.k == kChildren {
		// The WaitGroup a program schedlab real wrote counts a
		// goroutine's children: Add and Done are its bookkeeping, Wait
		// is wait: children.
		if c.api.Name() == "Wait" {
			t.emit(item{op: gmp.Op{Kind: gmp.OpWait, Pos: t.pos(x.Pos())}})
		}
		return nil
	}
	if t.generated && c.api.Pkg() != nil && c.api.Pkg().Path() == "math/rand/v2" {
		// var rng = rand.New(rand.NewPCG(SEED, 0)): the run's seed.
		if c.api.Name() == "NewPCG" {
			if n, ok := t.intOf(s.arg(0)); ok && n >= 0 {
				t.seed = uint64(n)
			}
		}
		return t.results(s)
	}
	row := byAPI[c.api.FullName()]
	if row == nil {
		t.errorf(x.Pos(), "see docs/go-subset.md for what the front end reads", "%s is not in the Go subset schedlab reads", shortName(c.api))
		return t.unknownResults(x)
	}
	if row.Status != Accepted {
		t.refuse(x.Pos(), row.ID, shortName(c.api))
		return t.unknownResults(x)
	}
	h := handlers[row.ID]
	if h == nil {
		panic("gofront: no handler for " + row.ID)
	}
	return t.results(s, h(t, s)...)
}

// results pads vals to the call's results.
func (t *translator) results(s *site, vals ...value) []value {
	sig, _ := s.fn.Type().(*types.Signature)
	if sig == nil {
		return vals
	}
	out := make([]value, sig.Results().Len())
	for i := range out {
		if i < len(vals) {
			out[i] = vals[i]
		} else {
			out[i] = unknown(fmt.Sprintf("the result of %s", shortName(s.fn)))
		}
	}
	return out
}

// shortName writes a function as a program does: time.Sleep, Mutex.Lock.
func shortName(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		typ := sig.Recv().Type()
		if p, ok := typ.(*types.Pointer); ok {
			typ = p.Elem()
		}
		if n, ok := typ.(*types.Named); ok {
			return n.Obj().Pkg().Name() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

func gomaxprocs(t *translator, s *site) []value {
	n, ok := t.need(s.arg(0), s.argPos(0), "GOMAXPROCS")
	if !ok {
		return []value{refusedValue}
	}
	prev := constVal(constant.MakeInt64(int64(t.procs)))
	if n < 1 {
		return []value{prev} // a query
	}
	if !t.g.main || t.started {
		t.errorf(s.x.Pos(), "call runtime.GOMAXPROCS first in main, or use --procs",
			"runtime.GOMAXPROCS after the program has started goroutines or acted is not modelled: the model's Ps are fixed for the run")
		return []value{prev}
	}
	if n > gmp.MaxProcs {
		t.errorf(s.argPos(0), "", "GOMAXPROCS %d: the model has at most %d Ps", n, gmp.MaxProcs)
		return []value{prev}
	}
	t.procs = int(n)
	return []value{prev}
}

func osExit(t *translator, s *site) []value {
	code, ok := t.need(s.arg(0), s.argPos(0), "os.Exit's status")
	if !ok {
		return nil
	}
	switch {
	case !t.g.main:
		t.errorf(s.x.Pos(), "return from main instead, after the goroutine signals it", "os.Exit in a goroutine other than main's is not modelled")
	case code != 0:
		t.errorf(s.x.Pos(), "exit with os.Exit(0), or return from main", "os.Exit(%d): the model has no exit status", code)
	default:
		t.g.exited = true
	}
	return nil
}

// semOp is Acquire (weight in argument 1, want 1) or Release (argument 0).
func (t *translator) semOp(s *site, kind gmp.OpKind, argN int) value {
	if s.recv.k != kSem {
		t.refuseRecv(s, "semaphore")
		return refusedValue
	}
	n, ok := t.need(s.arg(argN), s.argPos(argN), "the weight")
	if !ok {
		return refusedValue
	}
	if n < 1 {
		t.errorf(s.argPos(argN), "", "a weight of %d: the model's semaphore moves at least 1", n)
		return refusedValue
	}
	t.emit(item{op: gmp.Op{Kind: kind, Sem: s.recv.idx, N: int(min(n, math.MaxInt32)), Pos: t.pos(s.x.Pos())}})
	if kind == gmp.OpAcquire {
		t.semAcquire(s.recv.idx, int(min(n, math.MaxInt32)))
	} else {
		t.release(syncKey{syncSem, s.recv.idx})
	}
	if kind == gmp.OpAcquire && s.arg(0).k != kCtx {
		return unknown("Acquire's error, with a context that may be cancelled")
	}
	return value{k: kNil}
}

// refuseRecv reports a method called on something the front end cannot
// follow.
func (t *translator) refuseRecv(s *site, what string) {
	if s.recv.k == kUnknown && s.recv.why == "" {
		return
	}
	why := s.recv.why
	switch {
	case s.recv.k == kNil:
		why = "a nil " + what
	case why == "":
		why = "something that is not a " + what
	}
	t.errorf(s.x.Pos(), "keep the "+what+" in a variable the front end can follow (not in a struct field, a map or a pointer)",
		"which %s this is depends on %s, which cannot be evaluated", what, why)
}

func (t *translator) newGroup(at token.Pos, withCtx bool) value {
	t.groups++
	t.creations++
	return value{k: kGroup, grp: &group{limit: -1, pos: t.pos(at), id: t.groups, withCtx: withCtx}}
}

func errgroupCall(t *translator, s *site) []value {
	if s.fn.Name() == "WithContext" {
		return []value{t.newGroup(s.x.Pos(), true), {k: kCtx}}
	}
	if s.recv.k != kGroup {
		t.refuseRecv(s, "group")
		return nil
	}
	g := s.recv.grp
	switch s.fn.Name() {
	case "SetLimit":
		n, ok := t.need(s.arg(0), s.argPos(0), "SetLimit's limit")
		if !ok {
			return nil
		}
		if g.open {
			t.errorf(s.x.Pos(), "call SetLimit before the first g.Go", "SetLimit while the group's goroutines run: errgroup panics here")
			return nil
		}
		g.limit = -1
		if n >= 0 {
			g.limit = int(min(n, math.MaxInt32))
		}
	case "Go":
		f := s.arg(0)
		if f.k != kFunc {
			t.refuseCallee(s.x, f)
			return nil
		}
		g.open = true
		nonNil := false
		body := t.newGoroutine(func() {
			res := t.invoke(f.fn, nil, s.x.Pos())
			nonNil = len(res) > 0 && res[0].k != kNil
		})
		if nonNil {
			g.nonNil = true
			if g.withCtx {
				t.errorf(s.argPos(0), "return nil from the task", "a task that may return an error cancels the group's context, which is not modelled")
			}
		}
		t.emit(item{kind: iGroupGo, grp: g, body: body, op: gmp.Op{Count: 1, Limit: g.limit, Pos: t.pos(s.x.Pos())}})
	case "Wait":
		t.emit(item{kind: iGroupWait, grp: g, op: gmp.Op{Pos: t.pos(s.x.Pos())}})
		g.open = false
		if g.nonNil {
			return []value{unknown("the error a task of the group returned")}
		}
		return []value{{k: kNil}}
	}
	return nil
}

// newPoolCall is ants.NewPool(size, opts…), ants.NewPoolWithFunc(size,
// f, opts…) and pool.New(size, opts…).
func newPoolCall(t *translator, s *site) []value {
	var fn *closure
	opts := s.rest(1)
	if s.fn.Name() == "NewPoolWithFunc" {
		f := s.arg(1)
		if f.k != kFunc {
			t.refuseCallee(s.x, f)
			return []value{refusedValue, refusedValue}
		}
		fn = f.fn
		opts = s.rest(2)
	}
	return []value{t.newPool(s.x, s.arg(0), opts, fn), {k: kNil}}
}

// defaultPool is ants' default pool, declared the first time the
// program submits to it: ants makes it at start-up with a size of
// math.MaxInt32, which the model's pool reads as no limit.
func (t *translator) defaultPool(x *ast.CallExpr) value {
	if t.antsPool == nil {
		name := t.declName("ants", "ants", "pool_")
		t.pools = append(t.pools, gmp.PoolDecl{Name: name, Pos: t.pos(x.Pos())})
		t.antsPool = &poolObj{idx: len(t.pools) - 1}
	}
	return value{k: kPool, pool: t.antsPool}
}

// newPool makes a pool: a declaration under pools:.
func (t *translator) newPool(x *ast.CallExpr, size value, opts []value, fn *closure) value {
	n, ok := t.need(size, x.Pos(), "the pool's size")
	if !ok {
		return refusedValue
	}
	d := gmp.PoolDecl{Name: t.declName(t.nameHint, "pool", "pool_"), Pos: t.pos(x.Pos())}
	if n > 0 {
		d.Size = int(min(n, math.MaxInt32))
	}
	for _, o := range opts {
		if o.k != kOption {
			if o.why != "" {
				t.errorf(x.Pos(), "pass the options as ants.WithExpiryDuration(d) and the like", "a pool option that depends on %s cannot be evaluated", o.why)
			}
			return refusedValue
		}
		o.opt.set(&d)
	}
	switch {
	case d.Expiry < 0:
		t.errorf(x.Pos(), "give it a positive expiry", "a negative expiry: the pool's constructor fails (ErrInvalidPoolExpiry)")
		return refusedValue
	case d.PreAlloc && d.Size == 0:
		t.errorf(x.Pos(), "give the pool a size, or drop WithPreAlloc", "a prealloc pool needs a size (ErrInvalidPreAllocSize)")
		return refusedValue
	}
	t.pools = append(t.pools, d)
	t.creations++
	return value{k: kPool, pool: &poolObj{idx: len(t.pools) - 1, fn: fn, mayReject: d.Nonblocking || d.MaxBlocking > 0}}
}

func poolOptionCall(t *translator, s *site) []value {
	name := s.fn.Name()
	switch name {
	case "WithExpiryDuration", "WithExpiry":
		n, ok := t.need(s.arg(0), s.argPos(0), "the expiry")
		if !ok {
			return []value{refusedValue}
		}
		if n > int64(maxPoolExpiry) {
			n = int64(maxPoolExpiry)
		}
		return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.Expiry = time.Duration(n) }}}}
	case "WithMaxBlockingTasks", "WithMaxBlocking":
		n, ok := t.need(s.arg(0), s.argPos(0), "the limit on waiting submitters")
		if !ok {
			return []value{refusedValue}
		}
		return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.MaxBlocking = int(max(0, min(n, math.MaxInt32))) }}}}
	case "WithQueue":
		n, ok := t.need(s.arg(0), s.argPos(0), "the queue's length")
		if !ok {
			return []value{refusedValue}
		}
		return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.Queue = int(max(0, min(n, math.MaxInt32))) }}}}
	case "WithNonblocking", "WithPreAlloc", "WithCoarseClock":
		b, ok := t.boolOf(s.arg(0))
		if !ok {
			t.refuseUnknown(s.argPos(0), "condition", s.arg(0))
			return []value{refusedValue}
		}
		t.use(s.arg(0))
		switch name {
		case "WithNonblocking":
			return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.Nonblocking = b }}}}
		case "WithCoarseClock":
			return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.CoarseClock = b }}}}
		}
		return []value{{k: kOption, opt: poolOption{set: func(d *gmp.PoolDecl) { d.PreAlloc = b }}}}
	}
	return []value{refusedValue}
}

// maxPoolExpiry bounds an expiry the way a scenario's durations are.
const maxPoolExpiry = 365 * 24 * time.Hour

// submitCall is p.Submit(task) and p.Invoke(arg).
func submitCall(t *translator, s *site) []value {
	if s.recv.k != kPool {
		t.refuseRecv(s, "pool")
		return []value{refusedValue}
	}
	p := s.recv.pool
	var body []item
	if s.fn.Name() == "Invoke" {
		if p.fn == nil {
			t.errorf(s.x.Pos(), "", "Invoke on a pool made without a function")
			return []value{refusedValue}
		}
		arg := s.arg(0)
		body = t.newGoroutine(func() { t.invoke(p.fn, []value{arg}, s.x.Pos()) })
	} else {
		task := s.arg(0)
		if task.k != kFunc {
			t.refuseCallee(s.x, task)
			return []value{refusedValue}
		}
		body = t.newGoroutine(func() { t.invoke(task.fn, nil, s.x.Pos()) })
	}
	t.emit(item{op: gmp.Op{Kind: gmp.OpSubmit, Pool: p.idx, Count: 1, Pos: t.pos(s.x.Pos())}, body: body, mayReject: p.mayReject})
	if p.mayReject {
		return []value{unknown(fmt.Sprintf("the result of Submit to pool %s, which may reject a task (nonblocking, or a limit on waiting submitters)", t.pools[p.idx].Name))}
	}
	return []value{{k: kNil}}
}

// intrinsic calls a helper of a program schedlab real wrote: the action
// it stands for.
func (t *translator) intrinsic(name string, args []value, x *ast.CallExpr) []value {
	arg := func(i int) value {
		if i < len(args) {
			return args[i]
		}
		return refusedValue
	}
	at := t.pos(x.Pos())
	action := func(kind gmp.OpKind) []value {
		if d, ok := t.duration(arg(0), x.Pos(), name+"'s duration"); ok {
			t.emit(item{op: gmp.Op{Kind: kind, Dur: d, Pos: at}})
		}
		return nil
	}
	switch name {
	case "compute":
		return action(gmp.OpCPU)
	case "syscallFor":
		return action(gmp.OpSyscall)
	case "netRead":
		return action(gmp.OpNet)
	case "uniform", "exponential":
		a, ok1 := t.intOf(arg(0))
		b, ok2 := t.intOf(arg(1))
		if name == "exponential" {
			b, ok2 = 0, true
		}
		if !ok1 || !ok2 {
			t.errorf(x.Pos(), "", "%s's bounds are not constants", name)
			return []value{refusedValue}
		}
		d := gmp.Dur{Kind: gmp.DurUniform, A: time.Duration(a), B: time.Duration(b)}
		if name == "exponential" {
			d = gmp.Dur{Kind: gmp.DurExp, A: time.Duration(a)}
		}
		return []value{{k: kDur, dur: d}}
	case "newPool":
		var opts []value
		if x.Ellipsis.IsValid() && len(args) == 2 && args[1].k == kSlice {
			for j := 0; j < args[1].sl.len; j++ {
				opts = append(opts, args[1].sl.at(j))
			}
		} else if len(args) > 1 {
			opts = args[1:]
		}
		return []value{t.newPool(x, arg(0), opts, nil)}
	case "startTrace":
		return []value{{k: kFunc, fn: &closure{noop: true}}}
	case "spin":
		return []value{unknown("spin's result")}
	}
	return nil // calibrate, logCPUTime
}

// generatedMain finds, in the main of a program schedlab real wrote, the
// goroutine that stops the run at the scenario's until:
//
//	until := make(chan func())
//	go func() { stop := <-until; time.Sleep(D); [os.Stdout.Close();] stop(); os.Exit(0) }()
//	…
//	until <- stop
//
// and reads it as until: D instead of as a goroutine of the scenario;
// the os.Stdout.Close() that ends main, or comes after the end mark,
// which only keeps what the goroutines print while the trace stops out
// of the run's output: the scenario's program exits there; and the mark
// of the scenario's end in the trace before it, trace.Log of real's
// category, which only closes the real run's window there. The log of
// the process's CPU time after them, logCPUTime, is an intrinsic that
// does nothing.
func (t *translator) generatedMain(mainFn *ast.FuncDecl) {
	list := mainFn.Body.List
	if n := len(list); n > 0 && t.isStdoutClose(list[n-1]) {
		t.skip[list[n-1]] = true
	}
	marked := false
	for _, s := range list {
		switch {
		case t.isEndMark(s):
			t.skip[s], marked = true, true
		case marked && t.isStdoutClose(s):
			// Before the log of the process's CPU time (logCPUTime), an
			// intrinsic that is nothing in the model.
			t.skip[s] = true
		}
	}
	for i, s := range list {
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || identName(as.Lhs[0]) != "until" || i+1 >= len(list) {
			continue
		}
		gs, ok := list[i+1].(*ast.GoStmt)
		if !ok {
			continue
		}
		lit, ok := gs.Call.Fun.(*ast.FuncLit)
		if !ok || len(lit.Body.List) != 4 && !(len(lit.Body.List) == 5 && t.isStdoutClose(lit.Body.List[2])) {
			continue
		}
		sleep, ok := lit.Body.List[1].(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := sleep.X.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		tv := t.info.Types[call.Args[0]]
		if tv.Value == nil {
			continue
		}
		d, ok := constant.Int64Val(tv.Value)
		if !ok || d <= 0 {
			continue
		}
		for _, later := range list[i+2:] {
			if send, ok := later.(*ast.SendStmt); ok && identName(send.Chan) == "until" {
				t.skip[as], t.skip[gs], t.skip[send] = true, true, true
				t.until = time.Duration(d)
			}
		}
	}
}

// isEndMark says whether s is the mark of the scenario's end that real
// writes: runtime/trace's Log with rtrace.EndMarkCategory as its
// category.
func (t *translator) isEndMark(s ast.Stmt) bool {
	call, sel, ok := selectorCall(s, "Log", 3)
	if !ok || !t.isPackage(sel.X, "runtime/trace") {
		return false
	}
	tv := t.info.Types[call.Args[1]]
	return tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == rtraceEndMarkCategory
}

// isStdoutClose says whether s is os.Stdout.Close().
func (t *translator) isStdoutClose(s ast.Stmt) bool {
	_, sel, ok := selectorCall(s, "Close", 0)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.SelectorExpr)
	return ok && x.Sel.Name == "Stdout" && t.isPackage(x.X, "os")
}

// selectorCall returns s's call and the selector it calls when s is a
// statement that calls X.name with args arguments.
func selectorCall(s ast.Stmt, name string, args int) (*ast.CallExpr, *ast.SelectorExpr, bool) {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return nil, nil, false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != args {
		return nil, nil, false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return nil, nil, false
	}
	return call, sel, true
}

// isPackage says whether x names the imported package of that path.
func (t *translator) isPackage(x ast.Expr, path string) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := t.info.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == path
}

// --- Plain code ---

// isPlainExpr says whether x is plain arithmetic: no call but
// conversions and len, cap, min and max, no receive, no closure, nothing
// allocated.
func (t *translator) isPlainExpr(x ast.Expr) bool {
	if x == nil {
		return true
	}
	plain := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := t.info.Types[n.Fun]; ok && tv.IsType() {
				return true
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := t.info.Uses[id].(*types.Builtin); ok && strings.Contains(" len cap min max ", " "+b.Name()+" ") {
					return true
				}
			}
			plain = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW || n.Op == token.AND {
				plain = false
			}
		case *ast.FuncLit, *ast.CompositeLit:
			plain = false
		}
		return plain
	})
	return plain
}

func (t *translator) isPlainStmt(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		return t.isPlainExpr(s.X)
	case *ast.AssignStmt:
		for _, x := range append(append([]ast.Expr(nil), s.Lhs...), s.Rhs...) {
			if !t.isPlainExpr(x) {
				return false
			}
		}
		return true
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		if gd.Tok != token.VAR {
			return true
		}
		for _, spec := range gd.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				if !t.isPlainExpr(v) {
					return false
				}
			}
		}
		return true
	case *ast.EmptyStmt:
		return true
	}
	return false
}

func isPlainValues(t *translator, vals []ast.Expr) bool {
	for _, v := range vals {
		if !t.isPlainExpr(v) {
			return false
		}
	}
	return len(vals) > 0
}

// plainBody says whether a block is plain code: plain statements and
// loops of them.
func (t *translator) plainBody(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		switch s := s.(type) {
		case *ast.ForStmt:
			if !t.isPlainLoop(s) {
				return false
			}
		case *ast.RangeStmt:
			if !t.isPlainRange(s) {
				return false
			}
		case *ast.BlockStmt:
			if !t.plainBody(s) {
				return false
			}
		default:
			if !t.isPlainStmt(s) {
				return false
			}
		}
	}
	return true
}

// isPlainLoop says whether a for loop is a busy loop: a counted loop of
// plain code that does not change its own variables in its body.
func (t *translator) isPlainLoop(s *ast.ForStmt) bool {
	if s.Cond == nil || !t.isPlainExpr(s.Cond) || (s.Init != nil && !t.isPlainStmt(s.Init)) || (s.Post != nil && !t.isPlainStmt(s.Post)) {
		return false
	}
	if !t.plainBody(s.Body) {
		return false
	}
	for _, obj := range loopVars(t, s.Init) {
		if assigns(t, s.Body, obj) {
			return false
		}
	}
	return true
}

func (t *translator) isPlainRange(s *ast.RangeStmt) bool {
	typ := t.info.TypeOf(s.X)
	if typ == nil {
		return false
	}
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && t.isPlainExpr(s.X) && t.plainBody(s.Body)
}

// assigns says whether n assigns obj.
func assigns(t *translator, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && t.info.Uses[id] == obj {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(s.X).(*ast.Ident); ok && t.info.Uses[id] == obj {
				found = true
			}
		}
		return !found
	})
	return found
}

// busyLoop charges a busy loop: its iterations times its body's units.
func (t *translator) busyLoop(s *ast.ForStmt, e *env) {
	header := newEnv(e)
	t.loopInit(s.Init, header)
	vars := loopVars(t, s.Init)
	errs := len(t.errs)
	var n int64
	var ok bool
	t.capture(func() { n, ok = t.countFor(s, header, vars) })
	if !ok {
		if len(t.errs) == errs {
			t.refuseLoopBound(s.For, t.eval(s.Cond, header))
		}
		return
	}
	inner := newEnv(header)
	for _, obj := range vars {
		t.declare(inner, obj, unknown(fmt.Sprintf("the variable %s of the busy loop at %v", obj.Name(), t.pos(s.For))))
	}
	units, ok := t.bodyUnits(s.Body, inner)
	if !ok {
		return
	}
	t.plain(s.For, float64(n)*max(1, units))
	t.forgetWrites(s, e)
}

// busyRange charges a range over an integer of plain code.
func (t *translator) busyRange(s *ast.RangeStmt, e *env, n int64) {
	inner := newEnv(e)
	for _, x := range []ast.Expr{s.Key, s.Value} {
		if id, ok := x.(*ast.Ident); ok && s.Tok == token.DEFINE {
			if obj := t.info.Defs[id]; obj != nil {
				t.declare(inner, obj, unknown(fmt.Sprintf("the variable %s of the busy loop at %v", id.Name, t.pos(s.For))))
			}
		}
	}
	units, ok := t.bodyUnits(s.Body, inner)
	if !ok {
		return
	}
	t.plain(s.For, float64(n)*max(1, units))
	t.forgetWrites(s, e)
}

// bodyUnits is the cost of one run of a plain block: one unit a
// statement, a nested loop's iterations times its own body's.
func (t *translator) bodyUnits(b *ast.BlockStmt, e *env) (float64, bool) {
	units := 0.0
	for _, s := range b.List {
		switch s := s.(type) {
		case *ast.ForStmt:
			header := newEnv(e)
			var n int64
			var ok bool
			errs := len(t.errs)
			t.capture(func() {
				if s.Init != nil {
					t.stmt(s.Init, header, "")
				}
				n, ok = t.countFor(s, header, loopVars(t, s.Init))
			})
			if !ok {
				if len(t.errs) == errs {
					t.refuseLoopBound(s.For, t.eval(s.Cond, header))
				}
				return 0, false
			}
			inner := newEnv(header)
			for _, obj := range loopVars(t, s.Init) {
				t.declare(inner, obj, unknown(fmt.Sprintf("the variable %s of the busy loop at %v", obj.Name(), t.pos(s.For))))
			}
			u, ok := t.bodyUnits(s.Body, inner)
			if !ok {
				return 0, false
			}
			units += float64(n) * max(1, u)
		case *ast.RangeStmt:
			x := t.eval(s.X, e)
			n, ok := t.intOf(x)
			if !ok {
				t.refuseLoopBound(s.For, x)
				return 0, false
			}
			u, ok := t.bodyUnits(s.Body, newEnv(e))
			if !ok {
				return 0, false
			}
			units += float64(max(n, 0)) * max(1, u)
		case *ast.BlockStmt:
			u, ok := t.bodyUnits(s, e)
			if !ok {
				return 0, false
			}
			units += u
		case *ast.EmptyStmt:
		default:
			units++
		}
	}
	return units, true
}

// forgetWrites makes the variables from outside that a busy loop writes
// unknown: their values after it are not computed.
func (t *translator) forgetWrites(loop ast.Node, e *env) {
	at := t.pos(loop.Pos())
	forget := func(x ast.Expr) {
		for {
			switch y := ast.Unparen(x).(type) {
			case *ast.IndexExpr:
				x = y.X
				continue
			case *ast.Ident:
				if obj := t.info.Uses[y]; obj != nil {
					c := e.lookup(obj)
					if c == nil {
						c = t.globals.lookup(obj)
					}
					if c != nil {
						t.assign(c, unknown(fmt.Sprintf("%s after the busy loop at %v (its value is not computed)", y.Name, at)))
					}
				}
			}
			return
		}
	}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				for _, l := range s.Lhs {
					forget(l)
				}
			}
		case *ast.IncDecStmt:
			forget(s.X)
		case *ast.RangeStmt:
			if s.Tok == token.ASSIGN {
				forget(s.Key)
				forget(s.Value)
			}
		}
		return true
	})
}

// mutexCall is Lock, Unlock, RLock or RUnlock of a sync.Mutex or
// RWMutex.
func mutexCall(t *translator, s *site) []value {
	if s.recv.k != kMutex {
		t.refuseRecv(s, "mutex")
		return nil
	}
	kind := map[string]gmp.OpKind{"Lock": gmp.OpLock, "Unlock": gmp.OpUnlock, "RLock": gmp.OpRLock, "RUnlock": gmp.OpRUnlock}[s.fn.Name()]
	t.emit(item{op: gmp.Op{Kind: kind, Mutex: s.recv.idx, Pos: t.pos(s.x.Pos())}})
	t.mutexUsed(s.recv.idx)
	switch kind {
	case gmp.OpUnlock, gmp.OpRUnlock:
		t.release(syncKey{syncMutex, s.recv.idx})
	default:
		t.acquire(syncKey{syncMutex, s.recv.idx})
	}
	return nil
}

// waitGroupCall is Add, Done, Wait or Go of a sync.WaitGroup.
func waitGroupCall(t *translator, s *site) []value {
	if s.recv.k != kWG {
		t.refuseRecv(s, "wait group")
		return nil
	}
	wg := s.recv.idx
	pos := t.pos(s.x.Pos())
	switch s.fn.Name() {
	case "Add":
		n, ok := t.need(s.arg(0), s.argPos(0), "Add's delta")
		if !ok {
			return nil
		}
		if n == 0 || n < math.MinInt32 || n > math.MaxInt32 {
			t.errorf(s.argPos(0), "", "Add(%d): the model's add moves the counter by a delta of 1 to %d either way", n, math.MaxInt32)
			return nil
		}
		t.emit(item{op: gmp.Op{Kind: gmp.OpAdd, WG: wg + 1, N: int(n), Pos: pos}})
	case "Done":
		t.emit(item{op: gmp.Op{Kind: gmp.OpDone, WG: wg + 1, Pos: pos}})
		t.release(syncKey{syncWG, wg})
	case "Wait":
		t.emit(item{op: gmp.Op{Kind: gmp.OpWait, WG: wg + 1, Pos: pos}})
		t.acquire(syncKey{syncWG, wg})
	case "Go":
		f := s.arg(0)
		if f.k != kFunc {
			t.refuseCallee(s.x, f)
			return nil
		}
		body := t.newGoroutine(func() {
			t.invoke(f.fn, nil, s.x.Pos())
			// The Done wg.Go defers orders the goroutine's writes
			// before a Wait.
			t.release(syncKey{syncWG, wg})
		})
		t.emit(item{op: gmp.Op{Kind: gmp.OpGo, Count: 1, WG: wg + 1, Pos: pos}, body: body})
	}
	t.wgUsed(wg)
	return nil
}

// rtraceEndMarkCategory is real/rtrace's EndMarkCategory, the category of
// the mark of a scenario's end in a program schedlab real wrote (core
// does not import real; TestEndMarkCategoryIsRtraces holds them equal).
const rtraceEndMarkCategory = "schedlab"
