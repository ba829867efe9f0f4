package pool

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSourceListsEveryFile keeps Source whole: a file added to the package
// and not to the embed list would be missing from every generated program.
func TestSourceListsEveryFile(t *testing.T) {
	var want, got []string
	for _, pattern := range []string{"*.go", "decide/*.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") && f != "source.go" {
				want = append(want, f)
			}
		}
		embedded, err := fs.Glob(Source, pattern)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, embedded...)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Source embeds %v,\nthe package has %v: update the go:embed line in source.go", got, want)
	}
}
