package scenarios

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	yaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/schedlab/schedlab/gmp"
)

// Limits that keep a typo from asking for more than a laptop can hold.
const (
	maxGoCount   = 1_000_000
	maxLoopTimes = 1_000_000_000
	maxChanCap   = 1_000_000
	maxPoolSize  = 1_000_000
	maxSemSize   = 1_000_000_000
	maxActions   = 100_000 // actions in a file, counting each use of an alias
	maxErrors    = 20
)

var topKeys = []string{"name", "title", "summary", "procs", "seed", "until", "max_events", "policy", "noise", "expect", "chans", "pools", "sems", "main", "notes", "ask"}

var poolKeys = []string{"size", "expiry", "nonblocking", "max_blocking", "prealloc"}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Parse reads a scenario from data; file names it in errors. Every
// mistake found is reported, each as file:line:col with a hint.
func Parse(file string, data []byte) (*Scenario, error) {
	data, perr := prescan(file, data)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	p := &reader{file: file, anchors: map[string]ast.Node{}, chans: map[string]int{}, pools: map[string]int{}, sems: map[string]int{}}
	sc := p.parse(data)
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *Error) int {
			if a.Pos.Line != b.Pos.Line {
				return a.Pos.Line - b.Pos.Line
			}
			return a.Pos.Col - b.Pos.Col
		})
		return nil, p.errs
	}
	sc.Source = data
	return sc, nil
}

type reader struct {
	file    string
	errs    ErrorList
	anchors map[string]ast.Node
	chans   map[string]int
	pools   map[string]int
	sems    map[string]int
	actions int
	depth   int
	loops   int // loops enclosing the action being read, in its goroutine
}

