package tracelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// A printed line is the scenario's text, untrusted: the JSONL record of a
// print carries it exactly, as a valid JSON string, and the text trace
// shows it with nothing in it acting on a terminal.
func TestPrintedTextIsEscaped(t *testing.T) {
	text := "a\x1b]52;c;aGk=\x07 \u202eb\x7f \"q\\ é"
	src := "procs: 1\nmain:\n  - print: " + strings.ReplaceAll(jsonQuote(t, text), `\u001b`, `\e`) + "\n"
	sc, err := scenarios.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Main[0].Text != text {
		t.Fatalf("parsed text %q, want %q", sc.Main[0].Text, text)
	}
	var jl bytes.Buffer
	if _, _, err := Run(sc, Options{Format: JSONL}, &jl); err != nil {
		t.Fatal(err)
	}
	found := false
	for sc := bufio.NewScanner(&jl); sc.Scan(); {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("invalid JSON %q: %v", sc.Text(), err)
		}
		if rec["kind"] == "print" {
			found = true
			if rec["text"] != text {
				t.Errorf("text field %q, want %q", rec["text"], text)
			}
		}
	}
	if !found {
		t.Fatal("no print record")
	}
	var out bytes.Buffer
	if _, _, err := Run(sc, Options{}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `G1 prints "a\x1b]52;c;aGk=\a \u202eb\x7f \"q\\ é": line 1`) {
		t.Errorf("the trace does not show the line quoted:\n%s", out.String())
	}
	for _, r := range out.String() {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f || r == 0x202e {
			t.Fatalf("the trace has %U raw:\n%q", r, out.String())
		}
	}
}

func jsonQuote(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
