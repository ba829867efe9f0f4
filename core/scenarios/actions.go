package scenarios

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
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
		{name: "go", kind: gmp.OpGo, needs: "a mapping with count and do", example: "{count: 4, do: [{cpu: 1ms}]}",
			doc: "`go: {count, do}` (with `wg: WG`, `wg.Go`: Add(1), and Done deferred in the goroutine)", read: readGo},
		{name: "loop", kind: gmp.OpLoop, needs: "a mapping with times and do", example: "{times: 3, do: [{cpu: 1ms}]}",
			doc: "`loop: {times, do}` (or `{until: FLAG, do}` for `for !FLAG { … }`, `{forever: true, do}`, and `loop: forever` for `for {}`; a loop whose body calls nothing never checks for preemption)", read: readLoop},
		{name: "send", kind: gmp.OpSend, needs: "a channel name", example: "done", doc: "`send: CH`", read: readChanOp},
		{name: "recv", kind: gmp.OpRecv, needs: "a channel name", example: "done", doc: "`recv: CH`", read: readChanOp},
		{name: "close", kind: gmp.OpClose, needs: "a channel name", example: "done", doc: "`close: CH`", read: readChanOp},
		{name: "wait", kind: gmp.OpWait, needs: "the word children or a wait group", example: "children",
			doc: "`wait: children` (or `wait: WG`, sync.WaitGroup.Wait)", read: readWait},
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
		{name: "lock", kind: gmp.OpLock, needs: "a mutex", example: "mu", doc: "`lock: MU` (sync.Mutex.Lock; of an rwmutex, RWMutex.Lock)", read: readLockOp},
		{name: "unlock", kind: gmp.OpUnlock, needs: "a mutex", example: "mu", doc: "`unlock: MU`", read: readLockOp},
		{name: "rlock", kind: gmp.OpRLock, needs: "an rwmutex", example: "rw", doc: "`rlock: RW` (sync.RWMutex.RLock)", read: readLockOp},
		{name: "runlock", kind: gmp.OpRUnlock, needs: "an rwmutex", example: "rw", doc: "`runlock: RW`", read: readLockOp},
		{name: "add", kind: gmp.OpAdd, needs: "a wait group", example: "{wg: wg, n: 2}", doc: "`add: {wg, n}` (sync.WaitGroup.Add; `add: WG` adds 1)", read: readAdd},
		{name: "done", kind: gmp.OpDone, needs: "a wait group", example: "wg", doc: "`done: WG` (sync.WaitGroup.Done)", read: readDone},
		{name: "select", kind: gmp.OpSelect, needs: "a mapping with cases and a default, or {} to block for ever",
			example: "{cases: [{recv: done, do: [{cpu: 1ms}]}, {after: 1ms}], default: [gosched]}",
			doc:     "`select: {cases: [{recv: CH, do}, {send: CH, do}, {after: D, do}], default}` (a select statement; `select: {}` blocks for ever)", read: readSelect},
		{name: "print", kind: gmp.OpPrint, needs: "a line of text", example: `"hello"`,
			doc: "`print: TEXT` (fmt.Println of a line: fmt formats it, then a write system call writes it)", read: readPrint},
		{name: "set", kind: gmp.OpSet, needs: "a flag name", example: "done",
			doc: "`set: FLAG` (sets a shared flag, an atomic.Bool that a loop's `until: FLAG` reads)", read: readSet},
	}
	// The verbs of the kinds of object gmp registers (objects.go).
	actionTable = append(actionTable, objActionRows()...)
}

