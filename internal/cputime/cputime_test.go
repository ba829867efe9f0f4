package cputime

import (
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Work done between two readings shows in them, and they never go back.
func TestProcessGrowsWithWork(t *testing.T) {
	before, ok := Process()
	if !ok {
		t.Skip("CPU time cannot be read on " + runtime.GOOS)
	}
	sum := 0
	for {
		for i := range 1_000_000 {
			sum += i
		}
		if after, _ := Process(); after > before {
			break
		}
	}
	if after, _ := Process(); after < before {
		t.Errorf("CPU time went back from %v to %v", before, after)
	}
	_ = sum
}

// Source lists every file of the package but its tests and source.go.
func TestSourceListsEveryFile(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") && e.Name() != "source.go" {
			want = append(want, e.Name())
		}
	}
	got, err := fs.Glob(Source, "*.go")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Source holds %v, the package %v", got, want)
	}
}
