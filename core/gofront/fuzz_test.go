package gofront

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/scenarios"
)

// A program is untrusted input: whatever it says, the front end answers
// with a scenario or errors, never a panic, and in bounded steps (the
// limits in translate.go).
func FuzzGoFront(f *testing.F) {
	for _, c := range readTxtarF(f, "testdata/constructs.txtar") {
		f.Add(c.data)
	}
	files, _ := filepath.Glob("testdata/puzzles/*.go")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("package main\nfunc main() { for i := 0; i < 1e9; i++ { x := make([]int, 100000); _ = x } }\n")
	f.Add("package main\nfunc main() { s := \"a\"; for range 100 { s += s } }\n")
	f.Add("package main\nfunc f() { go f() }\nfunc main() { f() }\n")
	f.Fuzz(func(t *testing.T, src string) {
		sc, err := Translate("fuzz.go", []byte(src), Options{})
		if err == nil && sc == nil {
			t.Fatal("no scenario and no error")
		}
		var list scenarios.ErrorList
		if errors.As(err, &list) {
			for i, e := range list {
				if msg := e.Error(); !utf8.ValidString(msg) || len(msg) > 2000 {
					t.Errorf("error %d is not short, valid text (%d bytes)", i, len(msg))
				}
			}
		}
		if err == nil {
			yamlReadsBack(t, "fuzz", sc)
		}
	})
}

// readTxtarF is readTxtar for a fuzz target.
func readTxtarF(f *testing.F, path string) []txtarFile {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return parseTxtar(string(data))
}

// A file with more mistakes than are listed says so, last.
// The type checker's messages quote the program's names whole; a mistake
// about a name of 3,000 letters quotes 80 of them.
func TestGoLongNamesAreQuotedShort(t *testing.T) {
	long := strings.Repeat("a", 3000)
	for _, src := range []string{
		"package main\n\nfunc main() {\n\t" + long + "()\n}\n",
		"package main\n\nimport \"" + long + "\"\n\nfunc main() {}\n",
	} {
		_, err := Translate("long.go", []byte(src), Options{})
		var list scenarios.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("no mistake reported: %v", err)
		}
		for _, e := range list {
			if len(e.Msg) > 400 || !strings.Contains(e.Msg, strings.Repeat("a", 79)+"…") {
				t.Errorf("%v: a %d-byte message: %.120s", e.Pos, len(e.Msg), e.Msg)
			}
		}
	}
}

func TestGoTooManyMistakes(t *testing.T) {
	src := "package main\n\nimport \"runtime\"\n\nfunc main() {\n" + strings.Repeat("\truntime.GC()\n", 30) + "}\n"
	_, err := Translate("main.go", []byte(src), Options{})
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != maxErrors+1 {
		t.Fatalf("want %d errors and a last line, got %v", maxErrors, err)
	}
	if last := list[len(list)-1]; last.Pos.Line != 26 || !strings.HasPrefix(last.Msg, "more than 20 mistakes") {
		t.Errorf("the last error is %v", last)
	}
}