// ExampleDecls declares what the actions' examples name: the channel
// done, the semaphore io, the pool workers, the mutex mu, the rwmutex rw,
// the wait group wg, and one object of each kind gmp registers, named by
// its noun (cond: objects.go).
var ExampleDecls = "chans: {done: 1}\nsems: {io: 2}\npools: {workers: {size: 2}}\nmutexes: [mu]\nrwmutexes: [rw]\nwaitgroups: [wg]\n" + objExampleDecls()

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
	f := p.mapping(m, []string{"count", "do", "wg"}, "go")
	op := gmp.Op{Kind: gmp.OpGo, Count: 1, Pos: pos}
	if c, ok := f["count"]; ok {
		op.Count = int(p.integer(c, "go count", 1, maxGoCount))
	}
	if w, ok := f["wg"]; ok {
		// wg.Go: the goroutine's body gains a deferred Done, one more
		// frame's worth of nothing; the body itself is unchanged.
		op.WG = 1 + p.ref(w, mv.Key, "go", "wait group", p.wgs, "waitgroups: [NAME]")
	}
	if d, ok := f["do"]; ok {
		op.Body = p.actionList(d, "go's do")
	} else {
		p.errorf(m, "do lists what each new goroutine runs", "go has no do:")
	}
	return op, true
}

func readLoop(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	if s, ok := p.scalar(mv.Value); ok && s == "forever" {
		// loop: forever is for {}: a loop that calls nothing.
		if p.loops == gmp.MaxLoopDepth {
			p.errorf(mv.Key, "flatten the loops, or start a goroutine (go:) for the inner ones",
				"loops nested more than %d deep in one goroutine", gmp.MaxLoopDepth)
			return gmp.Op{}, false
		}
		return gmp.Op{Kind: gmp.OpLoop, Loop: gmp.LoopForever, Pos: pos}, true
	}
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write loop: {times: 3, do: [{cpu: 1ms}]}, loop: {until: done, do: [{cpu: 1ms}]} or loop: forever", "loop needs a mapping with times and do")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"times", "until", "forever", "do"}, "loop")
	op := gmp.Op{Kind: gmp.OpLoop, Pos: pos}
	ends := 0
	for _, k := range []string{"times", "until", "forever"} {
		if _, ok := f[k]; ok {
			ends++
		}
	}
	if ends > 1 {
		p.errorf(m, "keep one of them: times: N repeats do N times, until: FLAG until the flag is set, forever: true for ever", "loop has more than one of times:, until: and forever:")
	}
	switch {
	case f["times"] != nil:
		op.Count = int(p.integer(f["times"], "loop times", 0, maxLoopTimes))
	case f["until"] != nil:
		op.Loop = gmp.LoopUntil
		op.Flag = p.flagRef(f["until"], mv.Key, "loop until", false)
	case f["forever"] != nil:
		if p.boolean(f["forever"], "forever") {
			op.Loop = gmp.LoopForever
		} else {
			p.errorf(f["forever"], "leave forever out, and write times: N or until: FLAG", "forever: false says nothing about when the loop ends")
		}
	default:
		p.errorf(m, "times says how often to repeat do; until: FLAG repeats it until a set: sets the flag, forever: true for ever", "loop has no times:")
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
	} else if op.Loop == gmp.LoopTimes {
		// A loop until a flag, or for ever, may repeat nothing: for
		// !done {} and for {}.
		p.errorf(m, "do lists the actions to repeat", "loop has no do:")
	}
	return op, true
}

// readPrint reads print: TEXT, a line the program prints. The text is
// shown in traces and terminals and written into real programs, always
// escaped or quoted there; a line break would make it two lines, which
// is two prints.
func readPrint(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	text, ok := p.scalar(mv.Value)
	if !ok {
		p.errorf(mv.Value, `write it as print: "hello"`, "print needs a line of text, not %s", describeNode(p.resolve(mv.Value)))
		return gmp.Op{}, false
	}
	if strings.ContainsAny(text, "\r\n") {
		p.errorf(mv.Value, "write one print for each line", "print writes one line: its text has a line break")
		return gmp.Op{}, false
	}
	if len(text) > gmp.MaxPrintText {
		p.errorf(mv.Value, "shorten it: a print is a line of output", "print's text is %d bytes, more than the %d a line may have", len(text), gmp.MaxPrintText)
		return gmp.Op{}, false
	}
	return gmp.Op{Kind: gmp.OpPrint, Text: text, Pos: pos}, true
}

