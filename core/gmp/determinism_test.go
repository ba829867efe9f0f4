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

// mixedProgram uses every kind of action: channels, the network,
// syscalls, sleeps, hogs, a pool with purges, a semaphore and an errgroup.
func mixedProgram() *Program {
	short := Op{Kind: OpCPU, Dur: Dur{Kind: DurUniform, A: 20 * time.Microsecond, B: 300 * time.Microsecond}}
	return &Program{
		Chans: []ChanDecl{{Name: "jobs", Cap: 4}, {Name: "done"}},
		Pools: []PoolDecl{{Name: "workers", Size: 3, Expiry: 2 * time.Millisecond}},
		Sems:  []SemDecl{{Name: "io", Size: 3}},
		Main: []Op{
			goN(6, loop(3, recv(0), Op{Kind: OpCPU, Dur: Dur{Kind: DurUniform, A: 50 * time.Microsecond, B: 2 * time.Millisecond}})),
			goN(2, netread(3*time.Millisecond), syscall(time.Millisecond), sleep(time.Millisecond)),
			loop(18, send(0), Op{Kind: OpCPU, Dur: Dur{Kind: DurExp, A: 100 * time.Microsecond}}),
			goN(3, cpu(25*time.Millisecond)),
			goN(4, acquire(0, 2), short, release(0, 2)),
			submit(0, 12, short, sleep(time.Millisecond)),
			sleep(8 * time.Millisecond),
			submit(0, 5, short),
			errgroupOp(2, 6, short, acquire(0, 1), release(0, 1)),
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

// sameEvents compares events field by field, and their actions by what
// they are rather than where they live: the actions New makes up for a
// pool or an errgroup are new for every machine.
func sameEvents(a, b []Event) bool {
	return slices.EqualFunc(a, b, func(x, y Event) bool {
		xo, yo := x.Op, y.Op
		x.Op, y.Op = nil, nil
		if x != y || (xo == nil) != (yo == nil) {
			return false
		}
		return xo == nil || xo.Kind == yo.Kind && xo.Pos == yo.Pos && xo.Count == yo.Count && xo.Dur == yo.Dur
	})
}

func TestSameSeedSameEvents(t *testing.T) {
	cfg := Config{Procs: 3, Seed: 42, Costs: DefaultCosts(), Check: true}
	prog := mixedProgram()
	a := eventsOf(t, cfg, prog)
	b := eventsOf(t, cfg, prog)
	if len(a) < 100 || !sameEvents(a, b) {
		t.Fatalf("two runs with the same seed differ (%d and %d events)", len(a), len(b))
	}
	cfg.Seed = 43
	if c := eventsOf(t, cfg, prog); sameEvents(a, c) {
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
	if !sameEvents(orig[cut:], fromClone) {
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

// sim and gmp, and the pool decisions gmp calls, are pure: no wall clock,
// no environment, no global random source, no goroutines or locks.
func TestCoreIsPure(t *testing.T) {
	for _, dir := range []string{".", "../sim", "../../teach/quiz", "../pool/decide"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range impurities(t, file, src) {
				t.Error(msg)
			}
		}
	}
}

// The purity check finds each kind of impurity it forbids.
func TestImpuritiesAreFound(t *testing.T) {
	src := `package x
import (
	"fmt"
	"math/rand/v2"
	"time"
)
func f() {
	go f()
	_ = time.Now()
	_ = rand.IntN(3)
	fmt.Println("x")
	println("y")
	_ = fmt.Sprintf("fine")
}`
	got := impurities(t, "x.go", []byte(src))
	want := []string{"x.go imports math/rand/v2", "x.go starts a goroutine", "x.go uses time.Now",
		"x.go uses fmt.Println", "x.go uses println"}
	if !slices.Equal(got, want) {
		t.Errorf("impurities:\n%q\nwant\n%q", got, want)
	}
}

// impurities lists what in a source file would make the core impure: a
// wall clock, a global random source, a goroutine, shared memory, I/O or
// printing.
func impurities(t *testing.T, file string, src []byte) []string {
	t.Helper()
	forbiddenImports := []string{"os", "math/rand", "math/rand/v2", "sync", "sync/atomic", "net", "syscall", "unsafe", "log"}
	forbiddenCalls := map[string][]string{
		"time": {"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTimer", "NewTicker"},
		"fmt":  {"Print", "Println", "Printf", "Fprint", "Fprintln", "Fprintf"},
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if slices.Contains(forbiddenImports, path) {
			out = append(out, fmt.Sprintf("%s imports %s", file, path))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			out = append(out, file+" starts a goroutine")
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && slices.Contains(forbiddenCalls[id.Name], x.Sel.Name) {
				out = append(out, fmt.Sprintf("%s uses %s.%s", file, id.Name, x.Sel.Name))
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
				out = append(out, file+" uses "+id.Name)
			}
		}
		return true
	})
	return out
}
