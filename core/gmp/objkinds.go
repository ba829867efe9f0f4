package gmp

import (
	"fmt"
	"time"
)

// Declared objects goroutines park on, by kind: the one registry the rest
// of the program reads instead of a switch per kind. A kind says, once,
// how a scenario declares it (Key, Ref), what Go calls it (GoType, GoNew,
// each verb's Go statement), the wait reason Go's goroutine dump prints
// for a goroutine parked on it (Reason), its actions (Verbs), the
// sentences of its rules (words) and what one holds now (state: the
// deadlock report's bracket and the UI's row). Every object of a
// registered kind is an Obj with a WaitQ (waitq.go); the Machine makes,
// clones and checks them, a goroutine parked on one is at LocObj, and:
//
//   - the scenario parser reads KEY: [NAME, …] (or KEY: {NAME: REF, …}
//     when Ref is set) and one action per named verb (core/scenarios);
//   - the park sentence and the deadlock report word the wait from
//     Reason and the object's name (waitsOn), and the report adds state;
//   - the UI's pools panel draws a row per object from its state and queue;
//   - schedlab real declares it as GoType (or GoNew) and writes each verb's
//     Go statement (real/prog).
//
// So a new kind is its own file (cond.go is the worked example), its
// entry in objKinds below, and its rules in events.go and ruletable.go;
// TestObjKindsAreComplete fails when a step is skipped.

// ObjKind is one kind of declared object goroutines park on.
type ObjKind struct {
	// Key is the scenario's top-level key that declares them: "conds".
	Key string
	// Noun names one in sentences and errors: "cond".
	Noun string
	// GoType is the Go type a real program declares: "sync.Cond".
	GoType string
	// Ref is the noun of the declared object each one names, or "":
	// a cond's Locker, "mutex". With Ref, the scenario writes
	// KEY: {NAME: REF}, and GoNew makes one from the ref's address.
	Ref   string
	GoNew string // a format of the ref's Go identifier: "sync.NewCond(&%s)"
	// Reason is the wait reason of a goroutine parked on one, as Go's
	// goroutine dump prints it ("sync.Cond.Wait").
	Reason Reason
	// Verbs are its actions; those with no Name are steps other verbs
	// run (their body), which no scenario writes.
	Verbs []Verb
	// words tells the kind's rules (describe.go's wordings gathers them).
	words words
	// state appends what the object holds now, for the deadlock report's
	// bracket and the UI's row: "2 waiting for a signal".
	state func(b []byte, o *Obj) []byte
	// check holds the object's counts to its queue (CheckInvariants).
	check func(c *checker, o *Obj, where string)
}

// Verb is one action on an object of a kind.
type Verb struct {
	// Name is the scenario's action: "signal"; "" for a step.
	Name string
	// Doc is the action as docs/scenarios.md lists it: "`signal: C`
	// (sync.Cond.Signal)".
	Doc string
	// Go is the statement a real program runs, a format of the object's
	// Go identifier: "%s.Signal()".
	Go string
	// run runs the action; body, if set, gives the actions it runs
	// instead, in a frame of their own, as a library function calls
	// others (sync.Cond.Wait: notifyListAdd, L.Unlock, notifyListWait,
	// L.Lock).
	run  func(s *Machine, m *M, g *G, op *Op)
	body func(op *Op, d ObjDecl) []Op
}

// RunsABody reports whether the verb runs its actions in a frame of its
// own, which counts against MaxLoopDepth as a loop does.
func (v *Verb) RunsABody() bool { return v.body != nil }

// ObjDecl declares one object of a registered kind.
type ObjDecl struct {
	Kind int // index into ObjKinds()
	Name string
	Ref  int // the object Ref names: an index into Program.Mutexes for "mutex"
	Pos  Pos
}

// Obj is a simulated object of a registered kind: its line of parked
// goroutines and two counters whose meaning is the kind's (a cond's
// notify list: the next ticket to hand out and the next to notify).
type Obj struct {
	Decl ObjDecl
	Q    WaitQ
	A, B int
	// Taken are goroutines between announcing a wait and parking: a
	// cond's waiter holds its ticket while it unlocks L. N is the ticket.
	Taken []Sudog
}

func (o *Obj) clone() Obj {
	c := *o
	c.Q = o.Q.clone()
	c.Taken = append([]Sudog(nil), o.Taken...)
	return c
}

// objKinds is the registry, set in init so that the kinds' functions may
// read it without an initialization cycle.
var objKinds []*ObjKind

func init() {
	objKinds = []*ObjKind{&condKind}
	for _, k := range objKinds {
		for r, w := range k.words {
			if wordings[r] != nil {
				panic(fmt.Sprintf("gmp: rule %d (%s) is worded twice", r, r.Fn()))
			}
			wordings[r] = w
		}
	}
}

// ObjKinds returns the registered kinds (read-only), in the order
// ObjDecl.Kind numbers them.
func ObjKinds() []*ObjKind { return objKinds }

// State appends what o holds now, in words.
func (k *ObjKind) State(b []byte, o *Obj) []byte { return k.state(b, o) }

// Objects returns the declared objects of registered kinds (read-only),
// in declaration order.
func (s *Machine) Objects() []Obj { return s.objs }

