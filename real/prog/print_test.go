package prog

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A print's text reaches the program only as a quoted literal: whatever
// the text, the program has one fmt.Println call per print, whose one
// argument is a string literal that reads back as the text. Flags are
// atomic.Bools with identifiers spelled from their names, and the loops
// that read them call Load and nothing else.
func TestPrintAndFlagsTranslate(t *testing.T) {
	sc, err := scenarios.Parse("t.yaml", []byte(`procs: 2
main:
  - go: {do: [{set: "é-1"}, {print: "x"}]}
  - loop: {until: "é-1"}
  - loop: {until: "é-1", do: [gosched]}
  - loop: {forever: true, do: [{print: "y"}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	hostile := "\"); os.Exit(42); fmt.Println(\"\x00\u202e`"
	sc.Main[0].Body[1].Text = hostile // past the parser, which would refuse nothing here but line breaks
	program, err := Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	src := string(program.Main)
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", program.Main, 0)
	if err != nil {
		t.Fatalf("the program does not parse: %v\n%s", err, src)
	}
	var printed []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Println" {
			lit, ok := call.Args[0].(*ast.BasicLit)
			if len(call.Args) != 1 || !ok || lit.Kind != token.STRING {
				t.Errorf("a Println whose argument is not one string literal: %#v", call.Args)
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			printed = append(printed, s)
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Exit" {
			t.Errorf("the text became a call of os.Exit:\n%s", src)
		}
		return true
	})
	if len(printed) != 2 || printed[0] != hostile || printed[1] != "y" {
		t.Errorf("printed literals %q, want the two texts", printed)
	}
	for _, want := range []string{
		"flag__u00e9_1 atomic.Bool",
		"flag__u00e9_1.Store(true)",
		"for !flag__u00e9_1.Load() { // loop until, line 4\n\t}",
		"for !flag__u00e9_1.Load() { // loop until, line 5\n\t\truntime.Gosched()",
		"for { // loop forever, line 6",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
	if program.Untraced || !strings.Contains(src, "startTrace()") {
		t.Errorf("a scenario that ends normally is traced")
	}
	// A traced program goes on while its trace stops: what is printed
	// after main returned is not the scenario's output (done-flag's
	// real runs printed done! when it was).
	// It marks the scenario's end in its trace first (rtrace.EndMark...),
	// and logs its CPU time last, after the window.
	if !strings.Contains(src, "\tscenario()\n\t// main returned from the scenario: the run's window ends here.\n\ttrace.Log(context.Background(), \"schedlab\", \"scenario returned\")\n\t// main returned: what goroutines print while the trace stops is not the\n\t// scenario's output (an untraced program would have exited).\n\tos.Stdout.Close()\n\t// The process's CPU time in the window, logged after it.\n\tlogCPUTime()\n}") {
		t.Errorf("main does not mark the scenario's end and close stdout once scenario() returns:\n%s", src)
	}
	cfg := sc.Config()
	cfg.Until = time.Second
	program, err = Translate(sc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if src := string(program.Main); !strings.Contains(src, "\t\tos.Stdout.Close()\n\t\tstop()\n\t\tos.Exit(0)") {
		t.Errorf("the until goroutine does not close stdout before stopping the trace:\n%s", src)
	}
}

// A scenario that deadlocks by design is written untraced: the runtime
// detects no deadlock while it traces.
func TestDeadlockScenarioIsUntraced(t *testing.T) {
	sc, err := scenarios.Parse("d.yaml", []byte("procs: 1\nexpect: deadlock\nchans: {c: 0}\nmain:\n  - print: \"before\"\n  - recv: c\n"))
	if err != nil {
		t.Fatal(err)
	}
	program, err := Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	src := string(program.Main)
	if !program.Untraced || program.Expect != gmp.Deadlock || strings.Contains(src, "trace") && strings.Contains(src, "trace.Start") {
		t.Errorf("untraced %v, expect %v; program:\n%s", program.Untraced, program.Expect, src)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", program.Main, 0); err != nil {
		t.Fatalf("the program does not parse: %v\n%s", err, src)
	}
}
