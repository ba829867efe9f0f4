package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// eval evaluates an expression, emitting what the model sees of it (a
// receive, the calls it makes).
func (t *translator) eval(x ast.Expr, e *env) value {
	if tv, ok := t.info.Types[x]; ok && tv.Value != nil {
		return constVal(tv.Value)
	}
	if t.invalid(x) {
		return refusedValue // it comes from a refused import
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return t.eval(x.X, e)
	case *ast.Ident:
		return t.ident(x, e)
	case *ast.BinaryExpr:
		return t.binaryExpr(x, e)
	case *ast.UnaryExpr:
		return t.unary(x, e)
	case *ast.CallExpr:
		vals := t.call(x, e)
		if len(vals) == 0 {
			return refusedValue
		}
		return vals[0]
	case *ast.SelectorExpr:
		if sel := t.info.Selections[x]; sel != nil {
			if base := t.eval(x.X, e); base.k == kUnknown && base.why == "" {
				return refusedValue
			}
			if sel.Kind() == types.MethodVal {
				return unknown("a method value")
			}
			return unknown(fmt.Sprintf("the field %s (fields are not followed)", x.Sel.Name))
		}
		if t.ofRefusedPackage(x) {
			return refusedValue
		}
		return unknown(fmt.Sprintf("%s.%s", identName(x.X), x.Sel.Name))
	case *ast.IndexExpr:
		base := t.eval(x.X, e)
		idx := t.eval(x.Index, e)
		switch base.k {
		case kSlice:
			if i, ok := t.intOf(idx); ok {
				if i < 0 || i >= int64(base.sl.len) {
					t.errorf(x.Lbrack, "", "index %d out of range [0:%d]: the program would panic here", i, base.sl.len)
					return refusedValue
				}
				return t.elemAt(base.sl, int(i), x.Lbrack).with(idx, base)
			}
			return unknown(idx.why).with(idx)
		}
		if _, isMap := t.info.TypeOf(x.X).Underlying().(*types.Map); isMap && (base.k != kUnknown || base.why != "") {
			return unknown("a value read from a map")
		}
		if base.k == kUnknown {
			return base
		}
		return unknown("a value read from a map")
	case *ast.SliceExpr:
		return t.sliceExpr(x, e)
	case *ast.StarExpr:
		t.eval(x.X, e)
		return unknown("a value read through a pointer")
	case *ast.CompositeLit:
		return t.composite(x, e)
	case *ast.FuncLit:
		return value{k: kFunc, fn: &closure{lit: x, env: e}}
	case *ast.TypeAssertExpr:
		t.eval(x.X, e)
		return unknown("a type assertion's result")
	case *ast.KeyValueExpr:
		return t.eval(x.Value, e)
	}
	return unknown("an expression the front end does not evaluate")
}

// invalid says whether x's type is invalid: the type checker has been
// quiet about it because it comes from a refused import.
func (t *translator) invalid(x ast.Expr) bool {
	if tv, ok := t.info.Types[x]; ok && tv.Type == types.Typ[types.Invalid] {
		return true
	}
	// The checker records no type for what it has given up on: look at
	// the variable or package the expression starts from.
	for {
		switch y := x.(type) {
		case *ast.SelectorExpr:
			x = y.X
			continue
		case *ast.IndexExpr:
			x = y.X
			continue
		case *ast.ParenExpr:
			x = y.X
			continue
		case *ast.Ident:
			switch obj := t.info.Uses[y].(type) {
			case *types.Var:
				return obj.Type() == types.Typ[types.Invalid]
			case *types.PkgName:
				return t.refusedPkgs[obj.Imported().Path()]
			}
		}
		return false
	}
}

// ofRefusedPackage says whether x is pkg.Name of an import already
// refused.
func (t *translator) ofRefusedPackage(x *ast.SelectorExpr) bool {
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := t.info.Uses[id].(*types.PkgName)
	return ok && t.refusedPkgs[pn.Imported().Path()]
}

func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// evalN evaluates the right side of an assignment of n values: n
// expressions, or one that gives n (a call, v, ok := <-ch, a map read, a
// type assertion).
func (t *translator) evalN(rhs []ast.Expr, n int, e *env) []value {
	if len(rhs) == 1 && n > 1 {
		switch x := ast.Unparen(rhs[0]).(type) {
		case *ast.CallExpr:
			return t.call(x, e)
		case *ast.UnaryExpr:
			v := t.eval(x, e)
			return []value{v, unknown(strings.Replace(v.why, "a value received", "whether a value was received", 1))}
		default:
			v := t.eval(x, e)
			return []value{v, unknown("whether the map held the key, or the assertion held")}
		}
	}
	out := make([]value, len(rhs))
	for i, x := range rhs {
		out[i] = t.eval(x, e)
	}
	return out
}

