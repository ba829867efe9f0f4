package gofront

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/schedlab/schedlab/core/gmp"
)

// Loops that do not count: for {…}, which never ends, and for !done {…},
// which ends when another goroutine sets a flag. The model repeats one
// body for them (loop: forever, loop: {until: FLAG}), so the front end
// translates the body once, with every variable the loop changes as it
// goes round made unknown first: a decision that depends on one is then
// refused, rather than taken as the first time round takes it.
//
// A body that calls nothing matters to the model: the compiler puts no
// preemption check in such a loop, and only sysmon's signal stops the
// goroutine (core/gmp/loop.go). A body of plain code (arithmetic, and
// the file's functions that do only that, which the compiler inlines
// when they are small) is therefore no do: at all.

// flagDecl is a flag the program declares: an atomic.Bool, or a plain
// bool a loop waits on.
type flagDecl struct {
	name string
	pos  gmp.Pos
	// set: a set: of it was met; wait: where the first loop waiting for
	// it is.
	set  bool
	wait token.Pos
}

// newFlag declares a flag named after hint (a generated program's
// flag_done is done).
func (t *translator) newFlag(hint string, at token.Pos) int {
	t.flags = append(t.flags, flagDecl{name: t.declName(hint, "flag", "flag_"), pos: t.pos(at)})
	t.creations++
	return len(t.flags) - 1
}

// flagOfVar is the flag a plain bool variable is, declared at its first
// use.
func (t *translator) flagOfVar(obj types.Object) int {
	if i, ok := t.flagByObj[obj]; ok {
		return i
	}
	i := t.newFlag(obj.Name(), obj.Pos())
	t.flagByObj[obj] = i
	return i
}

// findFlagVars finds the plain bool variables a loop waits on: for !done
// {…} whose body does not set done itself, so that only another
// goroutine can end it. Their writes are the flag's sets wherever they
// are, before or after the loop is met.
func (t *translator) findFlagVars(f *ast.File) {
	t.flagVars = map[types.Object]bool{}
	t.flagByObj = map[types.Object]int{}
	t.flagDeclared = map[types.Object]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.ForStmt)
		if !ok || s.Init != nil || s.Post != nil {
			return true
		}
		if obj := t.plainFlagCond(s.Cond); obj != nil && !assigns(t, s.Body, obj) {
			t.flagVars[obj] = true
		}
		return true
	})
}

// plainFlagCond returns the variable of a condition !done on a bool
// variable, or nil.
func (t *translator) plainFlagCond(cond ast.Expr) types.Object {
	u, ok := ast.Unparen(cond).(*ast.UnaryExpr)
	if !ok || u.Op != token.NOT {
		return nil
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := t.info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
		return nil
	}
	return v
}

