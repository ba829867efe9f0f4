package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
)

// The statements: each is run abstractly, and what the model sees of it
// is emitted as items of the current goroutine's program.

type ctl uint8

const (
	ctlNext ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
	ctlFallthrough
	// ctlExit: nothing more runs in this goroutine (os.Exit, Goexit, or
	// the translation gave up).
	ctlExit
)

// itemKind says what an item is: an action, or a piece of one that the
// end of the translation puts together.
type itemKind uint8

const (
	iOp        itemKind = iota // op (with body, for go, loop and submit)
	iPlain                     // plain code: units of CPU work, merged with its neighbours
	iGroupGo                   // one g.Go of group grp
	iGroupWait                 // g.Wait of group grp
	iRange                     // a range over a channel, counted at the end
	iRelease                   // a pool's Release: only as main's last act
)

type item struct {
	kind  itemKind
	op    gmp.Op
	body  []item
	units float64
	grp   *group
	rng   *rangeInfo
	// mayReject marks a submit to a pool that may reject the task.
	mayReject bool
	// cases are a select's case bodies, one for each of op.Cases.
	cases [][]item
}

// rangeInfo is a range over a channel, whose iterations are the values
// sent on it, counted once the whole program is read.
type rangeInfo struct {
	ch       int
	pos      gmp.Pos
	count    int64
	resolved bool
}

func (t *translator) emit(it item) {
	*t.out = append(*t.out, it)
	if t.g.main && it.kind != iPlain {
		t.started = true
	}
}

// plain charges units of plain code.
func (t *translator) plain(p token.Pos, units float64) {
	if units <= 0 {
		return
	}
	t.emit(item{kind: iPlain, units: units, op: gmp.Op{Kind: gmp.OpCPU, Pos: t.pos(p)}})
}

// capture runs fn with the items it emits collected apart.
func (t *translator) capture(fn func()) []item {
	save := t.out
	var buf []item
	t.out = &buf
	fn()
	t.out = save
	return buf
}

// simulate runs the program: the package's variables, its init
// functions and main, as goroutine 1.
func (t *translator) simulate(f *ast.File, mainFn *ast.FuncDecl) {
	t.globals = newEnv(nil)
	t.g = &gor{id: 1, main: true}
	t.gors = 1
	t.out = &t.main
	if t.generated {
		t.generatedMain(mainFn)
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			for _, id := range spec.(*ast.ValueSpec).Names {
				if obj := t.info.Defs[id]; obj != nil {
					t.at = id.Pos()
					t.declare(t.globals, obj, t.zero(obj.Type(), id.Name))
				}
			}
		}
	}
	for _, in := range t.info.InitOrder {
		if len(in.Lhs) == 1 {
			t.nameHint = in.Lhs[0].Name()
		}
		vals := t.evalN([]ast.Expr{in.Rhs}, len(in.Lhs), t.globals)
		t.nameHint = ""
		for i, l := range in.Lhs {
			if c := t.globals.lookup(l); c != nil && i < len(vals) {
				t.assign(c, vals[i])
			}
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && !t.aborted {
			t.invoke(&closure{decl: fd}, nil, fd.Pos())
		}
	}
	if !t.aborted && !t.g.exited {
		t.invoke(&closure{decl: mainFn}, nil, mainFn.Pos())
	}
}

// declare makes a variable in e.
func (t *translator) declare(e *env, obj types.Object, v value) *cell {
	t.serial++
	c := &cell{v: v, obj: obj, owner: t.g, born: t.serial}
	e.vars[obj] = c
	if t.flagVars[obj] {
		// One variable, one flag: a flag declared in a function that
		// runs twice would be two variables the model cannot tell apart.
		if t.flagDeclared[obj] {
			t.refuse(obj.Pos(), "flag misuse", fmt.Sprintf("the flag %s is declared again (the function or loop that declares it runs more than once): the model would read both variables as one flag", obj.Name()))
		}
		t.flagDeclared[obj] = true
		if b, ok := t.boolOf(v); ok && b {
			t.flagWrite(c, v)
		}
	}
	return c
}

// assign writes a variable. A goroutine's write to a variable of
// another is a race the front end cannot order: from then on the value
// is not known to anyone, and a goroutine that read it before is an
// error (which value it saw is decided as the program runs).
func (t *translator) assign(c *cell, v value) {
	if t.watch > 0 {
		t.writes = append(t.writes, c)
	}
	for _, r := range c.readers {
		if r.g != t.g {
			t.errorf(r.at, "pass the value as an argument of the go statement, or send it on a channel",
				"%s is read here by one goroutine and written at %v by another: which value is read is decided as the program runs", c.obj.Name(), t.posOfWrite())
			c.readers = nil
			break
		}
	}
	t.flagWrite(c, v)
	if c.owner != t.g {
		t.publish(c, v)
		v = unknown(fmt.Sprintf("%s, which another goroutine writes", c.obj.Name()))
	} else {
		c.pub = nil
	}
	c.v = v
}

// posOfWrite is where the statement being run is, for messages.
func (t *translator) posOfWrite() gmp.Pos { return t.pos(t.at) }

