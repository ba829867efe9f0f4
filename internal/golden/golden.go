// Package golden holds the project's golden files: a test compares what it
// made with a file under its package's testdata/, and `go test ./PKG
// -update` rewrites the file instead, for a person to read as a diff
// before committing it. One flag, one message, one way to show where a
// file differs, for every package that keeps golden files.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current code; review the diff before committing")

// Update says whether this run rewrites golden files (go test -update),
// for a test whose file is not a plain comparison (a baseline measured
// anew, a second file beside the first).
func Update() bool { return *update }

// Check compares got with the golden file at path, relative to the test's
// package, or writes got there under -update. On a difference it marks t
// failed, with the first line that differs and the command that rewrites
// the file, and goes on, so that one run names every file that differs.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run %s to create it)", err, Command())
		return
	}
	if msg := Diff(got, want); msg != "" {
		t.Errorf("%s differs from its golden file: %s\n(if the change is intended, run %s and review the diff)", path, msg, Command())
	}
}

// Diff says where got first differs from want, line by line, or "" if
// they are equal.
func Diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gotLines), len(wantLines)) {
		if gotLines[i] != wantLines[i] {
			return fmt.Sprintf("first at line %d:\n got: %s\nwant: %s", i+1, gotLines[i], wantLines[i])
		}
	}
	return fmt.Sprintf("%d lines, the golden file has %d", len(gotLines), len(wantLines))
}

// Command is the command that rewrites the golden files of the package
// under test: go test ./its/path -update, from the module's root.
func Command() string {
	return "go test ./" + filepath.ToSlash(packagePath()) + " -update"
}

// packagePath is the working directory (go test runs a test in its
// package's folder) relative to the folder that holds go.mod.
func packagePath() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil {
				return "."
			}
			return rel
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