// atomicLoadCond returns X of a condition !X.Load() on an atomic.Bool,
// or nil.
func (t *translator) atomicLoadCond(cond ast.Expr) ast.Expr {
	u, ok := ast.Unparen(cond).(*ast.UnaryExpr)
	if !ok || u.Op != token.NOT {
		return nil
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := t.info.Selections[sel]; s != nil {
		if fn, ok := s.Obj().(*types.Func); ok && fn.FullName() == "(*sync/atomic.Bool).Load" {
			return sel.X
		}
	}
	return nil
}

// flagLoop says whether s is a loop on a flag, and which: -1 with true
// when it is one whose flag is refused (already reported).
func (t *translator) flagLoop(s *ast.ForStmt, e *env) (int, bool) {
	if s.Init != nil || s.Post != nil || s.Cond == nil {
		return 0, false
	}
	if obj := t.plainFlagCond(s.Cond); obj != nil && t.flagVars[obj] {
		return t.flagOfVar(obj), true
	}
	x := t.atomicLoadCond(s.Cond)
	if x == nil {
		return 0, false
	}
	v := t.eval(x, e)
	if v.k != kFlag {
		if v.why != "" {
			t.errorf(x.Pos(), "keep the atomic.Bool in a variable the front end can follow (not in a struct field, a map or a slice)",
				"which flag this loop waits on depends on %s, which cannot be evaluated", v.why)
		}
		return -1, true
	}
	return v.idx, true
}

// setFlag is a store of v into flag f, at x: set: when v is true.
func (t *translator) setFlag(f int, v value, at token.Pos, what string) {
	b, ok := t.boolOf(v)
	switch {
	case !ok && v.why == "":
		return // refused already
	case !ok:
		t.refuse(at, "flag misuse", fmt.Sprintf("%s stores a value that depends on %s: the model's flags are set, to true, and never cleared", what, v.why))
		return
	case !b:
		t.refuse(at, "flag misuse", fmt.Sprintf("%s stores false: the model's flags are set, to true, and never cleared", what))
		return
	}
	t.use(v)
	t.flags[f].set = true
	t.emit(item{op: gmp.Op{Kind: gmp.OpSet, Flag: f, Pos: t.pos(at)}})
	t.release(syncKey{kind: syncFlag, idx: f})
}

// flagWrite is a write to a plain bool variable: a set of its flag when
// a loop waits on it.
func (t *translator) flagWrite(c *cell, v value) {
	if c == nil || c.obj == nil || !t.flagVars[c.obj] {
		return
	}
	t.setFlag(t.flagOfVar(c.obj), v, t.at, c.obj.Name()+" = …")
}

// unboundedLoop translates for {…} (kind LoopForever) and for !flag {…}
// (LoopUntil, flag). The body is read twice: the first time to find what
// it changes outside itself, which is then made unknown, and the second
// for the body every time round.
func (t *translator) unboundedLoop(s *ast.ForStmt, e *env, label string, kind gmp.LoopKind, flag int) ctl {
	what := "never ends"
	if kind == gmp.LoopUntil {
		what = "waits for the flag " + t.flags[flag].name
	}
	header := newEnv(e)
	if c := t.loopInit(s.Init, header); c != ctlNext {
		return c
	}
	vars := loopVars(t, s.Init)
	at := t.pos(s.For)
	pass := func() ([]item, ctl) {
		ie := newEnv(header)
		for _, obj := range vars {
			if hc := header.vars[obj]; hc != nil {
				t.declare(ie, obj, hc.v)
			}
		}
		var c ctl
		body := t.capture(func() { c = t.block(s.Body, ie) })
		if c == ctlContinue && (t.label == "" || t.label == label) {
			t.label, c = "", ctlNext
		}
		return body, c
	}

	// The first time round, as the loop is entered.
	mark, w0, c0, e0 := t.serial, len(t.writes), t.creations, len(t.errs)
	t.watch++
	first, c := pass()
	t.watch--
	written := map[*cell]bool{}
	for _, w := range t.writes[w0:] {
		if w.born <= mark {
			written[w] = true
		}
	}
	if t.watch == 0 {
		t.writes = t.writes[:0]
	}
	switch {
	case c == ctlExit:
		// It never gets round: os.Exit, or a loop inside that never ends.
		for _, it := range first {
			t.emit(it)
		}
		return ctlExit
	case c != ctlNext && kind == gmp.LoopUntil:
		t.refuse(s.For, "flag misuse", "a break or return out of this loop, which "+what+", is not modelled: whether the flag or the break ends it is decided as the program runs")
		return ctlNext
	case c != ctlNext:
		// A break of an outer loop, or a return, the first time round.
		for _, it := range first {
			t.emit(it)
		}
		_, out := t.loopEnd(c, label)
		return out
	case t.creations != c0:
		t.refuse(s.For, "unbounded body", what, "it makes a channel, a flag, a pool or a group each time round")
		return ctlNext
	case len(t.errs) > e0:
		return ctlNext
	}

	// What the loop changes is not known from the second time round on.
	for c := range written {
		c.v, c.pub = unknown(fmt.Sprintf("%s, which the loop at %v changes each time round", c.obj.Name(), at)), nil
	}
	for _, obj := range vars {
		if hc := header.vars[obj]; hc != nil {
			hc.v = unknown(fmt.Sprintf("the variable %s of the loop at %v, which %s", obj.Name(), at, what))
		}
	}
	body, c := pass()
	if c != ctlNext || len(t.errs) > e0 {
		return ctlNext
	}
	if bad := unmodelledInLoop(body); bad != "" {
		t.refuse(s.For, "unbounded body", what, bad)
		return ctlNext
	}
	if callFree(body) {
		var kept []item
		for _, it := range body {
			if it.kind != iPlain {
				kept = append(kept, it)
			}
		}
		body = kept
	}
	if kind == gmp.LoopUntil && !t.flags[flag].wait.IsValid() {
		t.flags[flag].wait = s.For
	}
	t.emit(item{op: gmp.Op{Kind: gmp.OpLoop, Loop: kind, Flag: max(flag, 0), Pos: at}, body: body})
	if kind == gmp.LoopForever {
		// Nothing after a loop that never ends runs, deferred calls
		// included.
		t.g.exited = true
		return ctlExit
	}
	t.acquire(syncKey{kind: syncFlag, idx: flag})
	return ctlNext
}

// callFree says whether a loop body calls no function: plain code, and
// loops that repeat nothing else.
func callFree(items []item) bool {
	for _, it := range items {
		switch {
		case it.kind == iPlain:
		case it.kind == iOp && it.op.Kind == gmp.OpLoop && callFree(it.body):
		default:
			return false
		}
	}
	return true
}

// unmodelledInLoop names what an unbounded loop's body holds that its
// count of iterations would decide: "" if nothing.
func unmodelledInLoop(items []item) string {
	for _, it := range items {
		switch it.kind {
		case iRange:
			return "it ranges over a channel, whose values are counted by the sends"
		case iGroupGo, iGroupWait:
			return "it runs an errgroup, which the model reads as one action"
		case iRelease:
			return "it releases a pool"
		}
		if s := unmodelledInLoop(it.body); s != "" {
			return s
		}
	}
	return ""
}

// --- Happens before ---
//
// A variable another goroutine writes is not known to its readers: which
// value a read sees is decided as the program runs. Unless the write
// happens before the read, as the Go memory model says: the writer sends
// on a channel (or closes it, or sets a flag) after the write, and the
// reader receives from it (or waits for the flag) before the read. The
// front end follows that much: a read after a receive of a channel whose
// every send comes from the writer after its write sees the write. Which
// sends there are is known only at the end, when the whole program is
// read, so the read's assumption is checked then (checkPublished). The
// elements of a slice another goroutine writes are followed the same
// way. One more edge, for the semaphore worker pool: an Acquire of a
// semaphore's whole weight waits for every token out, so it comes after
// each Release, when the goroutine that acquires it is the only one that
// acquires on it (it acquires for the workers it starts).

type syncKind uint8

const (
	syncSend  syncKind = iota // a send or a close; its receive acquires
	syncRecv                  // a receive of an unbuffered channel; its send acquires
	syncFlag                  // a set; the loop that waits for the flag acquires
	syncSem                   // a Release; an Acquire of the whole weight acquires
	syncMutex                 // an Unlock or RUnlock; a Lock or RLock acquires
	syncWG                    // a wait group's Done; its Wait acquires
)

// syncKey is one kind of release: on a channel (sends, or receives of an
// unbuffered one) or a flag.
type syncKey struct {
	kind syncKind
	idx  int
}

// releases sums up the releases of one key: who made them, and when.
type releases struct {
	g        int  // the goroutine that made the first
	multi    bool // more than one goroutine made some
	min, max int  // the first and last of g's, by its clock
	// byG holds, for a semaphore, each goroutine's first and last.
	byG map[int][2]int
}

// published is a write to a variable by a goroutine other than its
// owner: the value, and the writer's clock at the write.
type published struct {
	g     *gor
	v     value
	clock int
	// multi: more than one goroutine wrote the variable, or a value not
	// known: no read sees a known value.
	multi bool
}

// assumption is a read that saw a write because one of keys is released
// only by the writer, after the write; checked at the end.
type assumption struct {
	keys   []syncKey
	g      int
	reader int
	clock  int
	name   string
	at     token.Pos
}

func (t *translator) release(k syncKey) {
	t.g.clock++
	r, ok := t.released[k]
	switch {
	case !ok:
		r = &releases{g: t.g.id, min: t.g.clock}
		t.released[k] = r
	case r.g != t.g.id:
		r.multi = true
	}
	if r.g == t.g.id {
		r.max = t.g.clock
	}
	if k.kind == syncSem {
		if r.byG == nil {
			r.byG = map[int][2]int{}
		}
		mm, ok := r.byG[t.g.id]
		if !ok {
			mm[0] = t.g.clock
		}
		mm[1] = t.g.clock
		r.byG[t.g.id] = mm
	}
}

// semAcquire notes an Acquire of n on semaphore i: of its whole weight,
// it acquires every Release before it.
func (t *translator) semAcquire(i, n int) {
	if t.semAcquirers[i] == nil {
		t.semAcquirers[i] = map[int]bool{}
	}
	t.semAcquirers[i][t.g.id] = true
	if n == t.sems[i].Size {
		t.acquire(syncKey{syncSem, i})
	}
}

func (t *translator) acquire(k syncKey) {
	if t.g.acquired == nil {
		t.g.acquired = map[syncKey]bool{}
	}
	t.g.acquired[k] = true
}

// chanOp notes the synchronisation of a send (send true) or a receive
// on channel i: a send releases, a receive acquires, and on an
// unbuffered channel each is both.
func (t *translator) chanOp(i int, send bool) {
	unbuffered := t.chans[i].Cap == 0
	switch {
	case send:
		t.release(syncKey{syncSend, i})
		if unbuffered {
			t.acquire(syncKey{syncRecv, i})
		}
	default:
		t.acquire(syncKey{syncSend, i})
		if unbuffered {
			t.release(syncKey{syncRecv, i})
		}
	}
}

// publish notes a write to c by a goroutine other than its owner.
func (t *translator) publish(c *cell, v value) {
	switch {
	case !v.known(), c.pub != nil && c.pub.g != t.g:
		c.pub = &published{multi: true}
	default:
		v.deps = nil
		c.pub = &published{g: t.g, v: v, clock: t.g.clock}
	}
}

// seen returns the value a read of c sees when the write another
// goroutine made happens before it.
func (t *translator) seen(c *cell, at token.Pos) (value, bool) {
	return t.seenPub(c.pub, c.obj.Name(), at)
}

// seenPub is seen, of a write p to what name names.
func (t *translator) seenPub(p *published, name string, at token.Pos) (value, bool) {
	if p == nil || p.multi {
		return value{}, false
	}
	if p.g == t.g {
		return p.v, true // its own write, earlier in its program
	}
	var keys []syncKey
	for k := range t.g.acquired {
		r := t.released[k]
		switch {
		case r == nil:
		case k.kind == syncSem:
			if mm, ok := r.byG[p.g.id]; ok && mm[1] > p.clock {
				keys = append(keys, k)
			}
		case r.g == p.g.id && r.max > p.clock:
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return value{}, false
	}
	t.assumed = append(t.assumed, assumption{keys: keys, g: p.g.id, reader: t.g.id, clock: p.clock, name: name, at: at})
	return p.v, true
}

// elemAt reads element i of a slice: another goroutine's write to it
// is seen as a variable's is.
func (t *translator) elemAt(sl *sliceObj, i int, at token.Pos) value {
	v := sl.at(i)
	if !v.known() && len(sl.elems) > 0 {
		if pv, ok := t.seenPub(t.elemPubs[&sl.elems[0]][sl.off+i], "an element of a slice", at); ok {
			return pv
		}
	}
	return v
}

// storeElem writes element i of a slice: a write by a goroutine other
// than the one that made it is published, and not known to the others.
func (t *translator) storeElem(sl *sliceObj, i int, v value) {
	key, j := &sl.elems[0], sl.off+i
	if sl.owner == nil || sl.owner == t.g {
		delete(t.elemPubs[key], j)
		sl.elems[j] = v
		return
	}
	if t.elemPubs[key] == nil {
		t.elemPubs[key] = map[int]*published{}
	}
	p := t.elemPubs[key][j]
	switch {
	case !v.known(), p != nil && p.g != t.g:
		p = &published{multi: true}
	default:
		v.deps = nil
		p = &published{g: t.g, v: v, clock: t.g.clock}
	}
	t.elemPubs[key][j] = p
	sl.elems[j] = unknown("an element of a slice another goroutine writes")
}

// checkPublished holds each read that saw another goroutine's write to
// its assumption, now that every send is known.
func (t *translator) checkPublished() {
	for _, a := range t.assumed {
		ok := false
		for _, k := range a.keys {
			r := t.released[k]
			switch {
			case r == nil:
			case k.kind == syncSem:
				mm, has := r.byG[a.g]
				only := len(t.semAcquirers[k.idx]) == 1 && t.semAcquirers[k.idx][a.reader]
				ok = ok || has && mm[0] > a.clock && only
			default:
				ok = ok || !r.multi && r.g == a.g && r.min > a.clock
			}
		}
		if !ok {
			t.errorf(a.at, "send the value itself on the channel, or make the writer the only goroutine that sends on it after the write",
				"%s is written by another goroutine, and another send (or close, set or semaphore release) than the writer's after its write may be the one received before this read: which value is read is decided as the program runs", a.name)
		}
	}
}

// --- Flags in the scenario ---

// checkFlags reports each flag a loop waits for that nothing sets.
func (t *translator) checkFlags() {
	for _, f := range t.flags {
		if f.wait.IsValid() && !f.set {
			t.refuse(f.wait, "flag misuse", fmt.Sprintf("nothing sets the flag %s (%s = true, or %s.Store(true), in another goroutine), so this loop never ends", f.name, f.name, f.name))
		}
	}
}

// numberFlags numbers the flags the actions use in the order a scenario
// file would name them (its first use, depth first), as Parse would.
func (t *translator) numberFlags(ops []gmp.Op) []string {
	order := map[int]int{}
	var names []string
	var visit func(ops []gmp.Op)
	visit = func(ops []gmp.Op) {
		for i := range ops {
			op := &ops[i]
			if op.Kind == gmp.OpSet || op.Kind == gmp.OpLoop && op.Loop == gmp.LoopUntil {
				n, ok := order[op.Flag]
				if !ok {
					n = len(names)
					order[op.Flag] = n
					names = append(names, t.flags[op.Flag].name)
				}
				op.Flag = n
			}
			visit(op.Body)
			for _, c := range op.Cases {
				visit(c.Body)
			}
		}
	}
	visit(ops)
	return names
}

// mutexUsed and wgUsed note that the actions use mutex or wait group i.
func (t *translator) mutexUsed(i int) {
	if t.usedMu == nil {
		t.usedMu = map[int]bool{}
	}
	t.usedMu[i] = true
}

func (t *translator) wgUsed(i int) {
	if t.usedWG == nil {
		t.usedWG = map[int]bool{}
	}
	t.usedWG[i] = true
}

// numberSync keeps the mutexes and wait groups the actions use, in the
// order a scenario file declares them (mutexes: before rwmutexes:, as
// Parse numbers them), and renumbers the actions to match.
func (t *translator) numberSync(ops []gmp.Op) {
	muIdx, wgIdx := map[int]int{}, map[int]int{}
	for _, rw := range []bool{false, true} {
		for i, m := range t.mutexes {
			if m.RW == rw && t.usedMu[i] {
				muIdx[i] = len(t.usedMutexes)
				t.usedMutexes = append(t.usedMutexes, m)
			}
		}
	}
	for i, w := range t.wgs {
		if t.usedWG[i] {
			wgIdx[i] = len(t.usedWGs)
			t.usedWGs = append(t.usedWGs, w)
		}
	}
	var visit func(ops []gmp.Op)
	visit = func(ops []gmp.Op) {
		for i := range ops {
			op := &ops[i]
			switch op.Kind {
			case gmp.OpLock, gmp.OpUnlock, gmp.OpRLock, gmp.OpRUnlock:
				op.Mutex = muIdx[op.Mutex]
			}
			if op.WG > 0 {
				op.WG = wgIdx[op.WG-1] + 1
			}
			visit(op.Body)
			for _, c := range op.Cases {
				visit(c.Body)
			}
		}
	}
	visit(ops)
}