// read reads a variable, noting a goroutine's read of another's.
func (t *translator) read(c *cell, at token.Pos) value {
	v := c.v
	if !v.known() {
		if pv, ok := t.seen(c, at); ok {
			v = pv
		}
	}
	if c.owner != t.g && v.known() && len(c.readers) < 4 {
		seen := false
		for _, r := range c.readers {
			seen = seen || r.g == t.g
		}
		if !seen {
			c.readers = append(c.readers, reader{g: t.g, at: at})
		}
	}
	if c.loop != 0 {
		v.deps = append(v.deps[:len(v.deps):len(v.deps)], c.loop)
	}
	return v
}

// block runs a list of statements in a scope of its own.
func (t *translator) block(b *ast.BlockStmt, e *env) ctl {
	if b == nil {
		return ctlNext
	}
	return t.stmts(b.List, newEnv(e))
}

func (t *translator) stmts(list []ast.Stmt, e *env) ctl {
	for _, s := range list {
		if c := t.stmt(s, e, ""); c != ctlNext {
			return c
		}
		if t.g.exited || t.aborted {
			return ctlExit
		}
	}
	return ctlNext
}

func (t *translator) stmt(s ast.Stmt, e *env, label string) ctl {
	if t.skip[s] {
		return ctlNext
	}
	t.steps++
	if t.steps > maxSteps {
		if !t.aborted {
			t.errorf(s.Pos(), "make the loops shorter or the calls fewer, or write the scenario in YAML",
				"the program takes more than %d steps to read (loops written out, calls inlined)", maxSteps)
			t.aborted = true
		}
		return ctlExit
	}
	t.at = s.Pos()
	switch s := s.(type) {
	case *ast.EmptyStmt:
	case *ast.ExprStmt:
		t.exprStmt(s, e)
	case *ast.SendStmt:
		ch := t.eval(s.Chan, e)
		t.eval(s.Value, e)
		if i, ok := t.chanOf(ch, s.Chan, "send on"); ok {
			t.emit(item{op: gmp.Op{Kind: gmp.OpSend, Chan: i, Pos: t.pos(s.Pos())}})
			t.chanOp(i, true)
		}
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		t.opAssign(s.X, op, constVal(constant.MakeInt64(1)), e)
		t.plain(s.Pos(), 1)
	case *ast.AssignStmt:
		t.assignStmt(s, e)
	case *ast.DeclStmt:
		t.declStmt(s, e)
	case *ast.GoStmt:
		t.goStmt(s, e)
	case *ast.DeferStmt:
		t.deferStmt(s, e)
	case *ast.ReturnStmt:
		return t.returnStmt(s, e)
	case *ast.BlockStmt:
		return t.block(s, e)
	case *ast.IfStmt:
		return t.ifStmt(s, e)
	case *ast.SwitchStmt:
		return t.switchStmt(s, e, label)
	case *ast.TypeSwitchStmt:
		t.refuse(s.Pos(), "type switch")
	case *ast.ForStmt:
		return t.forStmt(s, e, label)
	case *ast.RangeStmt:
		return t.rangeStmt(s, e, label)
	case *ast.SelectStmt:
		return t.selectStmt(s, e, label)
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			t.refuse(s.Pos(), "goto")
			return ctlNext
		case token.FALLTHROUGH:
			return ctlFallthrough
		}
		t.label = ""
		if s.Label != nil {
			t.label = s.Label.Name
		}
		if s.Tok == token.BREAK {
			return ctlBreak
		}
		return ctlContinue
	case *ast.LabeledStmt:
		return t.stmt(s.Stmt, e, s.Label.Name)
	default:
		t.errorf(s.Pos(), "", "this statement (%T) is not read", s)
	}
	return ctlNext
}

// loopEnd handles a loop body's ctl: whether the loop stops, and what
// the loop statement returns.
func (t *translator) loopEnd(c ctl, label string) (stop bool, out ctl) {
	switch c {
	case ctlBreak:
		if t.label == "" || t.label == label {
			t.label = ""
			return true, ctlNext
		}
		return true, ctlBreak
	case ctlContinue:
		if t.label == "" || t.label == label {
			t.label = ""
			return false, ctlNext
		}
		return true, ctlContinue
	case ctlReturn, ctlExit:
		return true, c
	}
	return false, ctlNext
}

func (t *translator) exprStmt(s *ast.ExprStmt, e *env) {
	switch x := ast.Unparen(s.X).(type) {
	case *ast.CallExpr:
		t.eval(x, e)
	case *ast.UnaryExpr:
		t.eval(x, e)
	default:
		t.eval(x, e)
	}
}

// target is where an assignment writes: a variable, a slice element, or
// somewhere the front end does not follow (a field, a map, a pointer).
type target struct {
	c     *cell
	sl    *sliceObj
	index int
	blank bool
}

func (t *translator) targetOf(x ast.Expr, e *env) target {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		if x.Name == "_" {
			return target{blank: true}
		}
		obj := t.info.Uses[x]
		if obj == nil {
			obj = t.info.Defs[x]
		}
		if c := e.lookup(obj); c != nil {
			return target{c: c}
		}
		if c := t.globals.lookup(obj); c != nil {
			return target{c: c}
		}
	case *ast.IndexExpr:
		base := t.eval(x.X, e)
		idx := t.eval(x.Index, e)
		if base.k == kSlice {
			if i, ok := t.intOf(idx); ok && i >= 0 && i < int64(base.sl.len) {
				return target{sl: base.sl, index: int(i)}
			}
		}
	case *ast.SelectorExpr, *ast.StarExpr:
		// A field or a pointer's target: written, not followed.
		if sel, ok := x.(*ast.SelectorExpr); ok {
			t.eval(sel.X, e)
		}
	}
	return target{blank: true}
}

