package scenarios

import (
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/gmp"
)

// actionInfo is one action a scenario can write. The parser, its hints,
// the list of names and README's list of actions all read this table, so
// adding an action is a row here, the OpKind in gmp, and the model's code
// for it (docs/extending.md).
type actionInfo struct {
	name string
	kind gmp.OpKind
	// bare is set for an action written as a word with no value.
	bare bool
	// needs says what the value is, for the error when it is missing.
	needs string
	// example is a value, for hints: "write it as go: {count: 4, …}".
	example string
	// doc is the action as README lists it.
	doc string
	// read reads the action's value.
	read func(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool)
}

// actionTable is set in init: its read functions parse nested action
// lists, which look actions up in it.
var actionTable []actionInfo

func init() {
	actionTable = []actionInfo{
		{name: "cpu", kind: gmp.OpCPU, needs: "a duration", example: "1ms", doc: "`cpu: D` (compute)", read: readDuration},
		{name: "syscall", kind: gmp.OpSyscall, needs: "a duration", example: "1ms",
			doc: "`syscall: D` (a blocking system call; `syscall: {for: D, block: true}` for one entered with `entersyscallblock`)", read: readSyscall},
		{name: "sleep", kind: gmp.OpSleep, needs: "a duration", example: "1ms", doc: "`sleep: D`", read: readDuration},
		{name: "net", kind: gmp.OpNet, needs: "a duration", example: "1ms", doc: "`net: D` (a network read that becomes ready after D)", read: readDuration},
		{name: "gosched", kind: gmp.OpGosched, bare: true, doc: "`gosched`"},
		{name: "go", kind: gmp.OpGo, needs: "a mapping with count and do", example: "{count: 4, do: [{cpu: 1ms}]}", doc: "`go: {count, do}`", read: readGo},
		{name: "loop", kind: gmp.OpLoop, needs: "a mapping with times and do", example: "{times: 3, do: [{cpu: 1ms}]}", doc: "`loop: {times, do}`", read: readLoop},
		{name: "send", kind: gmp.OpSend, needs: "a channel name", example: "done", doc: "`send: CH`", read: readChanOp},
		{name: "recv", kind: gmp.OpRecv, needs: "a channel name", example: "done", doc: "`recv: CH`", read: readChanOp},
		{name: "close", kind: gmp.OpClose, needs: "a channel name", example: "done", doc: "`close: CH`", read: readChanOp},
		{name: "wait", kind: gmp.OpWait, needs: "the word children", example: "children", doc: "`wait: children`", read: readWait},
		{name: "exit", kind: gmp.OpExit, bare: true, doc: "`exit` (runtime.Goexit)"},
		{name: "submit", kind: gmp.OpSubmit, needs: "a mapping with pool, count and do", example: "{pool: workers, count: 100, do: [{cpu: 1ms}]}",
			doc: "`submit: {pool, count, do}` (pool.Submit)", read: func(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
				return p.submit(mv, pos)
			}},
		{name: "acquire", kind: gmp.OpAcquire, needs: "a semaphore", example: "{sem: io, n: 1}", doc: "`acquire: {sem, n}` (semaphore.Weighted.Acquire)", read: readSemOp},
		{name: "release", kind: gmp.OpRelease, needs: "a semaphore", example: "{sem: io, n: 1}", doc: "`release: {sem, n}`", read: readSemOp},
		{name: "group", kind: gmp.OpGroup, needs: "a mapping with limit, count and do", example: "{limit: 8, count: 100, do: [{cpu: 1ms}]}",
			doc: "`group: {limit, count, do}` (errgroup: SetLimit, Go, Wait)", read: func(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
				return p.group(mv, pos)
			}},
	}
}

// ExampleDecls declares what the actions' examples name: the channel
// done, the semaphore io and the pool workers.
const ExampleDecls = "chans: {done: 1}\nsems: {io: 2}\npools: {workers: {size: 2}}\n"

// ActionExample is an action a scenario can write, with a line that
// writes it (`recv: done`), valid in a file with ExampleDecls.
type ActionExample struct {
	Kind gmp.OpKind
	Line string
}