func (p *reader) pos(n ast.Node) gmp.Pos {
	pos := gmp.Pos{File: p.file, Line: 1, Col: 1}
	if n == nil {
		return pos
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		if len(x.Values) > 0 {
			return p.pos(x.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return p.pos(x.Key)
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil && tk.Position.Line > 0 {
		pos.Line, pos.Col = tk.Position.Line, max(tk.Position.Column, 1)
	}
	return pos
}

func (p *reader) errorf(n ast.Node, hint, format string, args ...any) {
	if len(p.errs) >= maxErrors {
		return
	}
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = clip(s)
		}
	}
	p.errs = append(p.errs, &Error{Pos: p.pos(n), Msg: fmt.Sprintf(format, args...), Hint: hint})
}

func (p *reader) parse(data []byte) *Scenario {
	sc := &Scenario{File: p.file, Seed: 1, Name: defaultName(p.file)}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		p.syntaxError(err)
		return sc
	}
	var body ast.Node
	for _, d := range f.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		if body != nil {
			p.errorf(d.Body, "keep one scenario per file", "a second YAML document")
			return sc
		}
		body = d.Body
	}
	if body == nil {
		p.errs = append(p.errs, &Error{Pos: gmp.Pos{File: p.file, Line: 1, Col: 1},
			Msg: "the file is empty", Hint: "a scenario needs at least procs: and main:"})
		return sc
	}
	ast.Walk(anchorCollector(p.anchors), body)
	top, ok := p.resolve(body).(*ast.MappingNode)
	if !ok {
		p.errorf(body, "start with keys such as procs: and main:", "a scenario must be a mapping of keys, not %s", describeNode(body))
		return sc
	}
	fields := p.mapping(top, topKeys, "scenario")
	if n, ok := fields["name"]; ok {
		sc.Name = p.str(n, "name")
		if sc.Name != "" && !validName.MatchString(sc.Name) {
			p.errorf(n, "use lower-case letters, digits, - and _", "name %q is not a valid scenario name", sc.Name)
		}
	}
	if n, ok := fields["title"]; ok {
		sc.Title = p.str(n, "title")
	}
	if n, ok := fields["summary"]; ok {
		sc.Summary = p.str(n, "summary")
	}
	if n, ok := fields["procs"]; ok {
		sc.Procs = int(p.integer(n, "procs", 1, gmp.MaxProcs))
	} else {
		p.errs = append(p.errs, &Error{Pos: p.pos(top), Msg: "procs is missing",
			Hint: "procs sets GOMAXPROCS, e.g. procs: 2"})
	}
	if n, ok := fields["seed"]; ok {
		sc.Seed = uint64(p.integer(n, "seed", 0, math.MaxInt64))
	}
	if n, ok := fields["until"]; ok {
		before := len(p.errs)
		sc.Until = p.duration(n, "until")
		if sc.Until == 0 && len(p.errs) == before {
			p.errorf(n, "leave until out to run to the end", "until must be greater than zero")
		}
	}
	if n, ok := fields["max_events"]; ok {
		sc.MaxEvents = int(p.integer(n, "max_events", 1, MaxMaxEvents))
	}
	if n, ok := fields["policy"]; ok {
		v := p.str(n, "policy")
		pol, err := gmp.ParsePolicy(v)
		if err != nil {
			hint := "join several with +, e.g. policy: no-steal+no-preempt"
			for _, part := range strings.Split(v, "+") {
				if c := closest(part, gmp.PolicyNames()); c != "" && c != part {
					hint = "did you mean " + c + "?"
				}
			}
			p.errorf(n, hint, "%v", err)
		}
		sc.Policy = pol
	}
	if n, ok := fields["noise"]; ok {
		sc.Noise = p.boolean(n, "noise")
	}
	if n, ok := fields["expect"]; ok {
		switch v := p.str(n, "expect"); v {
		case "deadlock":
			sc.Expect = gmp.Deadlock
		case "panic":
			sc.Expect = gmp.Panicked
		default:
			p.errorf(n, "write expect: deadlock or expect: panic; leave it out for a run that ends normally", "unknown ending %q", v)
		}
	}
	if n, ok := fields["chans"]; ok {
		sc.Chans = p.chanDecls(n)
	}
	if n, ok := fields["pools"]; ok {
		sc.Pools = p.poolDecls(n)
	}
	if n, ok := fields["sems"]; ok {
		sc.Sems = p.semDecls(n)
	}
	if n, ok := fields["main"]; ok {
		sc.Main = p.actionList(n, "main")
	} else {
		p.errs = append(p.errs, &Error{Pos: p.pos(top), Msg: "main is missing",
			Hint: "main lists the actions of the main goroutine, e.g. main: [{cpu: 1ms}]"})
	}
	if n, ok := fields["notes"]; ok {
		sc.Notes = p.notes(n)
	}
	if n, ok := fields["ask"]; ok {
		sc.Asks = p.asks(n)
	}
	return sc
}

func (p *reader) syntaxError(err error) {
	msg := err.Error()
	pos := gmp.Pos{File: p.file, Line: 1, Col: 1}
	if ye, ok := err.(yaml.Error); ok {
		msg = ye.GetMessage()
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			pos.Line, pos.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
		}
	}
	p.errs = append(p.errs, &Error{Pos: pos, Msg: "YAML syntax: " + msg,
		Hint: "check the indentation and the colons around this spot"})
}

func defaultName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
}

type anchorCollector map[string]ast.Node

func (a anchorCollector) Visit(n ast.Node) ast.Visitor {
	if an, ok := n.(*ast.AnchorNode); ok && an.Name != nil {
		a[an.Name.GetToken().Value] = an.Value
	}
	return a
}

// resolve looks through anchors, aliases and tags to the value.
func (p *reader) resolve(n ast.Node) ast.Node {
	for range 64 {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			name := ""
			if x.Value != nil {
				name = x.Value.GetToken().Value
			}
			target, ok := p.anchors[name]
			if !ok {
				p.errorf(x, "define it first with &"+name, "alias *%s names no anchor", name)
				return nil
			}
			n = target
		default:
			return n
		}
	}
	p.errorf(n, "", "aliases nested too deeply")
	return nil
}

func describeNode(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode, nil:
		return "nothing"
	case *ast.IntegerNode, *ast.FloatNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	}
	return fmt.Sprintf("%q", n.GetToken().Value)
}

