package scenarios

import (
	"errors"
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

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
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
	// maxHint bounds a hint: the longest the parser writes, the list of
	// facts a question may ask, is about 1.2 KB.
	maxHint = 1536
)

var topKeys = []string{"name", "title", "summary", "procs", "seed", "until", "max_events", "policy", "noise", "start", "cpus", "load", "expect", "chans", "pools", "sems", "mutexes", "rwmutexes", "waitgroups", "main", "notes", "ask", "marks"}

// allKeys are topKeys and the keys of the kinds of object gmp registers
// (objects.go).
var allKeys = append(append([]string(nil), topKeys...), objKeys()...)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Parse reads a scenario from data; file names it in errors. Every
// mistake found is reported, each as file:line:col with a hint.
func Parse(file string, data []byte) (*Scenario, error) {
	data, perr := prescan(file, data)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	p := &reader{file: file, anchors: map[string]ast.Node{}, chans: map[string]int{}, pools: map[string]int{}, sems: map[string]int{},
		mutexes: map[string]int{}, wgs: map[string]int{}, flags: map[string]int{}}
	sc := p.parse(data)
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	sc.Source = data
	return sc, nil
}

// sort puts the errors in file order (a file's mistakes are found in the
// order its parts are read, not written).
func (l ErrorList) sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
}

type reader struct {
	file    string
	errs    ErrorList
	anchors map[string]ast.Node
	chans   map[string]int
	pools   map[string]int
	sems    map[string]int
	mutexes map[string]int // mutexes and rwmutexes, one namespace
	rw      []bool         // by mutex: declared under rwmutexes:
	wgs     map[string]int
	// objs are, by registered kind, its objects' names and their index
	// into Scenario.Objects (objects.go).
	objs []map[string]int
	// flags are the shared flags, named by their first use (flagRef).
	flags     map[string]int
	flagNames []string
	flagUse   []flagUse
	actions   int
	depth     int
	loops     int // loops enclosing the action being read, in its goroutine
	refs      []askRef
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
	// A hint quotes a user's text only through clip; maxHint holds it to
	// that should a call forget.
	e := &Error{Pos: p.pos(n), Msg: fmt.Sprintf(format, args...), Hint: safetext.Clip(hint, maxHint)}
	// A node an alias reaches is read again at each use: a mistake in a
	// list that holds itself would be reported once per use, up to the
	// limit. The same message at the same place is one mistake.
	for _, old := range p.errs {
		if old.Pos == e.Pos && old.Msg == e.Msg {
			return
		}
	}
	p.errs = append(p.errs, e)
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
	fields := p.mapping(top, allKeys, "scenario")
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
			if conflict := (*gmp.PolicyConflictError)(nil); errors.As(err, &conflict) {
				hint = "keep one of the two: schedlab list --policies says what each changes"
			}
			p.errorf(n, hint, "%v", err)
		}
		sc.Policy = pol
	}
	if n, ok := fields["noise"]; ok {
		sc.Noise = p.boolean(n, "noise")
	}
	if n, ok := fields["start"]; ok {
		switch v := p.str(n, "start"); v {
		case "warm":
			sc.WarmStart = true
		case "cold":
		default:
			p.errorf(n, "write start: warm for the runtime as main.main finds it (idle threads, schedtick advanced), or leave it out", "unknown start %q", v)
		}
	}
	if n, ok := fields["cpus"]; ok {
		sc.CPUs = int(p.integer(n, "cpus", 1, gmp.MaxProcs))
	}
	if n, ok := fields["load"]; ok {
		sc.Load = int(p.integer(n, "load", 0, gmp.MaxLoad))
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
	if n, ok := fields["mutexes"]; ok {
		sc.Mutexes = p.mutexDecls(n, "mutexes", false, sc.Mutexes)
	}
	if n, ok := fields["rwmutexes"]; ok {
		sc.Mutexes = p.mutexDecls(n, "rwmutexes", true, sc.Mutexes)
	}
	if n, ok := fields["waitgroups"]; ok {
		sc.WaitGroups = p.waitGroupDecls(n)
	}
	sc.Objects = p.objDecls(fields)
	if n, ok := fields["main"]; ok {
		sc.Main = p.actionList(n, "main")
		p.checkFlags()
		sc.Flags = p.flagNames
	} else {
		p.errs = append(p.errs, &Error{Pos: p.pos(top), Msg: "main is missing",
			Hint: "main lists the actions of the main goroutine, e.g. main: [{cpu: 1ms}]"})
	}
	if n, ok := fields["notes"]; ok {
		sc.Notes = p.notes(n)
	}
	if n, ok := fields["ask"]; ok {
		sc.Asks = p.asks(n)
		sc.refs = p.refs
	}
	if n, ok := fields["marks"]; ok {
		sc.Marks = p.marks(n)
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
	p.errs = append(p.errs, &Error{Pos: pos, Msg: "YAML syntax: " + safetext.Brief(msg),
		Hint: "check the indentation and the colons around this spot"})
}

func defaultName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
}

// MaxDuration bounds every duration a scenario writes, so that no draw
// and no sum of them along a run can overflow the model's clock (which
// stops runs at gmp.MaxSimTime).
const MaxDuration = 365 * 24 * time.Hour
