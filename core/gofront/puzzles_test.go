package gofront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The published puzzles under testdata/puzzles, as their sources print
// them: each either translates into the scenario its // want: says, or is
// refused with the messages its // want error: lines give.
func TestGoPuzzles(t *testing.T) {
	files, err := filepath.Glob("testdata/puzzles/*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("%d puzzles, want at least 10", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "// Source: ") {
			t.Errorf("%s does not start by naming its source", f)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkCase(t, filepath.Base(f), string(data)) })
	}
}
