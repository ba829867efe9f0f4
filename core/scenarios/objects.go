package scenarios

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
)

// Objects of the kinds gmp registers (gmp.ObjKinds: sync.Cond, …) are
// read here for every kind at once: the declaration under the kind's key,
// KEY: [NAME, …], or KEY: {NAME: REF, …} for a kind whose objects name
// another (a cond its mutex), and one action per named verb. A new kind
// needs nothing in this package.

// objKeys are the top-level keys of the registered kinds.
func objKeys() []string {
	var keys []string
	for _, k := range gmp.ObjKinds() {
		keys = append(keys, k.Key)
	}
	return keys
}

// objDecls reads the declarations of every registered kind, after the
// mutexes they may name.
func (p *reader) objDecls(fields map[string]ast.Node) []gmp.ObjDecl {
	var out []gmp.ObjDecl
	p.objs = make([]map[string]int, len(gmp.ObjKinds()))
	for ki, k := range gmp.ObjKinds() {
		p.objs[ki] = map[string]int{}
		n, ok := fields[k.Key]
		if !ok {
			continue
		}
		declare := func(name string, at ast.Node, ref int) {
			p.objs[ki][name] = len(out)
			out = append(out, gmp.ObjDecl{Kind: ki, Name: name, Ref: ref, Pos: p.pos(at)})
		}
		if k.Ref == "" {
			p.names(n, k.Key, k.Noun, p.objs[ki], func(name string, at ast.Node) { declare(name, at, 0) })
			continue
		}
		example := k.Key + ": {NAME: " + exampleName(k.Ref) + "}"
		p.declarations(n, k.Key, k.Noun, k.Ref+"es", example, func(name string, mv *ast.MappingValueNode) {
			if _, dup := p.objs[ki][name]; dup {
				p.errorf(mv.Key, "give each a name of its own", "%q is declared twice", name)
				return
			}
			declare(name, mv.Key, p.ref(mv.Value, mv.Key, k.Noun+" "+name, k.Ref, p.refNames(k.Ref), refDecl(k.Ref)))
		})
	}
	return out
}

// refNames are the declared objects a kind's Ref may name.
func (p *reader) refNames(noun string) map[string]int {
	if noun == "mutex" {
		return p.mutexes
	}
	return nil
}

// refDecl is where an object a Ref names is declared, for hints.
func refDecl(noun string) string {
	if noun == "mutex" {
		return "mutexes: [NAME] or rwmutexes: [NAME]"
	}
	return noun
}

// exampleName is the name ExampleDecls gives an object of the noun.
func exampleName(noun string) string {
	if noun == "mutex" {
		return "mu"
	}
	return noun
}

// objExampleDecls declares one object of each registered kind, named by
// its noun, for ExampleDecls.
func objExampleDecls() string {
	var s string
	for _, k := range gmp.ObjKinds() {
		if k.Ref == "" {
			s += k.Key + ": [" + exampleName(k.Noun) + "]\n"
		} else {
			s += k.Key + ": {" + exampleName(k.Noun) + ": " + exampleName(k.Ref) + "}\n"
		}
	}
	return s
}

// objActionRows are the action table's rows of every named verb of every
// registered kind.
func objActionRows() []actionInfo {
	var rows []actionInfo
	for ki, k := range gmp.ObjKinds() {
		for vi, v := range k.Verbs {
			if v.Name == "" {
				continue
			}
			rows = append(rows, actionInfo{name: v.Name, kind: gmp.OpObj, needs: "a " + k.Noun, example: exampleName(k.Noun), doc: v.Doc,
				read: func(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
					decl := k.Key + ": [NAME]"
					if k.Ref != "" {
						decl = k.Key + ": {NAME: " + exampleName(k.Ref) + "}"
					}
					if v.RunsABody() && p.loops+1 > gmp.MaxLoopDepth {
						p.errorf(mv.Key, "flatten the loops around it, or start a goroutine for it",
							"%s inside %d loops nests deeper than the %d levels a goroutine allows (it runs in a frame, as a loop does)", v.Name, p.loops, gmp.MaxLoopDepth)
						return gmp.Op{}, false
					}
					i := p.ref(mv.Value, mv.Key, v.Name, k.Noun, p.objs[ki], decl)
					return gmp.Op{Kind: gmp.OpObj, Obj: i, Verb: uint8(vi), Pos: pos}, true
				}})
		}
	}
	return rows
}