// KindOf returns the kind of object o.
func KindOf(o *Obj) *ObjKind { return objKinds[o.Decl.Kind] }

// VerbOf returns the verb an OpObj action runs, with its kind.
func (p *Program) VerbOf(op *Op) (*ObjKind, *Verb) {
	k := objKinds[p.Objects[op.Obj].Kind]
	return k, &k.Verbs[op.Verb]
}

// OpName names an action as a scenario writes it: its verb's name for an
// action on an object of a registered kind ("cwait"; a step of one says
// the verb whose body it is in: the kind's noun), else its kind's name.
func (p *Program) OpName(op *Op) string {
	if op.Kind != OpObj || op.Obj < 0 || op.Obj >= len(p.Objects) {
		return op.Kind.String()
	}
	k, v := p.VerbOf(op)
	if v.Name == "" {
		return k.Noun + " wait"
	}
	return v.Name
}

// objOp runs an OpObj action.
func (s *Machine) objOp(m *M, g *G, op *Op) {
	_, v := s.prog.VerbOf(op)
	if v.body == nil {
		v.run(s, m, g, op)
		return
	}
	if !g.pushFrame(frame{body: s.childBody[g.op-1]}) {
		s.fail(Panicked, &Error{Pos: op.Pos, Msg: fmt.Sprintf("%s nested more than %d deep in %v", v.Name, MaxLoopDepth, g.ID),
			Hint: "flatten the loops, or start a goroutine for the inner ones"})
		return
	}
	s.continueAfter(m, 0)
}

// objBody returns the actions an OpObj action runs in its own frame, or
// nil.
func (s *Machine) objBody(op *Op) []Op {
	_, v := s.prog.VerbOf(op)
	if v.body == nil {
		return nil
	}
	return v.body(op, s.prog.Objects[op.Obj])
}

// checkObjRef rejects an OpObj that names no declared object or verb.
func (s *Machine) checkObjRef(op *Op) error {
	if op.Obj < 0 || op.Obj >= len(s.prog.Objects) {
		return &Error{Pos: op.Pos, Msg: fmt.Sprintf("an action names object %d, but the program declares %d", op.Obj, len(s.prog.Objects))}
	}
	d := s.prog.Objects[op.Obj]
	if d.Kind < 0 || d.Kind >= len(objKinds) {
		return &Error{Pos: d.Pos, Msg: fmt.Sprintf("object %s is of kind %d, which is not registered", d.Name, d.Kind)}
	}
	k := objKinds[d.Kind]
	if int(op.Verb) >= len(k.Verbs) {
		return &Error{Pos: op.Pos, Msg: fmt.Sprintf("an action names verb %d of %s, which has %d", op.Verb, k.Noun, len(k.Verbs))}
	}
	if k.Ref == "mutex" && (d.Ref < 0 || d.Ref >= len(s.prog.Mutexes)) {
		return &Error{Pos: d.Pos, Msg: fmt.Sprintf("%s %s names mutex %d, but the program declares %d", k.Noun, d.Name, d.Ref, len(s.prog.Mutexes))}
	}
	return nil
}

// checkObj checks an object's books: every goroutine of its queue is
// parked on it, those that took a place are running, and the kind's own
// counts agree.
func (c *checker) checkObj(i int) {
	o := &c.s.objs[i]
	k := KindOf(o)
	where := k.Noun + " " + o.Decl.Name
	o.Q.check(c, Loc{Kind: LocObj, ID: int32(i)}, where, false)
	k.check(c, o, where)
}

// objPlace is a goroutine parked on an object of a registered kind: its
// kind says the reason and the state.
var objPlace = waitPlace{
	loc: func(d *Describer, b []byte, id int32) []byte {
		return d.objName(int(id)).appendTo(append(append(b, d.objNoun(int(id))...), ':'))
	},
	words: func(d *Describer, b []byte, id int32) []byte {
		return d.objName(int(id)).appendTo(append(append(b, d.objNoun(int(id))...), ' '))
	},
	reason: func(d *Describer, id int32) Reason {
		if int(id) < len(d.objs) {
			return objKinds[d.objs[id].Kind].Reason
		}
		return NoReason
	},
	queue: func(s *Machine, id int32) *WaitQ { return &s.objs[id].Q },
	state: func(s *Machine, b []byte, id int32) []byte {
		o := &s.objs[id]
		return KindOf(o).State(b, o)
	},
}

// objName names object i: "cond ready", or "object #3" for one the
// program does not declare.
func (d *Describer) objName(i int) namePhrase {
	if i >= 0 && i < len(d.objs) {
		return namePhrase{name: d.objs[i].Name, quote: d.quote}
	}
	return namePhrase{prefix: "#", i: i}
}

// objNoun is the noun of object i's kind.
func (d *Describer) objNoun(i int) string {
	if i >= 0 && i < len(d.objs) {
		return objKinds[d.objs[i].Kind].Noun
	}
	return "object"
}

// objCost is what an action on an object costs the runtime: a lock and a
// few words, like a channel operation.
func (s *Machine) objCost() time.Duration { return s.cfg.Costs.ChanOp }
