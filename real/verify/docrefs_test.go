package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A note that sends its reader to a section of docs/fidelity.md names one
// the file has: a heading renamed or never written leaves the reader with
// nothing to find.
func TestNotesCiteSectionsTheDocsHave(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fidelity.md"))
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "#") {
			headings[strings.TrimSpace(strings.TrimLeft(line, "#"))] = true
		}
	}
	// In a string literal of a note: (docs/fidelity.md, \"Heading\").
	cite := regexp.MustCompile(`\(docs/fidelity\.md, \\"([^"\\]+)\\"\)`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cite.FindAllStringSubmatch(string(src), -1) {
			n++
			if !headings[m[1]] {
				t.Errorf("%s cites docs/fidelity.md's %q, which has no such heading", f, m[1])
			}
		}
	}
	if n < 2 {
		t.Errorf("found %d citations of docs/fidelity.md in the notes, want the pace's and the prelude's at least", n)
	}
}
