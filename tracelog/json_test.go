package tracelog

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/gmp"
)

// Every byte, and text that is not UTF-8, gives valid JSON that reads
// back as the text (with U+FFFD for the bytes that are not UTF-8).
func TestAppendStringIsJSON(t *testing.T) {
	for b := range 256 {
		s := "a" + string([]byte{byte(b)}) + "z"
		checkJSONString(t, s)
	}
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "\a\b\f\v\x00\x1f\x7f", "é ü 日本 😀",
		"\xff\xfe", "line\nbreak\r\ttab", "\u2028\u2029", strings.Repeat("x", 5000)} {
		checkJSONString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("\x00\"\\\xff")
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

// appendPos quotes a position as appendString quotes its String.
func TestAppendPosIsItsString(t *testing.T) {
	for _, p := range []gmp.Pos{{File: "a.yaml", Line: 3, Col: 7}, {File: `q"uo\te\x00\xff.yaml`, Line: 12, Col: 1},
		{Line: 1, Col: 0}, {File: "日本.yaml", Line: 100000, Col: 99}} {
		if got, want := string(appendPos([]byte("x"), p)), "x"+string(appendString(nil, p.String())); got != want {
			t.Errorf("appendPos(%#v) = %s, want %s", p, got, want)
		}
	}
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	out := appendString(nil, s)
	if bytes := appendString(nil, []byte(s)); string(bytes) != string(out) {
		t.Fatalf("%q as bytes gives %s, as a string %s", s, bytes, out)
	}
	if !json.Valid(out) {
		t.Fatalf("%q gives invalid JSON %s", s, out)
	}
	var back string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
		t.Errorf("%q reads back as %q", s, back)
	}
}
