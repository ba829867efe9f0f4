package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// TestControlCharactersInNamesAreErrors: a declared name is written into
// messages, the terminal and generated programs, so a control character
// in one (a line break, an escape, a bidi override) is a mistake in the
// file, reported where the name is, for every kind of declaration.
func TestControlCharactersInNamesAreErrors(t *testing.T) {
	decls := []struct{ kind, what, decl, use string }{
		{"chans", "channel", `chans: {"%s": 0}`, `close: "%s"`},
		{"pools", "pool", `pools: {"%s": {size: 1}}`, `submit: {pool: "%s", do: [gosched]}`},
		{"sems", "semaphore", `sems: {"%s": 1}`, `acquire: {sem: "%s", n: 1}`},
	}
	for _, d := range decls {
		for _, bad := range []struct{ yaml, shown string }{
			{`a\nos.Exit(1)`, `"a\nos.Exit(1)"`},
			{`a\e]0;owned\a`, `"a\x1b]0;owned\a"`},
			{`a\x7f`, `"a\x7f"`},
			{`a\u0085b`, `"a\u0085b"`},
			{`a\u2028b`, `"a\u2028b"`},
			{`a\u202eb`, `"a\u202eb"`},
			{`a\u2066b`, `"a\u2066b"`},
		} {
			t.Run(d.kind+"/"+bad.shown, func(t *testing.T) {
				src := "procs: 1\n" + fmt.Sprintf(d.decl, bad.yaml) + "\nmain:\n  - " + fmt.Sprintf(d.use, bad.yaml) + "\n"
				col := strings.Index(d.decl, `"`) + 1
				checkErrors(t, "dir/bad.yaml", src, []wantErr{
					{fmt.Sprintf("2:%d", col), d.what + " name " + bad.shown + " contains a control character", "letters"},
				})
				_, err := Parse("dir/bad.yaml", []byte(src))
				for _, e := range err.(ErrorList) {
					if hasControl(e.Msg) || hasControl(e.Hint) {
						t.Errorf("the message carries a control character raw: %q", e.Error())
					}
				}
			})
		}
	}
}

// TestPrintableNamesAreAccepted: names of any script, with spaces and
// punctuation, stay valid; only control characters are refused.
func TestPrintableNamesAreAccepted(t *testing.T) {
	src := "procs: 1\nchans: {\"a b\": 1, é: 1, è: 1, a-b: 1, a_b: 1, \"日本\": 1}\nmain:\n  - send: é\n  - recv: è\n"
	if _, err := Parse("ok.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}
