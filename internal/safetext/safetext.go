// Package safetext writes text that schedlab did not write itself — a
// scenario's title, summary, notes, names and questions, a file's name, a
// runtime trace's strings — so that it can only be read, never act, at its
// destination. There is one helper per destination:
//
//   - a terminal (the text outputs, the error messages, the UI): Term,
//     TermLines and AppendTerm make every control character visible as an
//     escape (ESC as \x1b), so an escape sequence in a shared file cannot
//     retitle the window, write the clipboard or redraw the screen;
//   - a Markdown page (the handout): Markdown, CodeSpan and CodeBlock
//     escape what CommonMark and HTML would read as markup;
//   - Go source (realprog) takes %q literals, JSON its own escaping and
//     SVG encoding/xml's: those need nothing from here.
//
// The text is shown as it is, only made safe: nothing in it is dropped
// from a terminal, so a reader sees what the file holds.
package safetext

import (
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Unsafe reports whether r must not reach a reader as it is: a control
// character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029),
// or a bidirectional formatting character (the marks U+061C, U+200E,
// U+200F, the embeddings and overrides U+202A–U+202E, the isolates
// U+2066–U+2069), which reorders the text around it so that what a reader
// sees is not what the file says ("Trojan Source", CVE-2021-42574). Term
// shows these as escapes, the JSON writer escapes them, and the scenario
// parser refuses them in declared names.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// plainFrom returns the index of the first byte of s that a terminal
// would not simply show, or len(s): a rune Unsafe reports or a byte that
// is not part of valid UTF-8. With keepLines, newlines and
// tabs are shown as they are.
func plainFrom[S text](s S, keepLines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			if keepLines && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return i
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 || Unsafe(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// decodeRune decodes the first rune of s, as utf8 does for each type.
func decodeRune[S text](s S) (rune, int) {
	if v, ok := any(s).(string); ok {
		return utf8.DecodeRuneInString(v)
	}
	return utf8.DecodeRune(any(s).([]byte))
}

// text is what the helpers read: a string, or bytes a writer has
// appended to its buffer.
type text interface{ string | []byte }

// Term returns s for a terminal, on one line: every control character
// shown as an escape — \n, \r and \t by name, other C0 controls and DEL as
// \xHH, the other runes Unsafe reports as \uHHHH (C1 controls as \u00HH) —
// and each byte that is not UTF-8 as \xHH.
// A string with none is returned as it is, without a copy.
func Term(s string) string {
	i := plainFrom(s, false)
	if i == len(s) {
		return s
	}
	return string(appendTerm(append(make([]byte, 0, len(s)+16), s[:i]...), s[i:], false))
}

// TermLines is Term for text whose line breaks and tabs are its writer's
// layout (an error message, with a hint on a line of its own): newlines
// and tabs stay, every other control character is made visible.
func TermLines(s string) string {
	i := plainFrom(s, true)
	if i == len(s) {
		return s
	}
	return string(appendTerm(append(make([]byte, 0, len(s)+16), s[:i]...), s[i:], true))
}

// AppendTerm appends s to dst as Term writes it, for writers that build
// their lines in a buffer (tracelog's text trace).
func AppendTerm[S text](dst []byte, s S) []byte {
	i := plainFrom(s, false)
	dst = append(dst, s[:i]...)
	if i == len(s) {
		return dst
	}
	return appendTerm(dst, s[i:], false)
}

// IsTerm reports whether s is shown on a terminal as it is: Term(s) == s.
func IsTerm[S text](s S) bool { return plainFrom(s, false) == len(s) }

func appendTerm[S text](b []byte, s S, keepLines bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			b = append(b, c)
			i++
			continue
		case keepLines && (c == '\n' || c == '\t'):
			b = append(b, c)
			i++
			continue
		case c == '\n':
			b = append(b, `\n`...)
			i++
			continue
		case c == '\r':
			b = append(b, `\r`...)
			i++
			continue
		case c == '\t':
			b = append(b, `\t`...)
			i++
			continue
		case c < 0x80:
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			i++
			continue
		}
		r, size := decodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		case Unsafe(r):
			b = append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}