// ActionExamples lists every action a scenario can write, in the table's
// order: what another reader of programs (schedlab real's translator)
// must handle.
func ActionExamples() []ActionExample {
	out := make([]ActionExample, len(actionTable))
	for i, a := range actionTable {
		line := a.name
		if !a.bare {
			line += ": " + a.example
		}
		out[i] = ActionExample{Kind: a.kind, Line: line}
	}
	return out
}

// lookupAction returns the action named name, or nil.
func lookupAction(name string) *actionInfo {
	for i := range actionTable {
		if actionTable[i].name == name {
			return &actionTable[i]
		}
	}
	return nil
}

// actionNames lists the actions' names, in the table's order.
func actionNames() []string {
	out := make([]string, len(actionTable))
	for i, a := range actionTable {
		out[i] = a.name
	}
	return out
}

// example is an action's example value, for hints.
func example(name string) string {
	if a := lookupAction(name); a != nil {
		return a.example
	}
	return "1ms"
}

// ActionList is README's list of actions: "`cpu: D` (compute), …, and
// `group: …`". A test keeps README's copy in step with the table.
func ActionList() string {
	docs := make([]string, len(actionTable))
	for i, a := range actionTable {
		docs[i] = a.doc
	}
	return strings.Join(docs[:len(docs)-1], ", ") + ", and " + docs[len(docs)-1]
}

func readDuration(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return gmp.Op{Kind: a.kind, Dur: p.dur(mv.Value, a.name), Pos: pos}, true
}

func readSyscall(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	if m, ok := p.resolve(mv.Value).(*ast.MappingNode); ok && hasKey(m, "for") {
		f := p.mapping(m, []string{"for", "block"}, "syscall")
		op := gmp.Op{Kind: gmp.OpSyscall, Dur: p.dur(f["for"], "syscall"), Pos: pos}
		if b, ok := f["block"]; ok {
			op.Block = p.boolean(b, "block")
		}
		return op, true
	}
	return readDuration(p, a, mv, pos)
}

func readGo(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	// A new goroutine starts with no enclosing loops.
	outer := p.loops
	p.loops = 0
	defer func() { p.loops = outer }()
	if seq, ok := p.resolve(mv.Value).(*ast.SequenceNode); ok {
		return gmp.Op{Kind: gmp.OpGo, Count: 1, Body: p.actionList(seq, "go"), Pos: pos}, true
	}
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write go: {count: 4, do: [{cpu: 1ms}]}", "go needs a mapping with count and do")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"count", "do"}, "go")
	op := gmp.Op{Kind: gmp.OpGo, Count: 1, Pos: pos}
	if c, ok := f["count"]; ok {
		op.Count = int(p.integer(c, "go count", 1, maxGoCount))
	}
	if d, ok := f["do"]; ok {
		op.Body = p.actionList(d, "go's do")
	} else {
		p.errorf(m, "do lists what each new goroutine runs", "go has no do:")
	}
	return op, true
}

func readLoop(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write loop: {times: 3, do: [{cpu: 1ms}]}", "loop needs a mapping with times and do")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"times", "do"}, "loop")
	op := gmp.Op{Kind: gmp.OpLoop, Pos: pos}
	if t, ok := f["times"]; ok {
		op.Count = int(p.integer(t, "loop times", 0, maxLoopTimes))
	} else {
		p.errorf(m, "times says how often to repeat do", "loop has no times:")
	}
	if p.loops == gmp.MaxLoopDepth {
		p.errorf(mv.Key, "flatten the loops, or start a goroutine (go:) for the inner ones",
			"loops nested more than %d deep in one goroutine", gmp.MaxLoopDepth)
		return gmp.Op{}, false
	}
	if d, ok := f["do"]; ok {
		p.loops++
		op.Body = p.actionList(d, "loop's do")
		p.loops--
	} else {
		p.errorf(m, "do lists the actions to repeat", "loop has no do:")
	}
	return op, true
}

func readChanOp(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return gmp.Op{Kind: a.kind, Chan: p.chanRef(mv.Value, mv.Key, a.name), Pos: pos}, true
}

func readWait(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	if s, ok := p.scalar(mv.Value); !ok || s != "children" {
		p.errorf(mv.Value, "the only form is wait: children", "wait takes the word children")
		return gmp.Op{}, false
	}
	return gmp.Op{Kind: gmp.OpWait, Pos: pos}, true
}

func readSemOp(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return p.semOp(mv, a.name, pos)
}