func (t *translator) store(tg target, v value) {
	switch {
	case tg.c != nil:
		t.assign(tg.c, v)
	case tg.sl != nil:
		t.storeElem(tg.sl, tg.index, v)
	}
}

func (t *translator) load(tg target, at token.Pos) value {
	switch {
	case tg.c != nil:
		return t.read(tg.c, at)
	case tg.sl != nil:
		return t.elemAt(tg.sl, tg.index, at)
	}
	return unknown("a value the front end does not follow (a field, a map entry, a pointer's target)")
}

// opAssign is x op= v.
func (t *translator) opAssign(x ast.Expr, op token.Token, v value, e *env) {
	tg := t.targetOf(x, e)
	if tg.blank {
		return
	}
	old := t.load(tg, x.Pos())
	t.store(tg, t.binary(op, old, v, x.Pos(), t.info.TypeOf(x)))
}

func (t *translator) assignStmt(s *ast.AssignStmt, e *env) {
	if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		// x += y and the like.
		v := t.eval(s.Rhs[0], e)
		t.opAssign(s.Lhs[0], assignOp(s.Tok), v, e)
		if t.isPlainStmt(s) {
			t.plain(s.Pos(), 1)
		}
		return
	}
	if len(s.Rhs) == 1 {
		// ch := make(…) and p, err := ants.NewPool(…) name what they
		// make after their first variable.
		if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			t.nameHint = id.Name
		}
	}
	var tgs []target
	if s.Tok == token.ASSIGN {
		// The operands on the left are evaluated first (index
		// expressions), then the right, then the writes.
		for _, l := range s.Lhs {
			tgs = append(tgs, t.targetOf(l, e))
		}
	}
	vals := t.evalN(s.Rhs, len(s.Lhs), e)
	t.nameHint = ""
	for i, l := range s.Lhs {
		v := refusedValue
		if i < len(vals) {
			v = vals[i]
		}
		if s.Tok == token.DEFINE {
			id := l.(*ast.Ident)
			if id.Name == "_" {
				continue
			}
			if obj := t.info.Defs[id]; obj != nil {
				t.declare(e, obj, v)
				continue
			}
			t.store(t.targetOf(id, e), v)
			continue
		}
		t.store(tgs[i], v)
	}
	if t.isPlainStmt(s) && !allBlank(s.Lhs) && !t.setsFlag(s.Lhs) {
		t.plain(s.Pos(), 1)
	}
}

// setsFlag says whether an assignment writes a flag's variable: its set:
// is what it costs.
func (t *translator) setsFlag(lhs []ast.Expr) bool {
	for _, l := range lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && t.flagVars[t.info.Uses[id]] {
			return true
		}
	}
	return false
}

// allBlank says whether an assignment only discards (_ = x keeps the
// compiler quiet, and compiles to nothing).
func allBlank(lhs []ast.Expr) bool {
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

func assignOp(tok token.Token) token.Token {
	switch tok {
	case token.ADD_ASSIGN:
		return token.ADD
	case token.SUB_ASSIGN:
		return token.SUB
	case token.MUL_ASSIGN:
		return token.MUL
	case token.QUO_ASSIGN:
		return token.QUO
	case token.REM_ASSIGN:
		return token.REM
	case token.AND_ASSIGN:
		return token.AND
	case token.OR_ASSIGN:
		return token.OR
	case token.XOR_ASSIGN:
		return token.XOR
	case token.SHL_ASSIGN:
		return token.SHL
	case token.SHR_ASSIGN:
		return token.SHR
	case token.AND_NOT_ASSIGN:
		return token.AND_NOT
	}
	return token.ILLEGAL
}

func (t *translator) declStmt(s *ast.DeclStmt, e *env) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return // constants and types: go/types has them
	}
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			for _, id := range vs.Names {
				if obj := t.info.Defs[id]; obj != nil && id.Name != "_" {
					t.declare(e, obj, t.zero(obj.Type(), id.Name))
				}
			}
			continue
		}
		if len(vs.Names) == 1 {
			t.nameHint = vs.Names[0].Name
		}
		vals := t.evalN(vs.Values, len(vs.Names), e)
		t.nameHint = ""
		for i, id := range vs.Names {
			if obj := t.info.Defs[id]; obj != nil && id.Name != "_" && i < len(vals) {
				t.declare(e, obj, vals[i])
			}
		}
		if isPlainValues(t, vs.Values) {
			t.plain(vs.Pos(), 1)
		}
	}
}

func (t *translator) goStmt(s *ast.GoStmt, e *env) {
	cal, args, ok := t.evalCall(s.Call, e)
	if !ok {
		return
	}
	body := t.newGoroutine(func() { t.apply(cal, args, s.Call) })
	t.emit(item{op: gmp.Op{Kind: gmp.OpGo, Count: 1, Pos: t.pos(s.Go)}, body: body})
}

