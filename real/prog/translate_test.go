package prog

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
	"github.com/schedlab/schedlab/real/rtrace"
)

// TestBuiltinTranslations compares each built-in's program with its golden
// file: a change to the translation shows up as a reviewable diff.
func TestBuiltinTranslations(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			prog, err := Translate(sc, sc.Config())
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", sc.Name+".go.golden"), prog.Main)
		})
	}
}

// translate parses src as a scenario and translates it.
func translate(t *testing.T, src string) *Program {
	t.Helper()
	sc, err := scenarios.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// imports returns the import paths of a program.
func imports(t *testing.T, prog *Program) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", prog.Main, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		out = append(out, strings.Trim(imp.Path.Value, `"`))
	}
	return out
}

func TestProgramsImportOnlyWhatTheyUse(t *testing.T) {
	for _, c := range []struct {
		src       string
		want      []string
		needs     []string
		notWanted []string
	}{
		// A traced program imports context for the mark of the
		// scenario's end (rtrace.EndMarkCategory), and time and the
		// module's cputime for the CPU time it logs after it.
		{src: "procs: 1\nmain: [gosched]\n", want: []string{"context", "os", "runtime", "runtime/trace", "sync", "time", ModulePath + "/cputime"}},
		{src: "procs: 1\nmain: [{cpu: 1ms}]\n", want: []string{"context", "os", "runtime", "runtime/trace", "sync", "time", ModulePath + "/cputime"}},
		{src: "procs: 1\nmain: [{net: 1ms}]\n", want: []string{"context", "os", "runtime", "runtime/trace", "sync", "time", "golang.org/x/sys/unix", ModulePath + "/cputime"}, needs: []string{"golang.org/x/sys"}},
		{src: "procs: 1\nsems: {s: 2}\nmain: [{acquire: {sem: s, n: 1}}, {release: {sem: s, n: 1}}]\n", want: []string{"context", "os", "runtime", "runtime/trace", "sync", "time", "golang.org/x/sync/semaphore", ModulePath + "/cputime"}, needs: []string{"golang.org/x/sync"}},
		{src: "procs: 1\npools: {p: {size: 2}}\nmain: [{submit: {pool: p, count: 3, do: [{cpu: 1ms}]}}, {wait: children}]\n", want: []string{"context", "os", "runtime", "runtime/trace", "sync", "time", ModulePath + "/cputime", ModulePath + "/pool"}},
		// Untraced (a deadlock by design), it imports sync for the
		// mutex it declares and nothing more.
		{src: "procs: 1\nexpect: deadlock\nmutexes: [mu]\nmain: [{lock: mu}, {lock: mu}]\n", want: []string{"runtime", "sync"}},
	} {
		prog := translate(t, c.src)
		got := imports(t, prog)
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q imports %v, want %v", c.src, got, c.want)
		}
		if strings.Join(prog.Needs, " ") != strings.Join(c.needs, " ") {
			t.Errorf("%q needs modules %v, want %v", c.src, prog.Needs, c.needs)
		}
	}
}

// TestTranslationFollowsTheFile checks the shape of a translation: the
// numbers and names of the file reach the program.
func TestTranslationFollowsTheFile(t *testing.T) {
	prog := translate(t, `procs: 3
seed: 7
chans: {done: 0}
main:
  - go: {count: 4, do: [{cpu: {uniform: [1ms, 2ms]}}, {send: done}]}
  - loop: {times: 4, do: [{recv: done}]}
  - syscall: {for: 2ms, block: true}
`)
	src := string(prog.Main)
	for _, want := range []string{
		"runtime.GOMAXPROCS(3)",
		"rand.NewPCG(7, 0)",
		"ch_done = make(chan struct{}, 0)",
		"for range 4 {               // go, line 5",
		"compute(uniform(1*time.Millisecond, 2*time.Millisecond))",
		"ch_done <- struct{}{}",
		"<-ch_done",
		"block: true cannot be asked for",
		"syscallFor(2 * time.Millisecond)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
}

// TestModuleVersionsMatchGoMod keeps the generated go.mod on the versions
// schedlab is built with.
func TestModuleVersionsMatchGoMod(t *testing.T) {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for mod, v := range moduleVersions {
		if !strings.Contains(string(b), mod+" "+v) {
			t.Errorf("go.mod does not require %s %s: update moduleVersions in build.go", mod, v)
		}
	}
}

func TestGoMinor(t *testing.T) {
	for v, want := range map[string]int{"go1.26.0": 26, "go1.22": 22, "devel go1.27-abc": 27, "go1.9.7": 9} {
		if got, ok := goMinor(v); !ok || got != want {
			t.Errorf("goMinor(%q) = %d, %v; want %d", v, got, ok, want)
		}
	}
	if _, ok := goMinor("gccgo"); ok {
		t.Error("goMinor read a version from gccgo")
	}
}

// A pool's queue reaches the program as pool.WithQueue, which the copy of
// package pool beside it has.
func TestTranslationKeepsThePoolsQueue(t *testing.T) {
	prog := translate(t, "procs: 1\npools: {p: {size: 2, queue: 8}}\nmain: [{submit: {pool: p, count: 3, do: [{cpu: 1ms}]}}, {wait: children}]\n")
	if src := string(prog.Main); !strings.Contains(src, "pool.WithQueue(8)") {
		t.Errorf("the program lacks pool.WithQueue(8):\n%s", src)
	}
}

// TestSyncTranslations checks that mutexes and wait groups reach the
// program as sync's own types and calls, named through the identifier
// mapping; wg.Go keeps the goroutine counted for wait: children.
func TestSyncTranslations(t *testing.T) {
	prog := translate(t, `procs: 2
mutexes: [mu]
rwmutexes: [cache]
waitgroups: [all done]
main:
  - go: {count: 4, wg: all done, do: [{lock: mu}, {unlock: mu}, {rlock: cache}, {runlock: cache}]}
  - add: {wg: all done, n: 2}
  - go: {count: 2, do: [{done: all done}]}
  - wait: all done
  - lock: cache
  - unlock: cache
  - wait: children
`)
	src := string(prog.Main)
	for _, want := range []string{
		"mu_mu            sync.Mutex     // line 2",
		"mu_cache         sync.RWMutex   // line 3",
		"wg_all_u0020done sync.WaitGroup // line 4",
		"wg_all_u0020done.Go(func() {",
		"defer children.Done()",
		"mu_mu.Lock()",
		"mu_cache.RLock()",
		"wg_all_u0020done.Add(2)",
		"wg_all_u0020done.Done()",
		"wg_all_u0020done.Wait()",
		"mu_cache.Unlock()",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
	// A goroutine that only waits on a wait group declares no children.
	prog = translate(t, "procs: 1\nwaitgroups: [wg]\nmain: [{add: wg}, {go: {do: [{done: wg}]}}, {go: {do: [{wait: wg}]}}, {wait: wg}]\n")
	if n := strings.Count(string(prog.Main), "var children"); n != 1 {
		t.Errorf("%d children WaitGroups, want main's alone:\n%s", n, prog.Main)
	}
}

// TestCondTranslation checks that a cond, an object of a kind gmp
// registers, reaches the program through its kind's entry: made by
// sync.NewCond on its mutex, each verb its Go statement.
func TestCondTranslation(t *testing.T) {
	prog := translate(t, `procs: 2
mutexes: [mu]
conds: {ready: mu}
main:
  - go: {count: 2, do: [{lock: mu}, {cwait: ready}, {unlock: mu}]}
  - sleep: 1ms
  - signal: ready
  - broadcast: ready
  - wait: children
`)
	src := strings.Join(strings.Fields(string(prog.Main)), " ") // gofmt aligns the comments
	for _, want := range []string{
		"cond_ready = sync.NewCond(&mu_mu) // line 3",
		"cond_ready.Wait() // cwait, line 5",
		"cond_ready.Signal() // signal, line 7",
		"cond_ready.Broadcast() // broadcast, line 8",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
}

// The CPU time a traced program logs after its window is in the form
// rtrace reads (rtrace.CPUTimePrefix, in the end mark's category).
func TestTheCPUTimeLogIsTheOneRtraceReads(t *testing.T) {
	want := fmt.Sprintf("trace.Logf(context.Background(), %q, %q, ", rtrace.EndMarkCategory, rtrace.CPUTimePrefix+"%d")
	if !strings.Contains(helperStart, want) {
		t.Errorf("startTrace's helpers do not log %s", want)
	}
}
