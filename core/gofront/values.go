package gofront

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/schedlab/schedlab/core/gmp"
)

// The front end runs the program abstractly, before the model does: it
// knows the values it can evaluate (constants, loop variables, the
// channels, semaphores, pools and groups the program makes) and marks
// everything else unknown, with what it depends on, so that a decision
// taken on an unknown value is an error that can say why.

type kind uint8

const (
	kUnknown  kind = iota
	kConst         // c: a number, string or bool
	kNil           // the nil of a channel, function, error, pointer, …
	kErr           // an error that is not nil
	kChan          // idx: into chans
	kSem           // idx: into sems
	kPool          // pool
	kGroup         // grp: an errgroup
	kCtx           // a context that is never cancelled
	kFunc          // fn: a closure or a function of the file
	kSlice         // sl
	kOption        // opt: a pool option
	kDur           // dur: a duration drawn from the seed (a program schedlab real wrote)
	kChildren      // the WaitGroup a program schedlab real wrote counts children with
	kFlag          // idx: into flags (an atomic.Bool, or a pointer to one)
	kMutex         // idx: into mutexes (a sync.Mutex or RWMutex, or a pointer to one)
	kWG            // idx: into wgs (a sync.WaitGroup, or a pointer to one)
)

type value struct {
	k    kind
	c    constant.Value
	idx  int
	pool *poolObj
	grp  *group
	fn   *closure
	sl   *sliceObj
	opt  poolOption
	dur  gmp.Dur
	// why says, for an unknown value, what it depends on ("a value
	// received from channel results (main.go:9:7)"). It is empty when the
	// value comes from a construct already refused, so that one mistake
	// is reported once.
	why string
	// deps are the loops whose variables the value was computed from: a
	// loop whose variable's value is used is not the same each time.
	deps []int
}

func unknown(why string) value { return value{k: kUnknown, why: why} }

// refusedValue is the value of a construct already reported.
var refusedValue = value{k: kUnknown}

func constVal(c constant.Value) value { return value{k: kConst, c: c} }

func (v value) known() bool { return v.k != kUnknown }

// with returns v carrying the loop dependencies of others too.
func (v value) with(others ...value) value {
	for _, o := range others {
		for _, d := range o.deps {
			if !slices.Contains(v.deps, d) {
				v.deps = append(slices.Clip(v.deps), d)
			}
		}
	}
	return v
}

// closure is a function value: a literal with the variables it captured,
// or one of the file's functions.
type closure struct {
	lit  *ast.FuncLit
	decl *ast.FuncDecl
	env  *env
	// noop is a function that does nothing the model sees (the stop
	// function of a program schedlab real wrote).
	noop bool
}

func (c *closure) name() string {
	if c.decl != nil {
		return c.decl.Name.Name
	}
	return "func literal"
}

func (c *closure) body() *ast.BlockStmt {
	if c.decl != nil {
		return c.decl.Body
	}
	if c.lit != nil {
		return c.lit.Body
	}
	return nil
}

func (c *closure) funcType() *ast.FuncType {
	if c.decl != nil {
		return c.decl.Type
	}
	return c.lit.Type
}

// sliceObj is a slice's backing array; a slice value is a window on it.
type sliceObj struct {
	elems    []value
	off, len int
	cap      int
	// owner is the goroutine that made the backing array: another's
	// writes to its elements are published (loops.go), as a variable's.
	owner *gor
}

func (s *sliceObj) at(i int) value { return s.elems[s.off+i] }

// poolObj is a pool the program made.
type poolObj struct {
	idx int
	// fn is the function of a pool made by NewPoolWithFunc.
	fn *closure
	// nonblocking pools, and pools with a limit on blocked submitters,
	// may reject a task: their Submit's result is not known.
	mayReject bool
}

// poolOption is one option passed to a pool's constructor.
type poolOption struct {
	set func(*gmp.PoolDecl)
}

// group is an errgroup.
type group struct {
	limit int // -1: SetLimit not called
	// nonNil is set when a task may return an error: Wait's result is
	// then not known.
	nonNil bool
	pos    gmp.Pos
	id     int
	// open is set between a g.Go and the g.Wait that follows.
	open bool
	// withCtx is set for a group made by WithContext.
	withCtx bool
}

// env is a scope: a function's activation, a block, an iteration.
type env struct {
	vars   map[types.Object]*cell
	parent *env
}

func newEnv(parent *env) *env { return &env{vars: map[types.Object]*cell{}, parent: parent} }

func (e *env) lookup(obj types.Object) *cell {
	for ; e != nil; e = e.parent {
		if c, ok := e.vars[obj]; ok {
			return c
		}
	}
	return nil
}

// cell is a variable.
type cell struct {
	v     value
	obj   types.Object
	owner *gor
	// born orders the variables by creation, so that a loop can tell the
	// variables of its body from those around it.
	born int
	// loop is the loop this variable is the per-iteration variable of.
	loop int
	// readers are the goroutines other than its owner that read it, each
	// with where it first did.
	readers []reader
	// pub is the last write by a goroutine other than its owner, which a
	// read that happens after it sees (loops.go).
	pub *published
}

type reader struct {
	g  *gor
	at token.Pos
}

// gor is a goroutine as the front end meets it: at its go statement.
type gor struct {
	id   int
	main bool
	// exited is set by os.Exit and runtime.Goexit: nothing after runs.
	exited bool
	// pendingDefers counts the deferred calls with actions that have not
	// run, for runtime.Goexit.
	pendingDefers int
	// clock counts the goroutine's releases (sends, closes, sets), and
	// acquired holds what its receives and waits acquired: what orders
	// another goroutine's write before its reads (loops.go).
	clock    int
	acquired map[syncKey]bool
}