func (t *translator) ident(x *ast.Ident, e *env) value {
	obj := t.info.Uses[x]
	if obj == nil {
		obj = t.info.Defs[x]
	}
	switch o := obj.(type) {
	case *types.Nil:
		return value{k: kNil}
	case *types.Var:
		if c := e.lookup(o); c != nil {
			return t.read(c, x.Pos())
		}
		if c := t.globals.lookup(o); c != nil {
			return t.read(c, x.Pos())
		}
		return unknown(fmt.Sprintf("the variable %s", x.Name))
	case *types.Func:
		if d := t.funcs[o]; d != nil {
			return value{k: kFunc, fn: &closure{decl: d}}
		}
		return unknown(fmt.Sprintf("the function value %s", x.Name))
	}
	return unknown(x.Name)
}

// use notes that v's value decided something, so that a loop whose
// variable it came from is not the same each time.
func (t *translator) use(v value) {
	for _, d := range v.deps {
		t.used[d] = true
	}
}

func (t *translator) boolOf(v value) (bool, bool) {
	if v.k == kConst && v.c.Kind() == constant.Bool {
		return constant.BoolVal(v.c), true
	}
	return false, false
}

func (t *translator) intOf(v value) (int64, bool) {
	if v.k != kConst {
		return 0, false
	}
	c := v.c
	if c.Kind() == constant.Float {
		c = constant.ToInt(c)
	}
	if c.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c)
}

// need returns an integer the model needs (a count, a capacity, a
// weight), or reports what it depends on.
func (t *translator) need(v value, at token.Pos, what string) (int64, bool) {
	if n, ok := t.intOf(v); ok {
		t.use(v)
		return n, true
	}
	if v.why != "" {
		t.errorf(at, "give it a constant, or "+yamlHint, "%s depends on %s, which cannot be evaluated", what, v.why)
	}
	return 0, false
}

// duration returns a duration the model needs.
func (t *translator) duration(v value, at token.Pos, what string) (gmp.Dur, bool) {
	if v.k == kDur {
		return v.dur, true
	}
	n, ok := t.need(v, at, what)
	if !ok {
		return gmp.Dur{}, false
	}
	if n < 0 {
		n = 0
	}
	return gmp.Fixed(time.Duration(n)), true
}

// chanOf returns the channel v is, or reports why it cannot be known.
func (t *translator) chanOf(v value, x ast.Expr, what string) (int, bool) {
	switch v.k {
	case kChan:
		t.use(v)
		return v.idx, true
	case kNil:
		t.errorf(x.Pos(), "make the channel with make(chan T) first", "%s a nil channel blocks forever, which the model does not model", what)
	case kUnknown:
		if v.why != "" {
			t.errorf(x.Pos(), "keep channels in variables the front end can follow (not in struct fields, maps or pointers)",
				"which channel this is depends on %s, which cannot be evaluated", v.why)
		}
	default:
		t.errorf(x.Pos(), "", "this is not a channel the front end knows")
	}
	return 0, false
}

func (t *translator) binaryExpr(x *ast.BinaryExpr, e *env) value {
	l := t.eval(x.X, e)
	if x.Op == token.LAND || x.Op == token.LOR {
		if b, ok := t.boolOf(l); ok && b == (x.Op == token.LOR) {
			return l
		}
	}
	r := t.eval(x.Y, e)
	return t.binary(x.Op, l, r, x.OpPos, t.info.TypeOf(x))
}

// binary is l op r on values; typ is the result's type, for integer
// division and overflow.
func (t *translator) binary(op token.Token, l, r value, at token.Pos, typ types.Type) value {
	if !l.known() {
		return l.with(r)
	}
	if !r.known() {
		return r.with(l)
	}
	res := unknown("a comparison the front end does not evaluate").with(l, r)
	switch {
	case l.k == kConst && r.k == kConst:
		res = t.constBinary(op, l, r, at, typ).with(l, r)
	case op == token.EQL || op == token.NEQ:
		if eq, ok := sameRef(l, r); ok {
			res = constVal(constant.MakeBool(eq == (op == token.EQL))).with(l, r)
		}
	}
	return res
}

// sameRef compares references: channels, nil, errors, groups.
func sameRef(l, r value) (bool, bool) {
	switch {
	case l.k == kNil && r.k == kNil:
		return true, true
	case l.k == kNil || r.k == kNil:
		return false, true
	case l.k == kChan && r.k == kChan:
		return l.idx == r.idx, true
	case l.k == kSem && r.k == kSem:
		return l.idx == r.idx, true
	case l.k == kGroup && r.k == kGroup:
		return l.grp == r.grp, true
	}
	return false, false
}