// newGoroutine runs fn as a new goroutine and returns its program.
func (t *translator) newGoroutine(fn func()) []item {
	t.gors++
	saveG, saveFr, saveLabel := t.g, t.fr, t.label
	t.g = &gor{id: t.gors}
	t.fr = nil
	body := t.capture(fn)
	t.g, t.fr, t.label = saveG, saveFr, saveLabel
	return body
}

func (t *translator) deferStmt(s *ast.DeferStmt, e *env) {
	cal, args, ok := t.evalCall(s.Call, e)
	if !ok || t.fr == nil {
		return
	}
	d := deferred{call: s.Call, callee: cal, args: args, free: cal.free()}
	if !d.free {
		t.g.pendingDefers++
	}
	t.fr.defers = append(t.fr.defers, d)
}

func (t *translator) returnStmt(s *ast.ReturnStmt, e *env) ctl {
	if t.fr == nil {
		return ctlReturn
	}
	if len(s.Results) > 0 {
		vals := t.evalN(s.Results, t.fr.sig.Results().Len(), e)
		if len(t.fr.named) > 0 {
			for i, c := range t.fr.named {
				if i < len(vals) {
					t.assign(c, vals[i])
				}
			}
		} else {
			t.fr.results = vals
		}
	}
	return ctlReturn
}

func (t *translator) ifStmt(s *ast.IfStmt, e *env) ctl {
	ie := newEnv(e)
	if s.Init != nil {
		if c := t.stmt(s.Init, ie, ""); c != ctlNext {
			return c
		}
	}
	cond := t.eval(s.Cond, ie)
	if b, ok := t.boolOf(cond); ok {
		t.use(cond)
		if b {
			return t.block(s.Body, ie)
		}
		if s.Else != nil {
			return t.stmt(s.Else, ie, "")
		}
		return ctlNext
	}
	// A condition that cannot be evaluated is harmless when neither
	// branch does anything the model sees (an error checked and
	// dropped, a WaitGroup count in a program schedlab real wrote).
	if t.effectFree(func() ctl { return t.block(s.Body, ie) }) &&
		(s.Else == nil || t.effectFree(func() ctl { return t.stmt(s.Else, ie, "") })) {
		return ctlNext
	}
	t.refuseUnknown(s.Cond.Pos(), "condition", cond)
	return ctlNext
}

// effectFree runs fn aside and says whether it did nothing the model or
// the rest of the program sees: no action, no write to a variable from
// outside, nothing made, no jump.
func (t *translator) effectFree(fn func() ctl) bool {
	mark, w0, c0 := t.serial, len(t.writes), t.creations
	t.watch++
	var c ctl
	buf := t.capture(func() { c = fn() })
	t.watch--
	free := c == ctlNext && t.creations == c0 && !t.wroteOutside(w0, mark, 0)
	for _, it := range buf {
		if it.kind != iPlain {
			free = false
		}
	}
	if t.watch == 0 {
		t.writes = t.writes[:0]
	}
	return free
}

// wroteOutside says whether a write since w0 went to a variable born
// before mark, or to loop's own variable.
func (t *translator) wroteOutside(w0, mark, loop int) bool {
	for _, c := range t.writes[w0:] {
		if c.born <= mark || (loop != 0 && c.loop == loop) {
			return true
		}
	}
	return false
}

// refuseUnknown reports a decision taken on a value that is not known,
// with what it depends on. A value whose construct was already refused
// says nothing more.
func (t *translator) refuseUnknown(p token.Pos, id string, v value) {
	if v.why == "" {
		return
	}
	t.refuse(p, id, v.why)
}

func (t *translator) switchStmt(s *ast.SwitchStmt, e *env, label string) ctl {
	se := newEnv(e)
	if s.Init != nil {
		if c := t.stmt(s.Init, se, ""); c != ctlNext {
			return c
		}
	}
	tag := constVal(constant.MakeBool(true))
	hasTag := s.Tag != nil
	if hasTag {
		tag = t.eval(s.Tag, se)
	}
	clauses := s.Body.List
	chosen, def := -1, -1
search:
	for i, st := range clauses {
		cc := st.(*ast.CaseClause)
		if cc.List == nil {
			def = i
			continue
		}
		for _, x := range cc.List {
			v := t.eval(x, se)
			var match value
			if hasTag {
				match = t.binary(token.EQL, tag, v, x.Pos(), nil)
			} else {
				match = v
			}
			b, ok := t.boolOf(match)
			if !ok {
				t.refuseUnknown(x.Pos(), "condition", match)
				return ctlNext
			}
			t.use(match)
			if b {
				chosen = i
				break search
			}
		}
	}
	if chosen < 0 {
		chosen = def
	}
	if chosen < 0 {
		return ctlNext
	}
	for i := chosen; i < len(clauses); i++ {
		c := t.stmts(clauses[i].(*ast.CaseClause).Body, newEnv(se))
		if c == ctlFallthrough {
			continue
		}
		if c == ctlBreak && (t.label == "" || t.label == label) {
			t.label = ""
			return ctlNext
		}
		return c
	}
	return ctlNext
}

