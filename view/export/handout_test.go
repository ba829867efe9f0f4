package export

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

func handout(t *testing.T, name string) string {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h := NewHandout(&buf, sc, m, HandoutOptions{})
	Run(m, h)
	if err := h.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// tour's handout is its golden file; every built-in's handout has its
// program as a table, every note, numbered in order, each followed by the
// events around it, and questions with their answers last.
func TestHandout(t *testing.T) {
	got := handout(t, "tour")
	golden.Check(t, "testdata/tour.md", []byte(got))
	all, _ := scenarios.Builtins()
	for _, sc := range all {
		if sc.Name == "hog-pingpong" {
			continue // long; its notes are checked by the trace's golden
		}
		md := handout(t, sc.Name)
		for i := range sc.Notes {
			if !strings.Contains(md, "\n## "+strconv.Itoa(i+1)+". At ") {
				t.Errorf("%s: the handout has no note %d", sc.Name, i+1)
			}
		}
		if !strings.Contains(md, "## The end") || !strings.HasPrefix(md, "# ") {
			t.Errorf("%s: no title or end", sc.Name)
		}
		// The program as a table, not the file; questions, with the
		// answers after the end.
		if !strings.Contains(md, "\n| G1 (main) | the runtime | ") || strings.Contains(md, "```yaml") {
			t.Errorf("%s: the program is not a table of goroutines", sc.Name)
		}
		q, a := strings.Index(md, "\n## Questions\n"), strings.Index(md, "\n## Answers\n")
		if q < strings.Index(md, "## The end") || a < q {
			t.Errorf("%s: no questions after the end, or no answers after them", sc.Name)
		}
	}
}