func (t *translator) constBinary(op token.Token, l, r value, at token.Pos, typ types.Type) value {
	a, b := l.c, r.c
	// Constants of the program arrive typed; values computed from them
	// are held as untyped numbers, so mixed kinds are brought together.
	if a.Kind() == constant.Int && b.Kind() == constant.Float {
		a = constant.ToFloat(a)
	}
	if a.Kind() == constant.Float && b.Kind() == constant.Int {
		b = constant.ToFloat(b)
	}
	defer func() {
		// go/constant panics on operands it cannot combine; the type
		// checker has kept those out, but a value is never worth a crash.
		if recover() != nil {
			t.errorf(at, "", "this expression is not evaluated")
		}
	}()
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constVal(constant.MakeBool(constant.Compare(a, op, b)))
	case token.SHL, token.SHR:
		n, ok := constant.Uint64Val(constant.ToInt(b))
		if !ok || n > 62 {
			return unknown("a shift too large to evaluate")
		}
		return t.fit(constant.Shift(a, op, uint(n)), at, typ)
	case token.QUO, token.REM:
		if constant.Sign(b) == 0 {
			t.errorf(at, "", "division by zero: the program would panic here")
			return refusedValue
		}
		if op == token.QUO && isInteger(typ) {
			op = token.QUO_ASSIGN // go/constant's integer division
		}
	case token.ADD:
		if a.Kind() == constant.String {
			if len(constant.StringVal(a))+len(constant.StringVal(b)) > maxString {
				return unknown("a string too long to follow")
			}
		}
	}
	return t.fit(constant.BinaryOp(a, op, b), at, typ)
}

func isInteger(typ types.Type) bool {
	if typ == nil {
		return true
	}
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// fit keeps an integer within int64, as the program's arithmetic is:
// beyond it the value wraps, which is not followed.
func (t *translator) fit(c constant.Value, at token.Pos, typ types.Type) value {
	if c.Kind() == constant.Int {
		if _, ok := constant.Int64Val(c); !ok {
			return unknown("a value that overflows")
		}
	}
	if c.Kind() == constant.Float {
		if f, _ := constant.Float64Val(c); math.IsInf(f, 0) {
			return unknown("a value that overflows")
		}
	}
	return constVal(c)
}

func (t *translator) unary(x *ast.UnaryExpr, e *env) value {
	switch x.Op {
	case token.ARROW:
		ch := t.eval(x.X, e)
		i, ok := t.chanOf(ch, x.X, "receive from")
		if !ok {
			return refusedValue
		}
		pos := t.pos(x.OpPos)
		t.emit(item{op: gmp.Op{Kind: gmp.OpRecv, Chan: i, Pos: pos}})
		t.chanOp(i, false)
		return unknown(fmt.Sprintf("a value received from channel %s (%v)", t.chans[i].Name, pos))
	case token.AND:
		if cl, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
			return t.composite(cl, e)
		}
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			if tg := t.targetOf(id, e); tg.c != nil && (tg.c.v.k == kFlag || tg.c.v.k == kMutex || tg.c.v.k == kWG || tg.c.v.k == kChildren) {
				// &done of an atomic.Bool, &mu, &wg: their methods take
				// a pointer, and the flag, mutex or group is the same
				// through it.
				return t.read(tg.c, x.OpPos)
			} else if tg.c != nil {
				// Writes through the pointer are not followed, so the
				// variable is not known from here on.
				t.assign(tg.c, unknown(fmt.Sprintf("%s, whose address is taken at %v", id.Name, t.pos(x.OpPos))))
			}
		} else {
			t.eval(x.X, e)
		}
		return unknown("a pointer")
	}
	v := t.eval(x.X, e)
	if v.k != kConst {
		return v
	}
	defer func() {
		if recover() != nil {
			t.errorf(x.OpPos, "", "this expression is not evaluated")
		}
	}()
	if x.Op == token.XOR && isInteger(t.info.TypeOf(x)) {
		// ^x on a signed integer.
		return t.fit(constant.UnaryOp(token.XOR, v.c, 0), x.OpPos, nil).with(v)
	}
	return t.fit(constant.UnaryOp(x.Op, v.c, 0), x.OpPos, nil).with(v)
}