// --- Loops ---

// forStmt runs a three-clause (or condition-only) loop: as CPU work
// when its body is plain arithmetic, as a loop: when each iteration does
// the same, else iteration by iteration.
func (t *translator) forStmt(s *ast.ForStmt, e *env, label string) ctl {
	if s.Cond == nil && !leaves(s.Body, label) {
		return t.unboundedLoop(s, e, label, gmp.LoopForever, -1)
	}
	if f, ok := t.flagLoop(s, e); ok {
		if f < 0 {
			t.readAside(nil, s.Body, e)
			return ctlNext
		}
		return t.unboundedLoop(s, e, label, gmp.LoopUntil, f)
	}
	if t.isPlainLoop(s) {
		t.busyLoop(s, e)
		return ctlNext
	}
	header := newEnv(e)
	if c := t.loopInit(s.Init, header); c != ctlNext {
		return c
	}
	vars := loopVars(t, s.Init)
	count := func() (int64, bool) { return t.countFor(s, header, vars) }
	return t.loop(s.For, label, s.Body, header, vars, -1, count,
		func(int64) (bool, bool, value) {
			if s.Cond == nil {
				return true, true, value{}
			}
			c := t.eval(s.Cond, header)
			b, ok := t.boolOf(c)
			return b, ok, c
		},
		func() {
			// The loop's own step costs nothing beyond its body.
			if s.Post != nil {
				t.capture(func() { t.stmt(s.Post, header, "") })
			}
		}, nil)
}

// loopInit runs a for statement's init: the loop's own machinery, whose
// plain code costs nothing beyond the body.
func (t *translator) loopInit(init ast.Stmt, header *env) ctl {
	if init == nil {
		return ctlNext
	}
	var c ctl
	for _, it := range t.capture(func() { c = t.stmt(init, header, "") }) {
		if it.kind != iPlain {
			t.emit(it)
		}
	}
	return c
}

// loopVars are the variables a for statement's init declares.
func loopVars(t *translator, init ast.Stmt) []types.Object {
	as, ok := init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return nil
	}
	var out []types.Object
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if obj := t.info.Defs[id]; obj != nil {
				out = append(out, obj)
			}
		}
	}
	return out
}

// loop is the engine every loop runs on. The first iteration is
// translated aside; when it used nothing of the loop's variables, wrote
// nothing outside its body, made nothing and did not jump, every
// iteration does the same and the loop becomes loop: {times: N}. Else
// the iterations are written out one by one, up to maxUnroll.
//
// known, if not negative, is the number of iterations (a range); count
// computes it otherwise. cond decides each iteration; bind sets the
// per-iteration variables of a range.
func (t *translator) loop(at token.Pos, label string, body *ast.BlockStmt, header *env, vars []types.Object, known int64,
	count func() (int64, bool), cond func(iter int64) (bool, bool, value), post func(), bind func(iter int64, ie *env)) ctl {
	t.loops++
	id := t.loops
	for iter := int64(0); ; iter++ {
		if t.aborted || t.g.exited {
			return ctlExit
		}
		b, ok, cv := cond(iter)
		if !ok {
			t.refuseLoopBound(at, cv)
			return ctlNext
		}
		if !b {
			return ctlNext
		}
		if iter == maxUnroll {
			t.errorf(at, "make each iteration do the same (the loop is then one loop: action), or write the scenario in YAML",
				"this loop's iterations differ, and it runs more than %d times: too many to write out", maxUnroll)
			return ctlNext
		}
		mark := t.serial
		ie := newEnv(header)
		for _, obj := range vars {
			if hc := header.vars[obj]; hc != nil {
				c := t.declare(ie, obj, hc.v)
				c.loop = id
			}
		}
		if bind != nil {
			bind(iter, ie)
			for _, c := range ie.vars {
				c.loop = id
			}
		}
		var c ctl
		if iter == 0 {
			w0, c0 := len(t.writes), t.creations
			t.watch++
			delete(t.used, id)
			buf := t.capture(func() { c = t.block(body, ie) })
			t.watch--
			same := c == ctlNext && !t.used[id] && t.creations == c0 && !t.wroteOutside(w0, mark, id)
			if t.watch == 0 {
				t.writes = t.writes[:0]
			}
			if same {
				n, ok := known, known >= 0
				if !ok {
					copyBack(header, ie, vars)
					post()
					errs := len(t.errs)
					n, ok = count()
					n++
					if len(t.errs) > errs {
						return ctlNext
					}
				}
				if ok {
					if n > 0 && len(buf) > 0 {
						t.emit(item{op: gmp.Op{Kind: gmp.OpLoop, Count: int(min(n, 1<<40)), Pos: t.pos(at)}, body: buf})
					}
					return ctlNext
				}
				// The count has no closed form: write the iterations out
				// (post already ran).
				for _, it := range buf {
					t.emit(it)
				}
				continue
			}
			for _, it := range buf {
				t.emit(it)
			}
		} else {
			c = t.block(body, ie)
		}
		if stop, out := t.loopEnd(c, label); stop {
			return out
		}
		copyBack(header, ie, vars)
		post()
	}
}