// readSet reads set: FLAG.
func readSet(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return gmp.Op{Kind: gmp.OpSet, Flag: p.flagRef(mv.Value, mv.Key, "set", true), Pos: pos}, true
}

// flagRef resolves a flag's name, declaring the flag at its first use:
// flags need no declaration, but a loop until a flag that no set: sets
// never ends, which checkFlags reports.
func (p *reader) flagRef(v, key ast.Node, action string, sets bool) int {
	name, ok := p.scalar(v)
	if !ok || name == "" {
		p.errorf(key, "write the flag's name, e.g. "+action+": done", "%s needs a flag name", action)
		return 0
	}
	if hasControl(name) {
		p.errorf(v, "use letters, digits, spaces and punctuation", "flag name %q contains a control character", name)
	}
	i, ok := p.flags[name]
	if !ok {
		i = len(p.flagNames)
		p.flags[name] = i
		p.flagNames = append(p.flagNames, name)
		p.flagUse = append(p.flagUse, flagUse{})
	}
	if sets {
		p.flagUse[i].set = true
	} else if p.flagUse[i].read == nil {
		p.flagUse[i].read = v
	}
	return i
}

// flagUse is how a program uses a flag: whether some set: sets it, and
// the first loop that reads it.
type flagUse struct {
	set  bool
	read ast.Node
}

// checkFlags reports each flag a loop waits for that nothing sets.
func (p *reader) checkFlags() {
	for i, u := range p.flagUse {
		if u.read != nil && !u.set {
			p.errorf(u.read, "add set: "+clip(p.flagNames[i])+" where the loop should end, or write loop: {forever: true, do: […]}",
				"no set: sets the flag %q, so this loop never ends", p.flagNames[i])
		}
	}
}

func readChanOp(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return gmp.Op{Kind: a.kind, Chan: p.chanRef(mv.Value, mv.Key, a.name), Pos: pos}, true
}

func readWait(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	s, ok := p.scalar(mv.Value)
	if ok && s == "children" {
		return gmp.Op{Kind: gmp.OpWait, Pos: pos}, true
	}
	if _, declared := p.wgs[s]; ok && declared {
		return gmp.Op{Kind: gmp.OpWait, WG: 1 + p.wgs[s], Pos: pos}, true
	}
	hint := "write wait: children, or wait: WG for a wait group declared under waitgroups:"
	if c := closest(s, append([]string{"children"}, sortedNames(p.wgs)...)); ok && c != "" {
		hint = "did you mean " + c + "?"
	}
	p.errorf(mv.Value, hint, "wait takes the word children or a wait group's name")
	return gmp.Op{}, false
}

// readLockOp reads lock:, unlock:, rlock: and runlock: MU. rlock and
// runlock need an rwmutex.
func readLockOp(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	op := gmp.Op{Kind: a.kind, Pos: pos}
	name, _ := p.scalar(mv.Value)
	_, declared := p.mutexes[name]
	op.Mutex = p.ref(mv.Value, mv.Key, a.name, "mutex", p.mutexes, "mutexes: [NAME] or rwmutexes: [NAME]")
	if declared && (a.kind == gmp.OpRLock || a.kind == gmp.OpRUnlock) && !p.rw[op.Mutex] {
		p.errorf(mv.Value, "declare it under rwmutexes: to have readers", "%s needs an rwmutex, and %q is a sync.Mutex", a.name, name)
		return op, false
	}
	return op, true
}

