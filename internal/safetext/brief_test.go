package safetext

import (
	"strings"
	"testing"
)

// Clip keeps a short text and cuts a long one to n runes, the last an
// ellipsis, counting runes, not bytes.
func TestClip(t *testing.T) {
	if got := Clip(strings.Repeat("é", 200), QuoteMax); len([]rune(got)) != QuoteMax || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip gave %d runes: %q", len([]rune(got)), got)
	}
	if Clip("short", QuoteMax) != "short" {
		t.Error("Clip changed a short text")
	}
}

// A message a library writes quotes the untrusted text as it is, and can
// quote a whole line: each quoted piece and each long word is cut to
// QuoteMax runes and the message to BriefMax, with the words around them
// kept, and the result is one line of valid text.
func TestBrief(t *testing.T) {
	long := strings.Repeat(")", 3000)
	for _, c := range []struct{ name, msg, want string }{
		{"a long quoted piece", `invalid header option: "0 ` + long + `"`,
			`invalid header option: "0 ` + strings.Repeat(")", QuoteMax-3) + `…"`},
		{"an unclosed quote", `found "` + long, `found "` + strings.Repeat(")", QuoteMax-1) + "…"},
		{"a long word", "undefined: " + strings.Repeat("a", 3000) + " (and more)",
			"undefined: " + strings.Repeat("a", QuoteMax-1) + "… (and more)"},
		{"a line break and a byte that is not UTF-8", "expected 'IDENT', found `\n\xd7`",
			`expected 'IDENT', found ` + "`" + `\n\xd7` + "`"},
		{"a short message", `mapping value is not allowed in this context: "a: b"`,
			`mapping value is not allowed in this context: "a: b"`},
	} {
		if got := Brief(c.msg); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	if got := Brief(strings.Repeat("word ", 1000)); len([]rune(got)) != BriefMax || !strings.HasSuffix(got, "…") {
		t.Errorf("Brief of a long unquoted text gave %d runes", len([]rune(got)))
	}
}
