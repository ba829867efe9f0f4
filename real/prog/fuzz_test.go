package prog

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// stringsTemplate is a small scenario with a string in every slot a file
// can put one: the declared names, title, summary and a note (the file
// name is Parse's argument, and also the scenario's name when the file
// gives none). It uses every kind of declaration and every action that
// names one. Each @…@ is replaced by a quoted string.
const stringsTemplate = `procs: 2
seed: 3
until: 1s
title: @title@
summary: @summary@
chans: {@c1@: 1, @c2@: 0}
sems: {@s@: 2}
pools: {@p@: {size: 2, expiry: 1s}}
main:
  - go: {count: 2, do: [{send: @c1@}, {acquire: {sem: @s@, n: 1}}, {cpu: {uniform: [1ms, 2ms]}}, {release: {sem: @s@, n: 1}}]}
  - submit: {pool: @p@, count: 2, do: [{recv: @c1@}, {syscall: 1ms}]}
  - group: {count: 2, limit: 1, do: [{net: 1ms}]}
  - close: @c2@
  - recv: @c2@
  - wait: children
notes:
  - at: 1ms
    text: @note@
`

// stringSlots are the strings a fuzz input puts into a scenario.
type stringSlots struct {
	c1, c2, s, p, title, summary, note, file string
}

var benignSlots = stringSlots{c1: "c1", c2: "c2", s: "s", p: "p", title: "T", summary: "S", note: "N", file: "benign.yaml"}

// source writes the template with the slots, each as a YAML double-quoted
// scalar (JSON's quoting, which YAML reads alike).
func (s stringSlots) source() string {
	q := func(v string) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return strings.NewReplacer("@c1@", q(s.c1), "@c2@", q(s.c2), "@s@", q(s.s), "@p@", q(s.p),
		"@title@", q(s.title), "@summary@", q(s.summary), "@note@", q(s.note)).Replace(stringsTemplate)
}

// withSlots parses the benign template as file and then sets the slots
// on the scenario itself, past the parser's checks: the translator must
// hold on its own whatever a scenario's strings are, even two channels
// of one name.
func withSlots(t *testing.T, s stringSlots) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Parse(s.file, []byte(benignSlots.source()))
	if err != nil {
		t.Fatalf("the benign scenario does not parse as %q: %v", s.file, err)
	}
	sc.Chans[0].Name, sc.Chans[1].Name, sc.Sems[0].Name, sc.Pools[0].Name = s.c1, s.c2, s.s, s.p
	sc.Title, sc.Summary, sc.Notes[0].Text = s.title, s.summary, s.note
	sc.Name = s.file
	return sc
}

// benignProgram is the translation the others are held against, made
// once: the fuzzer calls for it on every input.
var benignProgram = sync.OnceValues(func() (*Program, error) {
	sc, err := scenarios.Parse(benignSlots.file, []byte(benignSlots.source()))
	if err != nil {
		return nil, err
	}
	return Translate(sc, sc.Config())
})

// declared is whether an identifier is one the translator makes from a
// declared name.
func declared(name string) bool {
	return strings.HasPrefix(name, "ch_") || strings.HasPrefix(name, "sem_") || strings.HasPrefix(name, "pool_")
}

// sameProgram checks that got is want with other strings: the same
// imports, the same comments word for word, and the same syntax tree
// node for node, where only string literals and the identifiers of
// declared objects may differ, and those identifiers stand one for one
// for want's (no two objects share one, none is another name of the
// program). It also checks that the scenario's file, name and title are
// in got as string literals that read back exactly.
func sameProgram(t *testing.T, sc *scenarios.Scenario, got, want *Program) {
	t.Helper()
	parse := func(p *Program) *ast.File {
		f, err := parser.ParseFile(token.NewFileSet(), "main.go", p.Main, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("the program does not parse: %v\n%s", err, p.Main)
		}
		return f
	}
	gf, wf := parse(got), parse(want)
	if g, w := importPaths(gf), importPaths(wf); !reflect.DeepEqual(g, w) {
		t.Errorf("imports %q, want %q", g, w)
	}
	if !reflect.DeepEqual(got.Needs, want.Needs) || got.UsesPool != want.UsesPool || got.Procs != want.Procs {
		t.Errorf("needs %v (pool %v, procs %d), want %v (pool %v, procs %d)", got.Needs, got.UsesPool, got.Procs, want.Needs, want.UsesPool, want.Procs)
	}
	if g, w := comments(gf), comments(wf); !reflect.DeepEqual(g, w) {
		t.Errorf("the comments differ from the benign program's:\n%q\nwant\n%q", g, w)
	}
	gn, wn := nodes(gf), nodes(wf)
	if len(gn) != len(wn) {
		t.Fatalf("the program has %d syntax nodes, the benign one %d:\n%s", len(gn), len(wn), got.Main)
	}
	forward, backward := map[string]string{}, map[string]string{}
	plain := map[string]bool{}
	for _, n := range wn {
		if n.kind == "*ast.Ident" && !declared(n.text) {
			plain[n.text] = true
		}
	}
	for i := range gn {
		g, w := gn[i], wn[i]
		if g.kind != w.kind {
			t.Fatalf("node %d is a %s, want a %s:\n%s", i, g.kind, w.kind, got.Main)
		}
		switch {
		case w.kind == "*ast.BasicLit" && strings.HasPrefix(w.text, "STRING "):
			if !strings.HasPrefix(g.text, "STRING ") {
				t.Fatalf("node %d is %s, want a string", i, g.text)
			}
		case w.kind == "*ast.Ident" && declared(w.text):
			if plain[g.text] {
				t.Errorf("a declared object is called %s, a name the program uses for something else", g.text)
			}
			if f, ok := forward[w.text]; ok && f != g.text {
				t.Errorf("%s is written both %s and %s", w.text, f, g.text)
			}
			if b, ok := backward[g.text]; ok && b != w.text {
				t.Errorf("%s stands for both %s and %s", g.text, b, w.text)
			}
			forward[w.text], backward[g.text] = g.text, w.text
		case g.text != w.text:
			t.Fatalf("node %d is %s %s, want %s", i, g.kind, g.text, w.text)
		}
	}
	consts := map[string]string{}
	for _, d := range gf.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if v, err := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value); err == nil {
					consts[vs.Names[0].Name] = v
				}
			}
		}
	}
	for name, want := range map[string]string{"scenarioFile": sc.File, "scenarioName": sc.Name, "scenarioTitle": sc.Title} {
		if consts[name] != want {
			t.Errorf("%s reads %q, want %q", name, consts[name], want)
		}
	}
}