func (t *translator) sliceExpr(x *ast.SliceExpr, e *env) value {
	base := t.eval(x.X, e)
	lo, hi := value{k: kConst, c: constant.MakeInt64(0)}, value{}
	if x.Low != nil {
		lo = t.eval(x.Low, e)
	}
	if x.High != nil {
		hi = t.eval(x.High, e)
	}
	if x.Max != nil {
		t.eval(x.Max, e)
	}
	if base.k != kSlice || x.Max != nil {
		return unknown("a slice of a value the front end does not follow")
	}
	l, ok1 := t.intOf(lo)
	h := int64(base.sl.len)
	ok2 := true
	if x.High != nil {
		h, ok2 = t.intOf(hi)
	}
	if !ok1 || !ok2 || l < 0 || h < l || h > int64(base.sl.cap) {
		return unknown("a slice with bounds the front end does not evaluate")
	}
	s := &sliceObj{elems: base.sl.elems, off: base.sl.off + int(l), len: int(h - l), cap: base.sl.cap - int(l), owner: base.sl.owner}
	return value{k: kSlice, sl: s}.with(base, lo, hi)
}

// composite evaluates a composite literal: a slice or array of values it
// follows, an errgroup.Group, or something it does not follow.
func (t *translator) composite(x *ast.CompositeLit, e *env) value {
	typ := t.info.TypeOf(x)
	if isNamed(typ, "golang.org/x/sync/errgroup", "Group") {
		return t.newGroup(x.Pos(), false)
	}
	if isNamed(typ, "sync/atomic", "Bool") && len(x.Elts) == 0 {
		return value{k: kFlag, idx: t.newFlag(t.nameHint, x.Pos())}
	}
	if v, ok := t.newSync(typ, t.nameHint, x.Pos()); ok && len(x.Elts) == 0 {
		return v
	}
	switch u := typ.Underlying().(type) {
	case *types.Slice, *types.Array:
		var elems []value
		n := 0
		if a, ok := u.(*types.Array); ok {
			if !t.allocate(a.Len()) {
				return unknown("an array beyond the elements the front end follows")
			}
			n = int(min(a.Len(), maxSlice))
		}
		for _, el := range x.Elts {
			if _, keyed := el.(*ast.KeyValueExpr); keyed {
				for _, el := range x.Elts {
					t.eval(el, e)
				}
				return unknown("a keyed slice literal")
			}
			elems = append(elems, t.eval(el, e))
		}
		var elemType types.Type
		if s, ok := u.(*types.Slice); ok {
			elemType = s.Elem()
		} else {
			elemType = u.(*types.Array).Elem()
		}
		for len(elems) < n {
			elems = append(elems, t.zero(elemType, ""))
		}
		return value{k: kSlice, sl: &sliceObj{elems: elems, len: len(elems), cap: len(elems), owner: t.g}}
	}
	for _, el := range x.Elts {
		t.eval(el, e)
	}
	return unknown("a struct or map value (its contents are not followed)")
}

func isNamed(typ types.Type, pkg, name string) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := typ.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// zero is the zero value of a type, for a variable declared without one.
func (t *translator) zero(typ types.Type, name string) value {
	switch {
	case isNamed(typ, "golang.org/x/sync/errgroup", "Group"):
		if _, ptr := typ.(*types.Pointer); !ptr {
			return t.newGroup(t.at, false)
		}
	case t.generated && name == "children" && isNamed(typ, "sync", "WaitGroup"):
		if _, ptr := typ.(*types.Pointer); !ptr {
			return value{k: kChildren}
		}
	case isNamed(typ, "sync/atomic", "Bool"):
		if _, ptr := typ.(*types.Pointer); !ptr {
			return value{k: kFlag, idx: t.newFlag(name, t.at)}
		}
	}
	if _, ptr := typ.(*types.Pointer); !ptr {
		if v, ok := t.newSync(typ, name, t.at); ok {
			return v
		}
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.Invalid:
			return refusedValue // its type comes from a refused import
		case u.Info()&types.IsBoolean != 0:
			return constVal(constant.MakeBool(false))
		case u.Info()&types.IsString != 0:
			return constVal(constant.MakeString(""))
		case u.Info()&types.IsInteger != 0:
			return constVal(constant.MakeInt64(0))
		case u.Info()&types.IsFloat != 0:
			return constVal(constant.MakeFloat64(0))
		}
	case *types.Chan, *types.Signature, *types.Pointer, *types.Interface, *types.Map, *types.Slice:
		return value{k: kNil}
	case *types.Array:
		if u.Len() <= maxSlice && t.allocate(u.Len()) {
			elems := make([]value, u.Len())
			for i := range elems {
				elems[i] = t.zero(u.Elem(), "")
			}
			return value{k: kSlice, sl: &sliceObj{elems: elems, len: len(elems), cap: len(elems), owner: t.g}}
		}
	}
	return unknown(fmt.Sprintf("%s, a %s (its contents are not followed)", name, types.TypeString(typ, func(p *types.Package) string { return p.Name() })))
}

