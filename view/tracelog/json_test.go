package tracelog

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Every byte, and text that is not UTF-8, gives valid JSON that reads
// back as the text (with U+FFFD for the bytes that are not UTF-8).
func TestAppendStringIsJSON(t *testing.T) {
	for b := range 256 {
		s := "a" + string([]byte{byte(b)}) + "z"
		checkJSONString(t, s)
		// And at every place in a word that appendString tests eight
		// bytes at a time.
		for k := range 9 {
			checkJSONString(t, strings.Repeat("x", k)+string([]byte{byte(b)})+strings.Repeat("y", 16))
		}
	}
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "\a\b\f\v\x00\x1f\x7f", "é ü 日本 😀",
		"\xff\xfe", "line\nbreak\r\ttab", "\u2028\u2029", "c1 \u009b31m bidi \u202e\u2066", strings.Repeat("x", 5000)} {
		checkJSONString(t, s)
	}
}

// plain8 says yes exactly when each of the eight bytes is ASCII that JSON
// takes as it is, whatever the other seven are.
func TestPlain8(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' }
	r := sim.NewRand(1)
	for range 200000 {
		var w [8]byte
		x := r.Uint64()
		// Mostly plain bytes, so that a word with a single odd one
		// is common.
		for i := range w {
			w[i] = byte(x>>(8*i)) & 0x7f
			if !plain(w[i]) && r.Uint64()%4 != 0 {
				w[i] = 'a'
			}
		}
		w[r.Uint64()%8] = byte(r.Uint64())
		want := true
		for _, c := range w {
			want = want && plain(c)
		}
		if got := plain8(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("plain8(%q) = %v", w[:], got)
		}
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
	if plainJSON([]byte(s)) && string(out) != `"`+s+`"` {
		t.Fatalf("plainJSON says %q needs no escaping, but it is quoted as %s", s, out)
	}
	if bytes := appendString(nil, []byte(s)); string(bytes) != string(out) {
		t.Fatalf("%q as bytes gives %s, as a string %s", s, bytes, out)
	}
	if !json.Valid(out) {
		t.Fatalf("%q gives invalid JSON %s", s, out)
	}
	// Valid JSON may hold DEL, C1 controls and bidi formatting raw; a
	// terminal showing the file would act on them, so they are escaped.
	if i := strings.IndexFunc(string(out), safetext.Unsafe); i >= 0 {
		t.Fatalf("%q gives %s, with %q raw", s, out, []rune(string(out)[i:])[0])
	}
	var back string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
		t.Errorf("%q reads back as %q", s, back)
	}
}

// A line's "p" and "m" are copied from a table for values below 1000 and
// written out past it (smallFields.put and appendSlowly), alike.
func TestPAndMFieldsPastTheTable(t *testing.T) {
	for _, id := range []int32{0, 9, 10, 999, 1000, 1234, 99999} {
		var out bytes.Buffer
		w := New(&out, JSONL, gmp.NewDescriber(nil), nil)
		w.Event(gmp.Event{Kind: gmp.KindProcStart, G: gmp.NoG, P: gmp.PID(id), M: gmp.MID(id), Cause: -1})
		w.flush()
		want := fmt.Sprintf(`,"p":%d,"m":%d,`, id, id)
		if !strings.Contains(out.String(), want) {
			t.Errorf("P and M %d: %s, want %s in it", id, out.String(), want)
		}
	}
}