// copyBack carries the per-iteration variables into the loop's header
// for its post statement (Go 1.22: each iteration has its own copy).
func copyBack(header, ie *env, vars []types.Object) {
	for _, obj := range vars {
		if c, hc := ie.vars[obj], header.vars[obj]; c != nil && hc != nil {
			v := c.v
			v.deps = nil
			hc.v = v
		}
	}
}

func (t *translator) refuseLoopBound(at token.Pos, v value) {
	if v.why == "" {
		return
	}
	if strings.Contains(v.why, "another goroutine writes") {
		t.refuse(at, "flag")
		return
	}
	t.refuse(at, "loop bound", v.why)
}

// readAside runs a refused construct's body once, its actions dropped,
// so that check lists the mistakes inside it too.
func (t *translator) readAside(init ast.Stmt, body *ast.BlockStmt, e *env) {
	saveG := *t.g
	t.capture(func() {
		be := newEnv(e)
		if init != nil {
			t.stmt(init, be, "")
		}
		t.block(body, be)
	})
	*t.g = saveG
	t.label = ""
}

// leaves says whether a loop body has a way out: a break of this loop,
// a return, a panic or an exit, outside nested function literals.
func leaves(body *ast.BlockStmt, label string) bool {
	found := false
	depth := 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if n.Tok == token.BREAK && (n.Label == nil && depth == 0 || n.Label != nil && n.Label.Name == label) {
				found = true
			}
			if n.Tok == token.GOTO {
				found = true
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Exit" || sel.Sel.Name == "Goexit") {
				found = true
			}
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "panic" {
				found = true
			}
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			depth++
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			depth--
			return false
		}
		return true
	}
	ast.Inspect(body, visit)
	return found
}

// countFor counts the iterations left of a three-clause loop from its
// header's state, without its body: in closed form for i op bound with
// a constant step, else by running the condition and post alone.
func (t *translator) countFor(s *ast.ForStmt, header *env, vars []types.Object) (int64, bool) {
	if s.Cond == nil || !t.isPlainExpr(s.Cond) || (s.Post != nil && !t.isPlainStmt(s.Post)) {
		return 0, false
	}
	if n, ok := t.closedForm(s, header); ok {
		return n, true
	}
	// Run the header alone on a copy of its variables.
	scratch := newEnv(header.parent)
	for _, obj := range vars {
		if hc := header.vars[obj]; hc != nil {
			t.declare(scratch, obj, hc.v)
		}
	}
	for n := int64(0); n <= maxUnroll; n++ {
		b, ok := t.boolOf(t.eval(s.Cond, scratch))
		if !ok {
			return 0, false
		}
		if !b {
			return n, true
		}
		if s.Post != nil {
			t.stmt(s.Post, scratch, "")
		}
	}
	t.errorf(s.For, "give it a bound it reaches, counting up or down by a constant step", "this loop runs more than %d times, or never ends", maxUnroll)
	return 0, false
}

// closedForm counts i < b, i <= b, i > b, i >= b, i != b loops whose
// post adds a constant step to i.
func (t *translator) closedForm(s *ast.ForStmt, header *env) (int64, bool) {
	be, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || s.Post == nil {
		return 0, false
	}
	v, ok := ast.Unparen(be.X).(*ast.Ident)
	if !ok {
		return 0, false
	}
	obj := t.info.Uses[v]
	c := header.vars[obj]
	if c == nil {
		return 0, false
	}
	i0, ok := t.intOf(c.v)
	if !ok {
		return 0, false
	}
	if mentions(t, be.Y, obj) {
		return 0, false
	}
	b, ok := t.intOf(t.eval(be.Y, header))
	if !ok {
		return 0, false
	}
	var step int64
	switch p := s.Post.(type) {
	case *ast.IncDecStmt:
		if id, ok := ast.Unparen(p.X).(*ast.Ident); !ok || t.info.Uses[id] != obj {
			return 0, false
		}
		step = 1
		if p.Tok == token.DEC {
			step = -1
		}
	case *ast.AssignStmt:
		id, ok := ast.Unparen(p.Lhs[0]).(*ast.Ident)
		if !ok || t.info.Uses[id] != obj || (p.Tok != token.ADD_ASSIGN && p.Tok != token.SUB_ASSIGN) {
			return 0, false
		}
		k, ok := t.intOf(t.eval(p.Rhs[0], header))
		if !ok || mentions(t, p.Rhs[0], obj) {
			return 0, false
		}
		step = k
		if p.Tok == token.SUB_ASSIGN {
			step = -k
		}
	default:
		return 0, false
	}
	if step == 0 {
		return 0, false
	}
	var n int64
	switch {
	case be.Op == token.LSS && step > 0:
		if b > i0 {
			n = (b - i0 + step - 1) / step
		}
	case be.Op == token.LEQ && step > 0:
		if b >= i0 {
			n = (b-i0)/step + 1
		}
	case be.Op == token.GTR && step < 0:
		if i0 > b {
			n = (i0 - b - step - 1) / -step
		}
	case be.Op == token.GEQ && step < 0:
		if i0 >= b {
			n = (i0-b)/-step + 1
		}
	case be.Op == token.NEQ:
		if (b-i0)%step != 0 || (b-i0)/step < 0 {
			return 0, false
		}
		n = (b - i0) / step
	default:
		return 0, false
	}
	return n, n >= 0
}