// --- Calls ---

// calleeKind says what a call calls.
type calleeKind uint8

const (
	cClosure calleeKind = iota
	cAPI
	cBuiltin
	cIntrinsic
	cNone
)

type callee struct {
	kind    calleeKind
	fn      *closure
	api     *types.Func
	recv    value
	builtin string
	// spread is set for f(xs...).
	spread bool
}

// free says whether calling c makes no action (deferred, it does not
// stop runtime.Goexit).
func (c callee) free() bool {
	switch c.kind {
	case cClosure:
		return c.fn.noop
	case cAPI:
		return c.recv.k == kChildren && c.api.Name() != "Wait"
	}
	return false
}

// call evaluates a call expression: a conversion, or a call.
func (t *translator) call(x *ast.CallExpr, e *env) []value {
	if tv, ok := t.info.Types[x.Fun]; ok && tv.IsType() {
		if len(x.Args) != 1 {
			return []value{refusedValue}
		}
		return []value{t.conversion(t.eval(x.Args[0], e), tv.Type)}
	}
	cal, args, ok := t.evalCall(x, e)
	if !ok {
		return t.unknownResults(x)
	}
	return t.apply(cal, args, x)
}

// unknownResults are the results of a call already refused.
func (t *translator) unknownResults(x *ast.CallExpr) []value {
	n := 1
	if tup, ok := t.info.TypeOf(x).(*types.Tuple); ok {
		n = tup.Len()
	}
	out := make([]value, max(n, 1))
	for i := range out {
		out[i] = refusedValue
	}
	return out
}

func (t *translator) conversion(v value, to types.Type) value {
	if v.k != kConst {
		return v
	}
	b, ok := to.Underlying().(*types.Basic)
	if !ok {
		return v
	}
	switch {
	case b.Info()&types.IsInteger != 0 && v.c.Kind() == constant.Float:
		f, _ := constant.Float64Val(v.c)
		if math.IsNaN(f) || math.Abs(f) > math.MaxInt64 {
			return unknown("a conversion that overflows")
		}
		return constVal(constant.MakeInt64(int64(f))).with(v)
	case b.Info()&types.IsFloat != 0 && v.c.Kind() == constant.Int:
		return constVal(constant.ToFloat(v.c)).with(v)
	case b.Info()&types.IsString != 0 && v.c.Kind() == constant.Int:
		return unknown("a string made from a number")
	}
	return v
}

// evalCall evaluates what a call calls and its arguments, in the calling
// goroutine (as a go or defer statement does).
func (t *translator) evalCall(x *ast.CallExpr, e *env) (callee, []value, bool) {
	fun := ast.Unparen(x.Fun)
	if t.invalid(fun) {
		return callee{}, nil, false // it comes from a refused import
	}
	var cal callee
	switch f := fun.(type) {
	case *ast.Ident:
		switch obj := t.info.Uses[f].(type) {
		case *types.Builtin:
			cal = callee{kind: cBuiltin, builtin: obj.Name()}
		case *types.Func:
			if name, ok := t.intrinsics[obj]; ok {
				cal = callee{kind: cIntrinsic, builtin: name}
			} else if d := t.funcs[obj]; d != nil {
				cal = callee{kind: cClosure, fn: &closure{decl: d}}
			}
		default:
			v := t.ident(f, e)
			if v.k != kFunc {
				t.refuseCallee(x, v)
				return cal, nil, false
			}
			cal = callee{kind: cClosure, fn: v.fn}
		}
	case *ast.SelectorExpr:
		if sel := t.info.Selections[f]; sel != nil {
			fn, ok := sel.Obj().(*types.Func)
			if !ok || sel.Kind() != types.MethodVal {
				t.refuseCallee(x, unknown(fmt.Sprintf("the field %s", f.Sel.Name)))
				return cal, nil, false
			}
			if fn.Pkg() != nil && fn.Pkg().Path() == "main" {
				t.refuse(x.Pos(), "method")
				return cal, nil, false
			}
			cal = callee{kind: cAPI, api: fn, recv: t.eval(f.X, e)}
		} else if fn, ok := t.info.Uses[f.Sel].(*types.Func); ok {
			cal = callee{kind: cAPI, api: fn}
		} else if t.ofRefusedPackage(f) {
			return cal, nil, false
		} else {
			t.refuseCallee(x, unknown(fmt.Sprintf("%s.%s", identName(f.X), f.Sel.Name)))
			return cal, nil, false
		}
	case *ast.FuncLit:
		cal = callee{kind: cClosure, fn: &closure{lit: f, env: e}}
	default:
		v := t.eval(fun, e)
		if v.k != kFunc {
			t.refuseCallee(x, v)
			return cal, nil, false
		}
		cal = callee{kind: cClosure, fn: v.fn}
	}
	if cal.kind == cBuiltin && (cal.builtin == "make" || cal.builtin == "new") {
		// The first argument is a type.
		var args []value
		for _, a := range x.Args[1:] {
			args = append(args, t.eval(a, e))
		}
		return cal, args, true
	}
	var args []value
	if len(x.Args) == 1 && cal.kind != cBuiltin {
		if _, multi := t.info.TypeOf(x.Args[0]).(*types.Tuple); multi {
			// f(g()) with g giving several results.
			return cal, t.call(x.Args[0].(*ast.CallExpr), e), true
		}
	}
	for _, a := range x.Args {
		args = append(args, t.eval(a, e))
	}
	cal.spread = x.Ellipsis.IsValid()
	return cal, args, true
}

