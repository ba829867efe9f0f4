package prog

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// TestPoolNameCannotAddCode: a newline in a pool name once ended the
// comment the name was written into, and what followed ran as code. The
// parser now refuses such a name; the translator must hold on its own,
// so the name is set past the parser.
func TestPoolNameCannotAddCode(t *testing.T) {
	sc, err := scenarios.Parse("t.yaml", []byte("procs: 1\npools: {p: {size: 1}}\nmain:\n  - submit: {pool: p, do: [gosched]}\n  - wait: children\n"))
	if err != nil {
		t.Fatal(err)
	}
	sc.Pools[0].Name = "p\nos.Exit(42)\n//"
	prog, err := Translate(sc, sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(prog.Main), "\n") {
		if strings.TrimSpace(l) == "os.Exit(42)" {
			t.Fatalf("a statement of the scenario's text is code in the program:\n%s", prog.Main)
		}
	}
}