// mentions says whether x names obj.
func mentions(t *translator, x ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && t.info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// rangeStmt runs a range over an integer, a slice or array it can
// evaluate, or a channel.
func (t *translator) rangeStmt(s *ast.RangeStmt, e *env, label string) ctl {
	typ := t.info.TypeOf(s.X)
	if typ == nil {
		return ctlNext
	}
	switch u := typ.Underlying().(type) {
	case *types.Chan:
		return t.rangeChan(s, e)
	case *types.Map:
		t.refuse(s.For, "range map")
		return ctlNext
	case *types.Signature:
		t.errorf(s.For, "call the function in a loop instead", "range over a function is not read")
		return ctlNext
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			t.errorf(s.For, "range over a slice instead", "range over a string is not read")
			return ctlNext
		}
	}
	x := t.eval(s.X, e)
	var n int64
	var elem func(i int64) value
	switch {
	case x.k == kConst && x.c.Kind() == constant.Int:
		var ok bool
		if n, ok = t.intOf(x); !ok {
			return ctlNext
		}
		elem = func(i int64) value { return constVal(constant.MakeInt64(i)) }
	case x.k == kSlice:
		n = int64(x.sl.len)
		sl := x.sl
		elem = func(i int64) value { return t.elemAt(sl, int(i), s.For) }
	case x.k == kNil:
		n = 0
	default:
		t.refuseLoopBound(s.For, x)
		return ctlNext
	}
	t.use(x)
	if t.isPlainRange(s) {
		t.busyRange(s, e, n)
		return ctlNext
	}
	if s.Tok == token.ASSIGN {
		// range with = writes variables from outside: iteration by
		// iteration.
		return t.rangeAssign(s, e, label, n, elem)
	}
	header := newEnv(e)
	return t.loop(s.For, label, s.Body, header, nil, n, nil,
		func(i int64) (bool, bool, value) { return i < n, true, value{} }, func() {},
		func(i int64, ie *env) {
			if i >= n {
				return
			}
			if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
				if obj := t.info.Defs[id]; obj != nil {
					t.declare(ie, obj, constVal(constant.MakeInt64(i)))
				}
			}
			if id, ok := s.Value.(*ast.Ident); ok && id.Name != "_" && elem != nil {
				if obj := t.info.Defs[id]; obj != nil {
					t.declare(ie, obj, elem(i))
				}
			}
		})
}

// rangeAssign runs a range whose variables are assigned (for k = range),
// one iteration after another.
func (t *translator) rangeAssign(s *ast.RangeStmt, e *env, label string, n int64, elem func(int64) value) ctl {
	if n > maxUnroll {
		t.errorf(s.For, "declare the variables with := so that each iteration has its own", "this range assigns variables from outside and runs more than %d times: too many to write out", maxUnroll)
		return ctlNext
	}
	for i := int64(0); i < n; i++ {
		if s.Key != nil {
			t.store(t.targetOf(s.Key, e), constVal(constant.MakeInt64(i)))
		}
		if s.Value != nil && elem != nil {
			t.store(t.targetOf(s.Value, e), elem(i))
		}
		if stop, out := t.loopEnd(t.block(s.Body, e), label); stop {
			return out
		}
		if t.aborted || t.g.exited {
			return ctlExit
		}
	}
	return ctlNext
}

// rangeChan is for v := range ch: one receive per value sent on ch and
// the body, then the receive that finds ch closed. The values are
// counted at the end, when every send is known.
func (t *translator) rangeChan(s *ast.RangeStmt, e *env) ctl {
	ch := t.eval(s.X, e)
	idx, ok := t.chanOf(ch, s.X, "range over")
	if !ok {
		return ctlNext
	}
	ie := newEnv(e)
	name := t.chans[idx].Name
	t.chanOp(idx, false)
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		if obj := t.info.Defs[id]; obj != nil {
			t.declare(ie, obj, unknown(fmt.Sprintf("a value received from channel %s (%v)", name, t.pos(s.For))))
		}
	}
	mark, w0, c0 := t.serial, len(t.writes), t.creations
	t.watch++
	var c ctl
	body := t.capture(func() { c = t.block(s.Body, ie) })
	t.watch--
	wrote := t.wroteOutside(w0, mark, 0)
	if t.watch == 0 {
		t.writes = t.writes[:0]
	}
	switch {
	case c != ctlNext:
		t.errorf(s.For, "let the range end when the channel is closed, or write the scenario in YAML",
			"a range over channel %s that leaves early (break, return) stops after a number of values decided as the program runs", name)
	case wrote || t.creations != c0:
		t.errorf(s.For, "keep what changes out of the body, or write the scenario in YAML",
			"the body of a range over channel %s changes variables or makes channels, so its iterations differ", name)
	}
	r := &rangeInfo{ch: idx, pos: t.pos(s.For)}
	t.emit(item{kind: iRange, rng: r, op: gmp.Op{Pos: r.pos}, body: body})
	return ctlNext
}