func (t *translator) refuseCallee(x *ast.CallExpr, v value) {
	if v.why == "" {
		return
	}
	t.errorf(x.Pos(), "call the function by its name, or keep it in a variable", "the function called here depends on %s, which cannot be evaluated", v.why)
}

// apply makes the call: the closure inlined, the API's row, the builtin.
func (t *translator) apply(c callee, args []value, x *ast.CallExpr) []value {
	switch c.kind {
	case cClosure:
		return t.invoke(c.fn, t.packVariadic(c, args), x.Pos())
	case cBuiltin:
		return t.builtin(c.builtin, args, x)
	case cIntrinsic:
		return t.intrinsic(c.builtin, args, x)
	case cAPI:
		return t.callAPI(c, args, x)
	}
	return t.unknownResults(x)
}

// packVariadic gathers the arguments of a variadic closure's last
// parameter into a slice.
func (t *translator) packVariadic(c callee, args []value) []value {
	sig := t.signature(c.fn)
	if sig == nil || !sig.Variadic() || c.spread {
		return args
	}
	n := sig.Params().Len() - 1
	if len(args) < n {
		return args
	}
	rest := append([]value(nil), args[n:]...)
	return append(args[:n:n], value{k: kSlice, sl: &sliceObj{elems: rest, len: len(rest), cap: len(rest), owner: t.g}})
}

func (t *translator) signature(c *closure) *types.Signature {
	if c == nil || c.noop {
		return nil
	}
	var typ types.Type
	if c.decl != nil {
		if obj := t.info.Defs[c.decl.Name]; obj != nil {
			typ = obj.Type()
		}
	} else {
		typ = t.info.TypeOf(c.lit)
	}
	sig, _ := typ.(*types.Signature)
	return sig
}

// invoke inlines a closure: its body runs in a new scope with its
// parameters bound, its deferred calls at its end.
func (t *translator) invoke(c *closure, args []value, at token.Pos) []value {
	if c.noop {
		return nil
	}
	sig := t.signature(c)
	results := func() []value {
		if sig == nil {
			return nil
		}
		out := make([]value, sig.Results().Len())
		for i := range out {
			out[i] = refusedValue
		}
		return out
	}
	if c.decl != nil && c.decl.Recv != nil {
		t.refuse(at, "method")
		return results()
	}
	if c.body() == nil {
		t.errorf(c.decl.Pos(), "give it a body", "func %s has no body: the front end reads functions written in Go", c.name())
		return results()
	}
	var key any = c.decl
	if c.decl == nil {
		key = c.lit
	}
	for i, s := range t.stack {
		if s.key == key {
			var names []string
			for _, s := range t.stack[i:] {
				names = append(names, s.name)
			}
			names = append(names, c.name())
			t.errorf(at, lookup("recursion").Hint, "%s: %s", lookup("recursion").Becomes, strings.Join(names, " → "))
			return results()
		}
	}
	if len(t.stack) >= maxDepth {
		t.errorf(at, "", "calls nested more than %d deep", maxDepth)
		return results()
	}
	t.stack = append(t.stack, stackEntry{key: key, name: c.name()})
	defer func() { t.stack = t.stack[:len(t.stack)-1] }()

	parent := c.env
	if parent == nil {
		parent = t.globals
	}
	fe := newEnv(parent)
	fr := &frame{name: c.name(), sig: sig}
	ft := c.funcType()
	i := 0
	for _, field := range ft.Params.List {
		names := field.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, id := range names {
			v := refusedValue
			if i < len(args) {
				v = args[i]
			}
			i++
			if obj := t.info.Defs[id]; obj != nil && id.Name != "_" {
				t.declare(fe, obj, v)
			}
		}
	}
	if ft.Results != nil {
		for _, field := range ft.Results.List {
			for _, id := range field.Names {
				if obj := t.info.Defs[id]; obj != nil {
					fr.named = append(fr.named, t.declare(fe, obj, t.zero(obj.Type(), id.Name)))
				}
			}
		}
	}
	saveFr := t.fr
	t.fr = fr
	t.stmts(c.body().List, fe)
	t.label = ""
	for i := len(fr.defers) - 1; i >= 0 && !t.g.exited && !t.aborted; i-- {
		d := fr.defers[i]
		if !d.free {
			t.g.pendingDefers--
		}
		t.apply(d.callee, d.args, d.call)
	}
	t.fr = saveFr
	out := results()
	if len(fr.named) > 0 {
		for i, c := range fr.named {
			if i < len(out) {
				out[i] = c.v
			}
		}
	} else {
		for i, v := range fr.results {
			if i < len(out) {
				out[i] = v
			}
		}
	}
	return out
}

