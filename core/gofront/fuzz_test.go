package gofront

import (
	"os"
	"path/filepath"
	"testing"
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
