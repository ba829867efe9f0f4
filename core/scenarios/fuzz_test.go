package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
)

// FuzzParse checks that Parse never panics and always either returns a
// usable scenario or a non-empty list of positioned errors.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("builtin/*.yaml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no built-in files found: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(fullSrc))
	for _, tc := range validCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte(aliasBomb(6)))
	for _, src := range hostileInputs {
		f.Add([]byte(src))
	}

	const file = "fuzz/input.yaml"
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse(file, data)
		if err != nil {
			if sc != nil {
				t.Errorf("Parse returned a scenario and an error")
			}
			list, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("error is a %T, want ErrorList: %v", err, err)
			}
			if len(list) == 0 {
				t.Fatalf("Parse returned an empty ErrorList")
			}
			// A position may not be past the last line (counting every
			// kind of YAML line break generously).
			lines := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r"))
			for i, e := range list {
				if e == nil {
					t.Fatalf("error %d is nil", i)
				}
				if e.Pos.File != file || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > lines {
					t.Errorf("error %d has position %+v (file has %d lines): %v", i, e.Pos, lines, e)
				}
				if msg := e.Error(); !utf8.ValidString(msg) || len(msg) > 2000 {
					t.Errorf("error %d is not short, valid text (%d bytes)", i, len(msg))
				}
				if e.Msg == "" {
					t.Errorf("error %d at %v has no message", i, e.Pos)
				}
			}
			return
		}
		if sc == nil {
			t.Fatalf("Parse returned neither a scenario nor an error")
		}
		if sc.Procs < 1 || sc.Procs > gmp.MaxProcs {
			t.Errorf("Procs = %d, want 1..%d", sc.Procs, gmp.MaxProcs)
		}
		if sc.Main == nil {
			t.Errorf("Main is nil")
		}
		if sc.File != file || !bytes.Equal(sc.Source, bytes.TrimPrefix(data, utf8BOM)) {
			t.Errorf("File = %q or Source does not match the input", sc.File)
		}
	})
}

// hostileInputs are inputs that once made the parser slow, hungry or
// wordy; each is a regression test of TestHostileInputs and a fuzz seed.
var hostileInputs = map[string]string{
	"deep flow":        "procs: 1\nmain: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
	"deep block":       "procs: 1\nmain:\n" + deepBlock(200),
	"many lines":       "procs: 1\nchans:\n" + strings.Repeat("  c: 0\n", MaxLines) + "main: [{cpu: 1ms}]\n",
	"binary":           "procs: 1\nmain: [{cpu: 1ms}]\n\xff\xfe\x00\x01",
	"nul":              "procs: 1\x00\nmain: [{cpu: 1ms}]\n",
	"overflow uniform": "procs: 1\nmain:\n  - cpu: {uniform: [0s, 2562047h47m16.854775807s]}\n",
	"long sleep":       "procs: 1\nmain:\n  - loop: {times: 3, do: [{sleep: 1000000h}]}\n",
	"long name":        "procs: 1\nchans: {" + strings.Repeat("c", 20_000) + ": 0}\nmain:\n  - send: " + strings.Repeat("c", 19_999) + "x\n",
}

// deepBlock nests n block sequences, each indented two more columns.
func deepBlock(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i+1) + "- \n")
	}
	return b.String()
}
