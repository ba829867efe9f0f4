package scenarios

import (
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
)

// caseKeys are the keys of a select case: one of the first three says
// what it waits for, do what it runs once chosen.
var caseKeys = []string{"recv", "send", "after", "do"}

// readSelect reads select: {cases: [{recv: CH, do: [...]}, {send: CH},
// {after: D}], default: [...]}, Go's select statement: a case for each
// communication (case <-ch, case ch <- v, case <-time.After(d)) and,
// written apart as Go writes it last, a default. select: {} is Go's
// select {}, which blocks for ever.
func readSelect(p *reader, _ *actionInfo, mv *ast.MappingValueNode, pos gmp.Pos) (gmp.Op, bool) {
	m, ok := p.resolve(mv.Value).(*ast.MappingNode)
	if !ok {
		p.errorf(mv.Key, "write select: "+example("select")+", or select: {} to block for ever",
			"select needs a mapping with cases and, for a select that does not block, a default")
		return gmp.Op{}, false
	}
	f := p.mapping(m, []string{"cases", "default"}, "select")
	op := gmp.Op{Kind: gmp.OpSelect, Pos: pos}
	if n, ok := f["cases"]; ok {
		seq, ok := p.resolve(n).(*ast.SequenceNode)
		if !ok {
			p.errorf(n, "write cases: [{recv: CH, do: [...]}, {after: 5ms}]", "select's cases must be a list, not %s", describeNode(p.resolve(n)))
			return gmp.Op{}, false
		}
		for _, item := range seq.Values {
			if c, ok := p.selectCase(item); ok {
				op.Cases = append(op.Cases, c)
			}
		}
	}
	if n, ok := f["default"]; ok {
		op.Cases = append(op.Cases, gmp.SelectCase{Dir: gmp.SelectDefault, Body: p.caseBody(n, "select's default"), Pos: p.pos(n)})
	}
	if len(op.Cases) > gmp.MaxSelectCases {
		p.errorf(mv.Key, "split it into selects of fewer cases",
			"a select of %d cases: the model allows %d, default included", len(op.Cases), gmp.MaxSelectCases)
		return gmp.Op{}, false
	}
	return op, true
}

// selectCase reads one case: {recv: CH, do: [...]}, {send: CH} or
// {after: D, do: [...]}.
func (p *reader) selectCase(n ast.Node) (gmp.SelectCase, bool) {
	m, ok := p.resolve(n).(*ast.MappingNode)
	if !ok {
		p.errorf(n, "write a case as {recv: CH, do: [...]}, {send: CH} or {after: 5ms}", "a select case must be a mapping, not %s", describeNode(p.resolve(n)))
		return gmp.SelectCase{}, false
	}
	f := p.mapping(m, caseKeys, "a select case")
	c := gmp.SelectCase{Pos: p.pos(m)}
	var kinds []string
	for _, k := range caseKeys[:3] {
		if _, ok := f[k]; ok {
			kinds = append(kinds, k)
		}
	}
	switch {
	case len(kinds) == 0:
		p.errorf(m, "say what it waits for: recv: CH, send: CH or after: 5ms (a default goes under select's default:)", "a select case has none of recv, send or after")
		return c, false
	case len(kinds) > 1:
		p.errorf(m, "one communication a case: write a case for each", "a select case has %s: one is allowed", strings.Join(kinds, " and "))
		return c, false
	}
	switch v := f[kinds[0]]; kinds[0] {
	case "recv":
		c.Dir, c.Chan = gmp.SelectRecv, p.chanRef(v, m, "recv")
	case "send":
		c.Dir, c.Chan = gmp.SelectSend, p.chanRef(v, m, "send")
	case "after":
		c.Dir, c.Dur = gmp.SelectAfter, p.dur(v, "after")
	}
	if d, ok := f["do"]; ok {
		c.Body = p.caseBody(d, "a case's do")
	}
	return c, true
}

// caseBody reads what a case runs. The model runs it as a frame of the
// goroutine's, as a loop's body, so it counts among the loops a goroutine
// may nest.
func (p *reader) caseBody(n ast.Node, what string) []gmp.Op {
	if seq, ok := p.resolve(n).(*ast.SequenceNode); ok && len(seq.Values) > 0 && p.loops == gmp.MaxLoopDepth {
		p.errorf(n, "flatten the loops around the select, or start a goroutine (go:) for it",
			"a select's case inside %d loops nests deeper than a goroutine allows (its body takes a level, as a loop's)", p.loops)
		return nil
	}
	p.loops++
	defer func() { p.loops-- }()
	return p.actionList(n, what)
}
