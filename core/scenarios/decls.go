package scenarios

import (
	"slices"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
)

// The declarations a scenario names its objects in (chans:, pools:,
// sems:), and the references actions make to them.

var poolKeys = []string{"size", "expiry", "nonblocking", "max_blocking", "prealloc", "queue", "clock"}

// poolClocks are the values of a pool's clock: option: the pool's exact
// time, or ants' coarse one (pool.WithCoarseClock).
var poolClocks = []string{"exact", "coarse"}

// declarations reads a mapping of names to what they declare (chans:,
// pools:, sems:), calling each for every named entry in file order. An
// empty mapping (chans:) declares nothing; anything else is an error
// with the example. A repeated name never gets here: the YAML parser
// rejects a repeated key as a syntax error. A name with a control
// character in it is an error (hasControl): names are shown in messages
// and the terminal and written into the programs schedlab real builds.
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
			p.errorf(mv.Key, "write a name before the colon, e.g. "+example, "a %s needs a name", what)
			continue
		}
		if hasControl(name) {
			// Still declared, so that the actions naming it resolve and
			// this is the one error about it.
			p.errorf(mv.Key, "use letters, digits, spaces and punctuation", "%s name %q contains a control character", what, name)
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
			p.errorf(mv.Value, "write "+clip(name)+": {size: 8}", "pool %s needs a mapping of options such as size", name)
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
		if v, ok := f["queue"]; ok {
			d.Queue = int(p.integer(v, "queue of pool "+name, 0, maxPoolSize))
			if d.Queue > 0 && d.Size == 0 {
				p.errorf(v, "give the pool a size, or drop queue", "a pool with no limit never queues a task: it starts a worker")
			}
		}
		if v, ok := f["clock"]; ok {
			switch c, _ := p.scalar(v); c {
			case "coarse":
				d.CoarseClock = true
			case "exact":
			default:
				hint := "write clock: coarse for ants' clock, or exact (the default)"
				if near := closest(c, poolClocks); near != "" {
					hint = "did you mean " + near + "?"
				}
				p.errorf(v, hint, "pool %s: unknown clock %q (exact or coarse)", name, c)
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

// names reads a list of names (mutexes: [mu, cache]), calling each for
// every name in file order. A name given twice in the list, or already
// declared (taken), is an error; so is one with a control character.
func (p *reader) names(n ast.Node, section, what string, taken map[string]int, each func(name string, at ast.Node)) {
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok {
		if _, null := p.resolve(n).(*ast.NullNode); !null {
			p.errorf(n, "write "+section+": [NAME, …]", "%s must list %s names", section, what)
		}
		return
	}
	for _, v := range seq.Values {
		name, ok := p.scalar(v)
		if !ok || name == "" {
			p.errorf(v, "write a name, e.g. "+section+": [mu]", "a %s needs a name", what)
			continue
		}
		if hasControl(name) {
			p.errorf(v, "use letters, digits, spaces and punctuation", "%s name %q contains a control character", what, name)
		}
		if _, dup := taken[name]; dup {
			p.errorf(v, "give each a name of its own", "%q is declared twice", name)
			continue
		}
		each(name, v)
	}
}

// mutexDecls reads mutexes: [NAME, …] or, with rw, rwmutexes: [NAME, …],
// after those already declared: lock: names either kind.
func (p *reader) mutexDecls(n ast.Node, section string, rw bool, out []gmp.MutexDecl) []gmp.MutexDecl {
	what := "mutex"
	if rw {
		what = "rwmutex"
	}
	p.names(n, section, what, p.mutexes, func(name string, at ast.Node) {
		p.mutexes[name] = len(out)
		p.rw = append(p.rw, rw)
		out = append(out, gmp.MutexDecl{Name: name, RW: rw, Pos: p.pos(at)})
	})
	return out
}

// waitGroupDecls reads waitgroups: [NAME, …].
func (p *reader) waitGroupDecls(n ast.Node) []gmp.WaitGroupDecl {
	var out []gmp.WaitGroupDecl
	p.names(n, "waitgroups", "wait group", p.wgs, func(name string, at ast.Node) {
		p.wgs[name] = len(out)
		out = append(out, gmp.WaitGroupDecl{Name: name, Pos: p.pos(at)})
	})
	return out
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