func importPaths(f *ast.File) []string {
	var out []string
	for _, imp := range f.Imports {
		out = append(out, imp.Path.Value)
	}
	return out
}

func comments(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			out = append(out, c.Text)
		}
	}
	return out
}

type node struct{ kind, text string }

// nodes lists a file's syntax tree in walk order: each node's type, with
// the name of an identifier and the kind and value of a literal.
func nodes(f *ast.File) []node {
	var out []node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		nd := node{kind: fmt.Sprintf("%T", n)}
		switch x := n.(type) {
		case *ast.Ident:
			nd.text = x.Name
		case *ast.BasicLit:
			nd.text = x.Kind.String() + " " + x.Value
		case *ast.Comment, *ast.CommentGroup:
			return false // compared apart, by comments
		}
		out = append(out, nd)
		return true
	})
	return out
}

// checkStrings holds the property for one set of strings: put into the
// scenario, through the parser when it accepts them and past it either
// way, they change no code of the program, only its string literals and
// the spelling of its declared objects.
func checkStrings(t *testing.T, s stringSlots) {
	t.Helper()
	want, err := benignProgram()
	if err != nil {
		t.Fatalf("the benign scenario: %v", err)
	}
	if sc, err := scenarios.Parse(s.file, []byte(s.source())); err == nil {
		prog, err := Translate(sc, sc.Config())
		if err != nil {
			t.Fatalf("a scenario that parses does not translate: %v", err)
		}
		sameProgram(t, sc, prog, want)
	}
	sc := withSlots(t, s)
	prog, err := Translate(sc, sc.Config())
	if err != nil {
		t.Fatalf("translating: %v", err)
	}
	sameProgram(t, sc, prog, want)
}

// hostileStrings end comments, strings and statements, or look like
// something else, in the places a scenario's text could reach.
var hostileStrings = []string{
	"",
	"a",
	"a\nos.Exit(42)\n//",
	"x\n}\nfunc init() { os.Exit(42) }\nvar _ = func() {\n//",
	"*/ os.Exit(42) /*",
	"\"); os.Exit(42); (\"",
	"`; os.Exit(42); `",
	"a\ros.Exit(42)",
	"a\u2028os.Exit(42)",
	"a\u0085os.Exit(42)",
	"\x1b]0;owned\a",
	"a\u202eb",
	"\xff\xfe",
	"a-b",
	"a_b",
	"é",
	"è",
	"_u00e9",
	"ch_x",
	"children",
	"main",
	"pool",
	"import \"os/exec\"",
	"//go:generate rm -rf /",
	"\n//go:build ignore\n",
	"\ufeffa",
}

// TestNoScenarioTextBecomesCode holds every hostile string in every
// slot: a newline in a pool name once ended the comment it was written
// into, and the rest ran as statements of the program.
func TestNoScenarioTextBecomesCode(t *testing.T) {
	for i, h := range hostileStrings {
		for slot := range 8 {
			s := benignSlots
			*[]*string{&s.c1, &s.c2, &s.s, &s.p, &s.title, &s.summary, &s.note, &s.file}[slot] = h
			t.Run(fmt.Sprintf("%d/%d", i, slot), func(t *testing.T) { checkStrings(t, s) })
		}
	}
}

// FuzzTranslateStrings looks for strings that, put into a scenario,
// change the code of the program schedlab real builds from it.
func FuzzTranslateStrings(f *testing.F) {
	f.Add("c1", "c2", "s", "p", "T", "S", "N", "benign.yaml")
	for _, h := range hostileStrings {
		f.Add(h, h+"x", h, h, h, h, h, h+".yaml")
		f.Add(h, h, "s", "p", "T", "S", "N", h)
	}
	f.Add("a-b", "a_b", "a-b", "a-b", "", "", "", "a-b")
	f.Add("é", "è", "é", "è", "", "", "", "é.yaml")
	f.Fuzz(func(t *testing.T, c1, c2, s, p, title, summary, note, file string) {
		checkStrings(t, stringSlots{c1: c1, c2: c2, s: s, p: p, title: title, summary: summary, note: note, file: file})
	})
}