// mapping returns the values of a mapping by key, reporting unknown and
// repeated keys.
func (p *reader) mapping(m *ast.MappingNode, known []string, what string) map[string]ast.Node {
	out := map[string]ast.Node{}
	for _, mv := range m.Values {
		key := keyName(mv)
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			p.errorf(mv.Key, "write the keys out, or reuse a whole list of actions with an alias", "merge keys (<<) are not supported")
			continue
		}
		if !slices.Contains(known, key) {
			hint := "known keys: " + strings.Join(known, ", ")
			if c := closest(key, known); c != "" {
				hint = "did you mean " + c + "?"
			}
			p.errorf(mv.Key, hint, "unknown key %q in %s", key, what)
			continue
		}
		if _, dup := out[key]; dup {
			p.errorf(mv.Key, "remove one of them", "%s is given twice in %s", key, what)
			continue
		}
		out[key] = mv.Value
	}
	return out
}

func keyName(mv *ast.MappingValueNode) string {
	if mv.Key == nil || mv.Key.GetToken() == nil {
		return ""
	}
	return mv.Key.GetToken().Value
}

func (p *reader) scalar(n ast.Node) (string, bool) {
	switch x := p.resolve(n).(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return x.GetToken().Value, true
	}
	return "", false
}

func (p *reader) str(n ast.Node, what string) string {
	s, ok := p.scalar(n)
	if !ok {
		p.errorf(n, "write it as text", "%s must be text, not %s", what, describeNode(p.resolve(n)))
	}
	return s
}

func (p *reader) integer(n ast.Node, what string, lo, hi int64) int64 {
	r := p.resolve(n)
	in, ok := r.(*ast.IntegerNode)
	if !ok {
		p.errorf(n, fmt.Sprintf("write a whole number between %d and %d", lo, hi), "%s must be a whole number, not %s", what, describeNode(r))
		return lo
	}
	var v int64
	switch x := in.Value.(type) {
	case int64:
		v = x
	case uint64:
		if x > uint64(math.MaxInt64) {
			v = math.MaxInt64
		} else {
			v = int64(x)
		}
	}
	if v < lo || v > hi {
		p.errorf(n, fmt.Sprintf("it must be between %d and %d", lo, hi), "%s is %d, out of range", what, v)
		return lo
	}
	return v
}

func (p *reader) duration(n ast.Node, what string) time.Duration {
	r := p.resolve(n)
	s, ok := p.scalar(r)
	if !ok {
		p.errorf(n, "write a Go duration such as 1.5ms or 20us", "%s must be a duration, not %s", what, describeNode(r))
		return 0
	}
	if _, isInt := r.(*ast.IntegerNode); isInt && s != "0" {
		p.errorf(n, "add a unit: "+s+"ms or "+s+"us", "duration %q has no unit", s)
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		p.errorf(n, "write a Go duration such as 1.5ms, 20us or 2s", "%q is not a duration", s)
		return 0
	}
	if d < 0 {
		p.errorf(n, "durations are zero or more", "%s is negative (%v)", what, d)
		return 0
	}
	if d > MaxDuration {
		p.errorf(n, "a scenario's durations are at most a year; the run as a whole may last up to a century", "%s %v is longer than %v", what, d, MaxDuration)
		return 0
	}
	return d
}

// MaxDuration bounds every duration a scenario writes, so that no draw
// and no sum of them along a run can overflow the model's clock (which
// stops runs at gmp.MaxSimTime).
const MaxDuration = 365 * 24 * time.Hour

