package gmp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func mixedProgram() *Program {
	return &Program{
		Chans: []ChanDecl{{Name: "jobs", Cap: 4}, {Name: "done"}},
		Main: []Op{
			goN(6, loop(3, recv(0), Op{Kind: OpCPU, Dur: Dur{Kind: DurUniform, A: 50 * time.Microsecond, B: 2 * time.Millisecond}})),
			goN(2, netread(3*time.Millisecond), syscall(time.Millisecond), sleep(time.Millisecond)),
			loop(18, send(0), Op{Kind: OpCPU, Dur: Dur{Kind: DurExp, A: 100 * time.Microsecond}}),
			goN(3, cpu(25*time.Millisecond)),
			gosched(),
			waitKids(),
		},
	}
}

func eventsOf(t *testing.T, cfg Config, prog *Program) []Event {
	t.Helper()
	m, err := New(cfg, prog)
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	m.SetSink(func(e Event) { out = append(out, e) })
	if end := m.Run(); end.Reason == Invariant {
		t.Fatal(end.Err)
	}
	return out
}

func TestSameSeedSameEvents(t *testing.T) {
	cfg := Config{Procs: 3, Seed: 42, Costs: DefaultCosts(), Check: true}
	prog := mixedProgram()
	a := eventsOf(t, cfg, prog)
	b := eventsOf(t, cfg, prog)
	if len(a) < 100 || !slices.Equal(a, b) {
		t.Fatalf("two runs with the same seed differ (%d and %d events)", len(a), len(b))
	}
	cfg.Seed = 43
	if c := eventsOf(t, cfg, prog); slices.Equal(a, c) {
		t.Fatal("a different seed changed nothing, though durations are drawn from it")
	}
}

// A clone taken mid-run continues exactly as the original does.
func TestCloneContinuesIdentically(t *testing.T) {
	cfg := Config{Procs: 4, Seed: 7, Costs: DefaultCosts(), Check: true}
	m, _ := New(cfg, mixedProgram())
	var orig []Event
	m.SetSink(func(e Event) { orig = append(orig, e) })
	for m.Emitted() < 150 && m.Step() {
	}
	c := m.Clone()
	var fromClone []Event
	c.SetSink(func(e Event) { fromClone = append(fromClone, e) })
	cut := len(orig)
	m.Run()
	c.Run()
	if !slices.Equal(orig[cut:], fromClone) {
		t.Fatalf("clone diverged: %d events after the cut in the original, %d in the clone", len(orig)-cut, len(fromClone))
	}
	if m.SchedTrace(true) != c.SchedTrace(true) {
		t.Fatal("final states differ")
	}
}

// A clone does not share state with its original.
func TestCloneIsIndependent(t *testing.T) {
	m, _ := New(Config{Procs: 2, Seed: 1, Costs: DefaultCosts()}, mixedProgram())
	for m.Emitted() < 60 && m.Step() {
	}
	c := m.Clone()
	before := c.SchedTrace(true)
	for range 500 {
		m.Step()
	}
	if after := c.SchedTrace(true); after != before {
		t.Fatalf("stepping the original changed the clone:\n%s\n---\n%s", before, after)
	}
}

// The invariants hold at every step for many seeds and P counts.
func TestInvariantsAcrossSeedsAndProcs(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 8} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("procs=%d/seed=%d", procs, seed), func(t *testing.T) {
				m, _ := New(Config{Procs: procs, Seed: seed, Costs: DefaultCosts(), Check: true, Until: 200 * time.Millisecond}, mixedProgram())
				end := m.Run()
				if end.Reason == Invariant || end.Reason == EventLimit {
					t.Fatalf("%v: %v", end.Reason, end.Err)
				}
			})
		}
	}
}

// sim and gmp are pure: no wall clock, no environment, no global random
// source, no goroutines or locks.
func TestCoreIsPure(t *testing.T) {
	forbiddenImports := []string{"os", "math/rand", "sync", "sync/atomic", "net", "syscall", "unsafe"}
	forbiddenCalls := map[string][]string{
		"time": {"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTimer", "NewTicker"},
	}
	for _, dir := range []string{".", "../sim"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				if slices.Contains(forbiddenImports, path) {
					t.Errorf("%s imports %s", file, path)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.GoStmt:
					t.Errorf("%s starts a goroutine", file)
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && slices.Contains(forbiddenCalls[id.Name], x.Sel.Name) {
						t.Errorf("%s uses %s.%s", file, id.Name, x.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
