package gmp

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/extending.md's recipes name files and the tests that catch a
// skipped step; this keeps them from rotting. Every path it writes in
// backquotes (core/gmp/events.go, core/gmp/describe_*.go; NAME stands for
// any name) exists, every package it runs with -update defines that flag,
// and every test it cites (TestName) is a func in some _test.go of the
// repository. Rename a file or a test the page names, and this fails
// naming it.
func TestExtendingIsTrue(t *testing.T) {
	const root = "../.."
	doc, err := os.ReadFile(filepath.Join(root, "docs/extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	updates := map[string]bool{} // package directories with an -update flag
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
			tests[m[1]] = true
		}
		if strings.Contains(string(src), updateFlag) || strings.Contains(string(src), goldenImport) {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			updates[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	paths, cited := 0, 0
	for _, span := range backquoted.FindAllStringSubmatch(string(doc), -1) {
		words := strings.Fields(span[1])
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:] // an environment variable before a command
		}
		for i, w := range words {
			w = strings.TrimPrefix(w, "./")
			if !repoPath.MatchString(w) {
				continue
			}
			paths++
			pattern := filepath.Join(root, strings.ReplaceAll(w, "NAME", "*"))
			if matches, _ := filepath.Glob(pattern); len(matches) == 0 {
				t.Errorf("docs/extending.md names %s, which does not exist", w)
			}
			if len(words) > 2 && words[0] == "go" && words[1] == "test" && slices.Contains(words[i+1:], "-update") && !updates[w] {
				t.Errorf("docs/extending.md runs go test ./%s -update, but no test there defines an -update flag", w)
			}
		}
	}
	for _, m := range testName.FindAllString(string(doc), -1) {
		cited++
		if !tests[m] {
			t.Errorf("docs/extending.md cites %s, which no _test.go defines", m)
		}
	}
	if paths < 20 || cited < 15 {
		t.Errorf("found only %d paths and %d tests in docs/extending.md: the patterns no longer read it", paths, cited)
	}
}

var (
	// updateFlag is how a golden test declares -update; split so that
	// this file does not declare it.
	updateFlag = "flag.Bool(" + `"update"`
	// goldenImport is the package whose import gives a test -update.
	goldenImport = `"github.com/schedlab/schedlab/internal/golden"`
	backquoted   = regexp.MustCompile("`([^`]+)`")
	// repoPath is a path under one of the repository's top folders.
	repoPath = regexp.MustCompile(`^(cmd|core|docs|internal|real|scripts|teach|view)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]$`)
	testName = regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9_]*`)
	testFunc = regexp.MustCompile(`(?m)^func (Test[A-Z][A-Za-z0-9_]*)\(`)
)
