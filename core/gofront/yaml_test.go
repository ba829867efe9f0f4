package gofront

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
)

// withoutPos is a program with every position cleared: the YAML's lines
// are not the Go file's.
func withoutPos(p *gmp.Program) *gmp.Program {
	var clear func(ops []gmp.Op) []gmp.Op
	clear = func(ops []gmp.Op) []gmp.Op {
		if ops == nil {
			return nil
		}
		out := make([]gmp.Op, len(ops))
		for i, op := range ops {
			op.Pos = gmp.Pos{}
			op.Body = clear(op.Body)
			if len(op.Body) == 0 {
				op.Body = nil
			}
			if op.Cases != nil {
				cases := make([]gmp.SelectCase, len(op.Cases))
				for j, c := range op.Cases {
					c.Pos = gmp.Pos{}
					c.Body = clear(c.Body)
					if len(c.Body) == 0 {
						c.Body = nil
					}
					cases[j] = c
				}
				op.Cases = cases
			}
			out[i] = op
		}
		return out
	}
	q := &gmp.Program{Main: clear(p.Main)}
	for _, c := range p.Chans {
		c.Pos = gmp.Pos{}
		q.Chans = append(q.Chans, c)
	}
	for _, s := range p.Sems {
		s.Pos = gmp.Pos{}
		q.Sems = append(q.Sems, s)
	}
	for _, m := range p.Mutexes {
		m.Pos = gmp.Pos{}
		q.Mutexes = append(q.Mutexes, m)
	}
	for _, w := range p.WaitGroups {
		w.Pos = gmp.Pos{}
		q.WaitGroups = append(q.WaitGroups, w)
	}
	for _, pl := range p.Pools {
		pl.Pos = gmp.Pos{}
		q.Pools = append(q.Pools, pl)
	}
	return q
}

// yamlReadsBack holds YAML(sc) to reading back into sc's program and
// settings.
func yamlReadsBack(t *testing.T, name string, sc *scenarios.Scenario) {
	t.Helper()
	text := YAML(sc)
	back, err := scenarios.Parse(name+".yaml", text)
	if err != nil {
		t.Fatalf("%s: the YAML does not read back: %v\n%s", name, err, text)
	}
	if !reflect.DeepEqual(withoutPos(back.Program()), withoutPos(sc.Program())) {
		t.Errorf("%s: the YAML reads back into another program:\n%s", name, text)
	}
	if back.Name != sc.Name || back.Title != sc.Title || back.Config() != sc.Config() || back.Expect != sc.Expect {
		t.Errorf("%s: the YAML reads back with other settings: %+v %q, want %+v %q", name, back.Config(), back.Title, sc.Config(), sc.Title)
	}
}

// What translate prints reads back into the same program, for every
// accepted case and every built-in's real program.
func TestGoTranslateYAMLReadsBack(t *testing.T) {
	n := 0
	for _, f := range readTxtar(t, "testdata/constructs.txtar") {
		if parseWant(f.data).yaml == "" {
			continue
		}
		sc, err := Translate("main.go", []byte(f.data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		yamlReadsBack(t, f.name, sc)
		n++
	}
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		p, err := prog.Translate(b, b.Config())
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Translate(b.Name+".go", p.Main, Options{})
		if err != nil {
			t.Fatal(err)
		}
		yamlReadsBack(t, b.Name, sc)
		n++
	}
	if n < 40 {
		t.Errorf("only %d programs read back", n)
	}
}

// A name or title with characters YAML would read otherwise, or that
// would end a comment, is quoted.
func TestGoTranslateYAMLQuotes(t *testing.T) {
	for _, s := range []string{"true", "null", "a: b", "x\ny", "#x", "ok-name", "1abc", "é", "\x1b[31m"} {
		got := yamlString(s)
		back, err := scenarios.Parse("q.yaml", []byte("procs: 1\ntitle: "+got+"\nmain: []\n"))
		if err != nil {
			t.Errorf("%q written as %s does not parse: %v", s, got, err)
			continue
		}
		if back.Title != s {
			t.Errorf("%q written as %s reads back as %q", s, got, back.Title)
		}
		if strings.ContainsAny(got, "\n\x1b") {
			t.Errorf("%q written as %s keeps a control character", s, got)
		}
	}
}