// dur reads a duration that may be drawn from the seed:
// 1ms, {uniform: [1ms, 3ms]} or {exp: 2ms}.
func (p *reader) dur(n ast.Node, what string) gmp.Dur {
	m, ok := p.resolve(n).(*ast.MappingNode)
	if !ok {
		return gmp.Fixed(p.duration(n, what))
	}
	before := len(p.errs)
	f := p.mapping(m, []string{"uniform", "exp"}, what)
	switch {
	case len(f) != 1:
		if len(p.errs) == before {
			p.errorf(n, "use one of {uniform: [1ms, 3ms]} or {exp: 2ms}", "%s needs exactly one distribution", what)
		}
		return gmp.Dur{}
	case f["uniform"] != nil:
		seq, ok := p.resolve(f["uniform"]).(*ast.SequenceNode)
		if !ok || len(seq.Values) != 2 {
			p.errorf(f["uniform"], "write uniform: [1ms, 3ms]", "uniform needs a list of two durations: [low, high]")
			return gmp.Dur{}
		}
		lo, hi := p.duration(seq.Values[0], "uniform low"), p.duration(seq.Values[1], "uniform high")
		if hi < lo {
			p.errorf(seq.Values[1], "put the smaller duration first", "uniform's high %v is below its low %v", hi, lo)
		}
		return gmp.Dur{Kind: gmp.DurUniform, A: lo, B: hi}
	default:
		mean := p.duration(f["exp"], "exp mean")
		if mean == 0 && len(p.errs) == before {
			p.errorf(f["exp"], "give the mean, e.g. exp: 2ms", "exp needs a mean greater than zero")
		}
		return gmp.Dur{Kind: gmp.DurExp, A: mean}
	}
}

// declarations reads a mapping of names to what they declare (chans:,
// pools:, sems:), calling each for every named entry in file order. An
// empty mapping (chans:) declares nothing; anything else is an error
// with the example. A repeated name never gets here: the YAML parser
// rejects a repeated key as a syntax error.
func (p *reader) declarations(n ast.Node, section, what, values, example string, each func(name string, mv *ast.MappingValueNode)) {
	m, ok := p.resolve(n).(*ast.MappingNode)
	if !ok {
		if _, null := p.resolve(n).(*ast.NullNode); !null {
			p.errorf(n, "write "+example, "%s must map %s names to their %s", section, what, values)
		}
		return
	}
	for _, mv := range m.Values {
		name := keyName(mv)
		if name == "" {
			p.errorf(mv.Key, "", "a %s needs a name", what)
			continue
		}
		each(name, mv)
	}
}

// chanDecls reads chans: {name: capacity}.
func (p *reader) chanDecls(n ast.Node) []gmp.ChanDecl {
	var out []gmp.ChanDecl
	p.declarations(n, "chans", "channel", "capacities", "chans: {done: 0, jobs: 8}", func(name string, mv *ast.MappingValueNode) {
		capacity := int(p.integer(mv.Value, "capacity of channel "+name, 0, maxChanCap))
		p.chans[name] = len(out)
		out = append(out, gmp.ChanDecl{Name: name, Cap: capacity, Pos: p.pos(mv.Key)})
	})
	return out
}

// poolDecls reads pools: {name: {size: 8, expiry: 1s, …}}.
func (p *reader) poolDecls(n ast.Node) []gmp.PoolDecl {
	var out []gmp.PoolDecl
	p.declarations(n, "pools", "pool", "options", "pools: {workers: {size: 8}}", func(name string, mv *ast.MappingValueNode) {
		d := gmp.PoolDecl{Name: name, Pos: p.pos(mv.Key)}
		opts, ok := p.resolve(mv.Value).(*ast.MappingNode)
		if !ok {
			p.errorf(mv.Value, "write "+name+": {size: 8}", "pool %s needs a mapping of options such as size", name)
			return
		}
		f := p.mapping(opts, poolKeys, "pool "+name)
		if v, ok := f["size"]; ok {
			d.Size = int(p.integer(v, "size of pool "+name, 0, maxPoolSize))
		} else {
			p.errorf(opts, "size is the capacity; 0 means no limit", "pool %s has no size:", name)
		}
		if v, ok := f["expiry"]; ok {
			d.Expiry = p.duration(v, "expiry of pool "+name)
			if d.Expiry == 0 {
				p.errorf(v, "leave expiry out for the default of 1s", "expiry must be greater than zero")
			}
		}
		if v, ok := f["nonblocking"]; ok {
			d.Nonblocking = p.boolean(v, "nonblocking")
		}
		if v, ok := f["max_blocking"]; ok {
			d.MaxBlocking = int(p.integer(v, "max_blocking of pool "+name, 0, maxGoCount))
		}
		if v, ok := f["prealloc"]; ok {
			d.PreAlloc = p.boolean(v, "prealloc")
			if d.PreAlloc && d.Size == 0 {
				p.errorf(v, "give the pool a size, or drop prealloc", "a prealloc pool needs a size (ErrInvalidPreAllocSize)")
			}
		}
		p.pools[name] = len(out)
		out = append(out, d)
	})
	return out
}

