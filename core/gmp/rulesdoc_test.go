package gmp

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ruleID is how code and docs/rules.md name a rule: R3.8.
var ruleID = regexp.MustCompile(`\bR[0-9]+\.[0-9]+\b`)

// Every rule the code cites is defined in docs/rules.md, which the
// repository carries, and no file cites a document outside the
// repository: either would be a broken link for a reader.
func TestCitedRulesAreDefined(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	// A rule is defined where it is a heading or in bold: "### R3.1" or
	// "**R2.1".
	defined := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)(?:^### |\*\*)(R[0-9]+\.[0-9]+)\b`).FindAllStringSubmatch(string(doc), -1) {
		defined[m[1]] = true
	}
	if len(defined) < 50 {
		t.Fatalf("docs/rules.md defines only %d rules", len(defined))
	}
	var missing []string
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), "../"+"shared/") {
			t.Errorf("%s cites a document outside the repository", path)
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		for _, id := range ruleID.FindAllString(string(src), -1) {
			if !defined[id] && !slices.Contains(missing, id+" ("+path+")") {
				missing = append(missing, id+" ("+path+")")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s is cited but docs/rules.md does not define it", m)
	}
}
