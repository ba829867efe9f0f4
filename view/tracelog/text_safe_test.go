package tracelog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// The text trace shows a scenario's notes and the names in its sentences
// with their control characters visible: a note's lines stay lines of the
// trace, and nothing else in them reaches the terminal raw.
func TestTextShowsControlCharacters(t *testing.T) {
	sc, err := scenarios.Parse("c\x1b[2J.yaml", []byte(`procs: 1
chans: {c: 0}
main:
  - go: {do: [{send: c}]}
  - recv: c
notes:
  - at: 0s
    text: "one\e]52;c;aGk=\a\ttab\r\ntwo\x7f"
  - at: 1h
    text: "late\e[2J"
`))
	if err != nil {
		t.Fatal(err)
	}
	// The parser refuses control characters in declared names; a
	// scenario built in code, past the parser, can still carry them.
	sc.Chans[0].Name = "c\x1b]0;t\a\u009b"
	var out bytes.Buffer
	if _, _, err := Run(sc, Options{SchedTrace: 1000, Detail: true}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"   note: one\\x1b]52;c;aGk=\\x07\\ttab\\r\n   note: two\\x7f\n",
		`channel c\x1b]0;t\x07\u009b`,
		`# note at 1h0m0s (c\x1b[2J.yaml:9:5) was not reached`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the trace lacks %q:\n%s", want, out.String())
		}
	}
	for _, r := range out.String() {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Fatalf("the trace has %U raw:\n%q", r, out.String())
		}
	}
}