// builtin calls one of Go's builtins.
func (t *translator) builtin(name string, args []value, x *ast.CallExpr) []value {
	switch name {
	case "make":
		return []value{t.makeValue(x, args)}
	case "new":
		if isNamed(t.info.TypeOf(x.Args[0]), "golang.org/x/sync/errgroup", "Group") {
			return []value{t.newGroup(x.Pos(), false)}
		}
		if isNamed(t.info.TypeOf(x.Args[0]), "sync/atomic", "Bool") {
			return []value{{k: kFlag, idx: t.newFlag(t.nameHint, x.Pos())}}
		}
		if v, ok := t.newSync(t.info.TypeOf(x.Args[0]), t.nameHint, x.Pos()); ok {
			return []value{v}
		}
		return []value{unknown("a pointer")}
	case "close":
		if i, ok := t.chanOf(args[0], x.Args[0], "close of"); ok {
			t.emit(item{op: gmp.Op{Kind: gmp.OpClose, Chan: i, Pos: t.pos(x.Pos())}})
			t.release(syncKey{syncSend, i})
		}
		return nil
	case "len", "cap":
		v := args[0]
		switch v.k {
		case kSlice:
			n := v.sl.len
			if name == "cap" {
				n = v.sl.cap
			}
			return []value{constVal(constant.MakeInt64(int64(n))).with(v)}
		case kNil:
			return []value{constVal(constant.MakeInt64(0))}
		case kChan:
			if name == "cap" {
				return []value{constVal(constant.MakeInt64(int64(t.chans[v.idx].Cap)))}
			}
			return []value{unknown(fmt.Sprintf("len(%s): how many values the channel holds, decided as the program runs", t.chans[v.idx].Name))}
		case kConst:
			if v.c.Kind() == constant.String {
				return []value{constVal(constant.MakeInt64(int64(len(constant.StringVal(v.c))))).with(v)}
			}
		}
		return []value{unknown(v.why)}
	case "append":
		return []value{t.appendValue(args, x)}
	case "min", "max":
		res := args[0]
		for _, a := range args[1:] {
			less := t.binary(token.LSS, a, res, x.Pos(), nil)
			b, ok := t.boolOf(less)
			if !ok {
				return []value{unknown(less.why)}
			}
			if b == (name == "min") {
				res = a.with(res)
			} else {
				res = res.with(a)
			}
		}
		return []value{res}
	case "panic":
		t.refuse(x.Pos(), "panic")
		return nil
	case "print", "println":
		t.builtinPrint(name, args, x)
		return nil
	case "recover":
		return []value{unknown("recover's result")}
	case "copy", "delete", "clear":
		return []value{unknown("copy's result")}
	}
	return []value{unknown(name + "'s result")}
}

func (t *translator) makeValue(x *ast.CallExpr, args []value) value {
	typ := t.info.TypeOf(x.Args[0])
	switch u := typ.Underlying().(type) {
	case *types.Chan:
		capacity := int64(0)
		if len(args) > 0 {
			n, ok := t.need(args[0], x.Args[1].Pos(), "the channel's capacity")
			if !ok {
				return refusedValue
			}
			if n < 0 {
				t.errorf(x.Args[1].Pos(), "", "a negative capacity: make would panic here")
				return refusedValue
			}
			capacity = n
		}
		name := t.declName(t.nameHint, "ch", "ch_")
		t.chans = append(t.chans, gmp.ChanDecl{Name: name, Cap: int(min(capacity, math.MaxInt32)), Pos: t.pos(x.Pos())})
		t.creations++
		return value{k: kChan, idx: len(t.chans) - 1}
	case *types.Slice:
		n, ok := int64(0), true
		if len(args) > 0 {
			n, ok = t.intOf(args[0])
		}
		c := n
		if len(args) > 1 {
			var ok2 bool
			c, ok2 = t.intOf(args[1])
			ok = ok && ok2
		}
		if !ok || n < 0 || c < n || c > maxSlice {
			return unknown("a slice whose length is not known")
		}
		if !t.allocate(c) {
			return unknown("a slice beyond the elements the front end follows")
		}
		t.creations++
		elems := make([]value, c)
		for i := range elems {
			elems[i] = t.zero(u.Elem(), "")
		}
		return value{k: kSlice, sl: &sliceObj{elems: elems, len: int(n), cap: int(c), owner: t.g}}
	}
	return unknown("a map (its contents are not followed)")
}

