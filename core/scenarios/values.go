package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
)

// The reader's values: scalars, durations, mappings with known keys, and
// the anchors and aliases in front of any of them. Each reports a mistake
// at its node and returns a usable zero, so that reading goes on and every
// mistake in a file is found at once.

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
				p.errorf(x, "define it first with &"+clip(name), "alias *%s names no anchor", name)
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
		p.errorf(n, "add a unit: "+clip(s)+"ms or "+clip(s)+"us", "duration %q has no unit", s)
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