// readAdd reads add: {wg: WG, n: N} (add: WG is n: 1). N may be
// negative, as Add's delta may.
func readAdd(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	op := gmp.Op{Kind: gmp.OpAdd, N: 1, Pos: pos}
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		op.WG = 1 + p.ref(mv.Value, mv.Key, "add", "wait group", p.wgs, "waitgroups: [NAME]")
		return op, true
	}
	f := p.mapping(m, []string{"wg", "n"}, "add")
	if v, ok := f["wg"]; ok {
		op.WG = 1 + p.ref(v, mv.Key, "add", "wait group", p.wgs, "waitgroups: [NAME]")
	} else {
		p.errorf(m, "name the wait group: wg: wg", "add has no wg:")
	}
	if v, ok := f["n"]; ok {
		op.N = int(p.integer(v, "add n", -maxGoCount, maxGoCount))
	}
	return op, true
}

// readDone reads done: WG.
func readDone(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return gmp.Op{Kind: gmp.OpDone, WG: 1 + p.ref(mv.Value, mv.Key, "done", "wait group", p.wgs, "waitgroups: [NAME]"), Pos: pos}, true
}

func sortedNames(known map[string]int) []string {
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func readSemOp(p *reader, a *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	return p.semOp(mv, a.name, pos)
}

func (p *reader) actionList(n ast.Node, what string) []gmp.Op {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 32 {
		p.errorf(n, "flatten the program", "actions nested more than 32 deep")
		return nil
	}
	r := p.resolve(n)
	seq, ok := r.(*ast.SequenceNode)
	if !ok {
		p.errorf(n, "write a list, one action per line starting with -", "%s must be a list of actions, not %s", what, describeNode(r))
		return nil
	}
	ops := make([]gmp.Op, 0, len(seq.Values))
	for _, item := range seq.Values {
		if op, ok := p.action(item); ok {
			ops = append(ops, op)
		}
	}
	return ops
}

func (p *reader) action(n ast.Node) (gmp.Op, bool) {
	p.actions++
	if p.actions == maxActions+1 {
		p.errorf(n, "use loop: and go: counts instead of repeating actions", "more than %d actions", maxActions)
	}
	if p.actions > maxActions {
		return gmp.Op{}, false
	}
	pos := p.pos(n)
	switch x := p.resolve(n).(type) {
	case *ast.StringNode:
		a := lookupAction(x.Value)
		switch {
		case a == nil:
			p.unknownAction(n, x.Value)
		case a.bare:
			return gmp.Op{Kind: a.kind, Pos: pos}, true
		default:
			p.errorf(n, "write it as "+a.name+": "+a.example, "action %s needs %s", a.name, a.needs)
		}
		return gmp.Op{}, false
	case *ast.MappingNode:
		if len(x.Values) == 0 {
			p.errorf(n, "an action looks like cpu: 1ms, or the bare word gosched", "empty action {}")
			return gmp.Op{}, false
		}
		if len(x.Values) != 1 {
			keys := make([]string, len(x.Values))
			for i, mv := range x.Values {
				keys[i] = keyName(mv)
			}
			p.errorf(n, "put each action in its own list item: - "+clip(keys[0])+": …", "one action per list item, but this one has %d keys (%s)", len(keys), strings.Join(keys, ", "))
			return gmp.Op{}, false
		}
		return p.keyedAction(x.Values[0], pos)
	case nil:
		return gmp.Op{}, false
	default:
		p.errorf(n, "an action looks like cpu: 1ms, or the bare word gosched", "expected an action, found %s", describeNode(x))
		return gmp.Op{}, false
	}
}

func (p *reader) unknownAction(n ast.Node, name string) {
	hint := "actions: " + strings.Join(actionNames(), ", ")
	if c := closest(name, actionNames()); c != "" {
		hint = "did you mean " + c + "?"
	}
	p.errorf(n, hint, "unknown action %q", name)
}

func (p *reader) keyedAction(mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	a := lookupAction(keyName(mv))
	if a == nil {
		p.unknownAction(mv.Key, keyName(mv))
		return gmp.Op{}, false
	}
	_, null := p.resolve(mv.Value).(*ast.NullNode)
	if a.bare {
		if !null {
			p.errorf(mv.Value, "write it as the bare word "+a.name, "%s takes no value", a.name)
		}
		return gmp.Op{Kind: a.kind, Pos: pos}, true
	}
	if null {
		p.errorf(mv.Key, "write it as "+a.name+": "+a.example, "action %s needs %s", a.name, a.needs)
		return gmp.Op{}, false
	}
	return a.read(p, a, mv, pos)
}

// tasks reads the count: and do: of a submit or group action. The tasks
// run in other goroutines; loops is how many frames those goroutines
// spend before the task (a pool worker's loop takes one).
func (p *reader) tasks(m *ast.MappingNode, f map[string]ast.Node, what string, loops int) (int, []gmp.Op) {
	count := 1
	if c, ok := f["count"]; ok {
		count = int(p.integer(c, what+" count", 0, maxGoCount))
	}
	outer := p.loops
	p.loops = loops
	defer func() { p.loops = outer }()
	d, ok := f["do"]
	if !ok {
		p.errorf(m, "do lists what each task runs", "%s has no do:", what)
		return count, nil
	}
	return count, p.actionList(d, what+"'s do")
}

// submit reads submit: {pool: NAME, count: N, do: [...]}.
func (p *reader) submit(mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write submit: "+example("submit"), "submit needs a mapping with pool, count and do")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"pool", "count", "do"}, "submit")
	op := gmp.Op{Kind: gmp.OpSubmit, Pos: pos}
	if v, ok := f["pool"]; ok {
		op.Pool = p.ref(v, mv.Key, "submit", "pool", p.pools, "pools: {NAME: {size: 8}}")
	} else {
		p.errorf(m, "name the pool: pool: workers", "submit has no pool:")
	}
	// A task runs in a worker whose loop takes one frame.
	op.Count, op.Body = p.tasks(m, f, "submit", 1)
	return op, true
}

// semOp reads acquire/release: {sem: NAME, n: 1} (n defaults to 1).
func (p *reader) semOp(mv *ast.MappingValueNode, action string, pos gmp.Pos) (gmp.Op, bool) {
	kind := gmp.OpAcquire
	if action == "release" {
		kind = gmp.OpRelease
	}
	op := gmp.Op{Kind: kind, N: 1, Pos: pos}
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		// acquire: io is short for {sem: io, n: 1}.
		op.Sem = p.ref(mv.Value, mv.Key, action, "semaphore", p.sems, "sems: {NAME: 4}")
		return op, true
	}
	f := p.mapping(m, []string{"sem", "n"}, action)
	if v, ok := f["sem"]; ok {
		op.Sem = p.ref(v, mv.Key, action, "semaphore", p.sems, "sems: {NAME: 4}")
	} else {
		p.errorf(m, "name the semaphore: sem: io", "%s has no sem:", action)
	}
	if v, ok := f["n"]; ok {
		op.N = int(p.integer(v, action+" n", 1, maxSemSize))
	}
	return op, true
}

// group reads group: {limit: L, count: N, do: [...]}: an errgroup with
// SetLimit(L) running N tasks, then Wait.
func (p *reader) group(mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write group: "+example("group"), "group needs a mapping with limit, count and do")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"limit", "count", "do"}, "group")
	op := gmp.Op{Kind: gmp.OpGroup, Pos: pos, Limit: -1}
	if v, ok := f["limit"]; ok {
		op.Limit = int(p.integer(v, "group limit", 0, maxChanCap))
	}
	// The group runs in the calling goroutine as two frames (its body and
	// the loop of Go calls).
	if p.loops+2 > gmp.MaxLoopDepth {
		p.errorf(mv.Key, "flatten the loops around it, or start a goroutine for it",
			"a group inside %d loops nests deeper than the %d levels a goroutine allows (a group takes two)", p.loops, gmp.MaxLoopDepth)
		return gmp.Op{}, false
	}
	op.Count, op.Body = p.tasks(m, f, "group", 0)
	return op, true
}