func (t *translator) appendValue(args []value, x *ast.CallExpr) value {
	base := args[0]
	var add []value
	if x.Ellipsis.IsValid() && len(args) == 2 {
		switch args[1].k {
		case kSlice:
			for i := 0; i < args[1].sl.len; i++ {
				add = append(add, args[1].sl.at(i))
			}
		case kNil:
		default:
			return unknown("a slice whose contents are not known")
		}
	} else {
		add = args[1:]
	}
	switch base.k {
	case kNil:
		base = value{k: kSlice, sl: &sliceObj{owner: t.g}}
	case kSlice:
	default:
		return unknown("a slice whose contents are not known")
	}
	s := base.sl
	n := s.len + len(add)
	if n > maxSlice {
		return unknown("a slice too long to follow")
	}
	t.creations++
	if n <= s.cap {
		// Room in the backing array: append writes into it, as Go does.
		copy(s.elems[s.off+s.len:], add)
		return value{k: kSlice, sl: &sliceObj{elems: s.elems, off: s.off, len: n, cap: s.cap, owner: s.owner}}
	}
	c := max(2*s.cap, n)
	if !t.allocate(int64(c)) {
		return unknown("a slice beyond the elements the front end follows")
	}
	elems := make([]value, c)
	copy(elems, s.elems[s.off:s.off+s.len])
	copy(elems[s.len:], add)
	return value{k: kSlice, sl: &sliceObj{elems: elems, len: n, cap: c, owner: t.g}}
}

// allocate counts n elements of slices and arrays against maxElements:
// a loop written out that makes a slice each time must not take the
// machine's memory.
func (t *translator) allocate(n int64) bool {
	if n < 0 || t.elements+n > maxElements {
		return false
	}
	t.elements += n
	return true
}

// declName names a channel, semaphore or pool after the variable it is
// assigned to (hint), or after what it is; a name already taken gets _2,
// _3, …. In a program schedlab real wrote, the variables are the
// scenario's names with a prefix (ch_done), which is taken off.
func (t *translator) declName(hint, fallback, prefix string) string {
	name := hint
	if t.generated {
		if rest, ok := strings.CutPrefix(hint, prefix); ok {
			name = unspell(rest)
		}
	}
	if name == "" || name == "_" {
		name = fallback
	}
	base := name
	for k := t.nextSuffix[prefix+base]; t.names[prefix+name]; k++ {
		name = fmt.Sprintf("%s_%d", base, k+2)
		t.nextSuffix[prefix+base] = k + 1
	}
	t.names[prefix+name] = true
	return name
}

// unspell reads back a name realprog's spell wrote: _uXXXX is the code
// point; - was written as _, which stays.
func unspell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], "_u") && i+6 <= len(s) {
			if r, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(r))
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newSync makes the sync.Mutex, RWMutex or WaitGroup a variable of type
// typ holds (the zero value is ready to use), named after name. A
// generated program's children WaitGroup is not one: zero makes it
// kChildren first.
func (t *translator) newSync(typ types.Type, name string, at token.Pos) (value, bool) {
	switch {
	case isNamed(typ, "sync", "Mutex"), isNamed(typ, "sync", "RWMutex"):
		rw := isNamed(typ, "sync", "RWMutex")
		t.mutexes = append(t.mutexes, gmp.MutexDecl{Name: t.declName(name, "mu", "mu_"), RW: rw, Pos: t.pos(at)})
		t.creations++
		return value{k: kMutex, idx: len(t.mutexes) - 1}, true
	case isNamed(typ, "sync", "WaitGroup"):
		t.wgs = append(t.wgs, gmp.WaitGroupDecl{Name: t.declName(name, "wg", "wg_"), Pos: t.pos(at)})
		t.creations++
		return value{k: kWG, idx: len(t.wgs) - 1}, true
	}
	return value{}, false
}
