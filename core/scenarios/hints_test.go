package scenarios

import (
	"strings"
	"testing"
)

// A declaration with an empty name gets a hint, as every other mistake
// does: the example of the section it is in.
func TestEmptyDeclaredNameHasAHint(t *testing.T) {
	for _, c := range []struct{ section, decl, hint string }{
		{"chans", `chans: {"": 1}`, "chans: {done: 0"},
		{"pools", `pools: {"": {size: 1}}`, "pools: {workers: {size: 8}}"},
		{"sems", `sems: {"": 1}`, "sems: {io: 4}"},
	} {
		t.Run(c.section, func(t *testing.T) {
			_, err := Parse("empty.yaml", []byte("procs: 1\n"+c.decl+"\nmain:\n  - cpu: 1ms\n"))
			list, ok := err.(ErrorList)
			if !ok || len(list) != 1 {
				t.Fatalf("err = %v, want one error", err)
			}
			if e := list[0]; !strings.Contains(e.Msg, "needs a name") || !strings.Contains(e.Hint, c.hint) {
				t.Errorf("%v: hint %q, want one with %q", e, e.Hint, c.hint)
			}
		})
	}
}

// Every mistake the error cases make has a hint, not only a message.
func TestEveryParseErrorHasAHint(t *testing.T) {
	for _, tc := range errorCases {
		_, err := Parse("bad.yaml", []byte(tc.src))
		list, _ := err.(ErrorList)
		for _, e := range list {
			if e.Hint == "" {
				t.Errorf("%s: %v has no hint", tc.name, e)
			}
		}
	}
}