// selectStmt reads a select: each case's communication becomes a case of
// the model's select, and its body, read as if it ran, that case's do.
// Which case runs is decided as the program runs, so what a body writes
// is not known after the select.
func (t *translator) selectStmt(s *ast.SelectStmt, e *env, label string) ctl {
	if len(s.Body.List) > gmp.MaxSelectCases {
		t.refuse(s.Pos(), "select other", fmt.Sprintf("a select of %d cases: the model allows %d, default included", len(s.Body.List), gmp.MaxSelectCases))
		return ctlNext
	}
	op := gmp.Op{Kind: gmp.OpSelect, Pos: t.pos(s.Select)}
	var bodies [][]item
	mark, w0 := t.serial, len(t.writes)
	exited0, defers0 := t.g.exited, t.g.pendingDefers
	allExit := len(s.Body.List) > 0
	ok := true
	t.watch++
	for _, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		ce := newEnv(e)
		c, good := t.selectCase(cc, ce)
		ok = ok && good
		var end ctl
		body := t.capture(func() { end = t.stmts(cc.Body, ce) })
		switch {
		case end == ctlBreak && (t.label == "" || t.label == label):
			// break ends the select.
		case end == ctlExit && t.g.exited:
		case end != ctlNext && end != ctlExit:
			t.refuse(cc.Case, "select other", "a case that returns, continues or breaks out of a loop is not modelled: the model's select ends with its case")
			ok = false
		}
		allExit = allExit && t.g.exited
		t.g.exited, t.g.pendingDefers = exited0, defers0
		c.Pos = t.pos(cc.Case)
		op.Cases = append(op.Cases, c)
		bodies = append(bodies, body)
	}
	t.watch--
	why := fmt.Sprintf("which case of the select at %v ran, decided as the program runs", op.Pos)
	for _, c := range t.writes[w0:] {
		if c.born <= mark {
			t.assign(c, unknown(why))
		}
	}
	if t.watch == 0 {
		t.writes = t.writes[:0]
	}
	if !ok {
		return ctlNext
	}
	// A scenario writes default apart, after the cases (Go lets it
	// stand anywhere, and its place changes nothing).
	for i, c := range op.Cases {
		if c.Dir == gmp.SelectDefault && i != len(op.Cases)-1 {
			op.Cases = append(append(op.Cases[:i:i], op.Cases[i+1:]...), c)
			b := bodies[i]
			bodies = append(append(bodies[:i:i], bodies[i+1:]...), b)
			break
		}
	}
	t.emit(item{op: op, cases: bodies})
	if allExit {
		t.g.exited = true
		return ctlExit
	}
	return ctlNext
}

// selectCase reads a case's communication: declaring, in ce, what a
// receive assigns.
func (t *translator) selectCase(cc *ast.CommClause, ce *env) (gmp.SelectCase, bool) {
	var recv *ast.UnaryExpr
	var lhs []ast.Expr
	var define bool
	switch c := cc.Comm.(type) {
	case nil:
		return gmp.SelectCase{Dir: gmp.SelectDefault}, true
	case *ast.SendStmt:
		ch := t.eval(c.Chan, ce)
		t.eval(c.Value, ce)
		i, ok := t.chanOf(ch, c.Chan, "send on")
		if !ok {
			return gmp.SelectCase{}, false
		}
		t.chanOp(i, true)
		return gmp.SelectCase{Dir: gmp.SelectSend, Chan: i}, true
	case *ast.ExprStmt:
		recv, _ = ast.Unparen(c.X).(*ast.UnaryExpr)
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			recv, _ = ast.Unparen(c.Rhs[0]).(*ast.UnaryExpr)
		}
		lhs, define = c.Lhs, c.Tok == token.DEFINE
	}
	if recv == nil || recv.Op != token.ARROW {
		t.refuse(cc.Case, "select other", "this select case is not a send or a receive the front end reads")
		return gmp.SelectCase{}, false
	}
	var c gmp.SelectCase
	if call, isCall := ast.Unparen(recv.X).(*ast.CallExpr); isCall && t.isAPI(call, "time.After") && len(call.Args) == 1 {
		d, ok := t.duration(t.eval(call.Args[0], ce), call.Args[0].Pos(), "time.After's duration")
		if !ok {
			return gmp.SelectCase{}, false
		}
		c = gmp.SelectCase{Dir: gmp.SelectAfter, Dur: d}
	} else {
		i, ok := t.chanOf(t.eval(recv.X, ce), recv.X, "receive from")
		if !ok {
			return gmp.SelectCase{}, false
		}
		t.chanOp(i, false)
		c = gmp.SelectCase{Dir: gmp.SelectRecv, Chan: i}
	}
	v := unknown(fmt.Sprintf("a value received in the select case at %v", t.pos(cc.Case)))
	for _, l := range lhs {
		id, isID := ast.Unparen(l).(*ast.Ident)
		if isID && id.Name == "_" {
			continue
		}
		if define && isID {
			if obj := t.info.Defs[id]; obj != nil {
				t.declare(ce, obj, v)
			}
			continue
		}
		t.store(t.targetOf(l, ce), v)
	}
	return c, true
}

// isAPI says whether call calls the stub function named full.
func (t *translator) isAPI(call *ast.CallExpr, full string) bool {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	fn, ok := t.info.Uses[id].(*types.Func)
	return ok && fn.FullName() == full
}