// semDecls reads sems: {name: capacity}.
func (p *reader) semDecls(n ast.Node) []gmp.SemDecl {
	var out []gmp.SemDecl
	p.declarations(n, "sems", "semaphore", "capacities", "sems: {io: 4}", func(name string, mv *ast.MappingValueNode) {
		size := int(p.integer(mv.Value, "capacity of semaphore "+name, 1, maxSemSize))
		p.sems[name] = len(out)
		out = append(out, gmp.SemDecl{Name: name, Size: size, Pos: p.pos(mv.Key)})
	})
	return out
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
			p.errorf(n, "put each action in its own list item: - "+keys[0]+": …", "one action per list item, but this one has %d keys (%s)", len(keys), strings.Join(keys, ", "))
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

// ref resolves the name of a declared pool or semaphore.
func (p *reader) ref(v, key ast.Node, action, what string, known map[string]int, decl string) int {
	name, ok := p.scalar(v)
	if !ok || name == "" {
		p.errorf(key, "write the "+what+"'s name", "%s needs a %s name", action, what)
		return 0
	}
	i, ok := known[name]
	if !ok {
		names := make([]string, 0, len(known))
		for n := range known {
			names = append(names, n)
		}
		slices.Sort(names)
		hint := "declare it under " + decl
		if c := closest(name, names); c != "" {
			hint = "did you mean " + c + "? (" + hint + ")"
		}
		p.errorf(v, hint, "%s %q is not declared", what, name)
		return 0
	}
	return i
}

func hasKey(m *ast.MappingNode, key string) bool {
	for _, mv := range m.Values {
		if keyName(mv) == key {
			return true
		}
	}
	return false
}

func (p *reader) boolean(n ast.Node, what string) bool {
	b, ok := p.resolve(n).(*ast.BoolNode)
	if !ok {
		p.errorf(n, "write true or false", "%s must be true or false", what)
		return false
	}
	return b.Value
}

func (p *reader) chanRef(v, key ast.Node, action string) int {
	name, ok := p.scalar(v)
	if !ok || name == "" {
		p.errorf(key, "write it as "+action+": CHANNEL", "%s needs a channel name", action)
		return 0
	}
	i, ok := p.chans[name]
	if !ok {
		names := make([]string, 0, len(p.chans))
		for n := range p.chans {
			names = append(names, n)
		}
		slices.Sort(names)
		hint := "declare it under chans:, e.g. chans: {" + clip(name) + ": 0}"
		if c := closest(name, names); c != "" {
			hint = "did you mean " + c + "? (" + hint + ")"
		}
		p.errorf(v, hint, "channel %q is not declared", name)
		return 0
	}
	return i
}

func (p *reader) notes(n ast.Node) []Note {
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok {
		p.errorf(n, "write a list of {at: 1ms, text: …} or {on: steal, text: …}", "notes must be a list")
		return nil
	}
	var out []Note
	for _, item := range seq.Values {
		m, ok := p.resolve(item).(*ast.MappingNode)
		if !ok {
			p.errorf(item, "write {at: 1ms, text: …} or {on: steal, text: …}", "a note must be a mapping")
			continue
		}
		f := p.mapping(m, []string{"at", "on", "text"}, "note")
		note := Note{Pos: p.pos(item), Moment: p.moment(m, f, "a note")}
		if t, ok := f["text"]; ok {
			note.Text = strings.TrimSpace(p.str(t, "text"))
			if note.Text == "" {
				p.errorf(t, "write the caption to show", "a note's text is empty")
			}
		} else {
			p.errorf(m, "write the caption to show", "a note has no text:")
		}
		out = append(out, note)
	}
	return out
}

func kindNames() []string {
	var out []string
	for _, k := range gmp.Kinds() {
		out = append(out, k.String())
	}
	return out
}
