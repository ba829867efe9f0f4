package tracelog

import (
	"strconv"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
)

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s to dst as a JSON string, as the JSON lines
// do; the exports write their JSON with it.
func AppendJSONString(dst []byte, s string) []byte { return appendString(dst, s) }

// appendString appends s to dst as a JSON string (RFC 8259): quotes and
// backslashes escaped, control characters as \n, \r, \t or \u00XX (DEL
// and the C1 controls too, and the other runes safetext.Unsafe reports as
// \uXXXX, so that a terminal showing the file is not told to act), and
// bytes that are not UTF-8 as U+FFFD, so that any text a scenario holds
// gives valid JSON. (strconv.Quote writes Go escapes such as \a and \x00,
// which JSON does not have.) It takes bytes as well as a string, so that a
// sentence appended into a reused buffer is quoted without becoming a
// string first.
func appendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := plainRun(s, 0); i < len(s); i = plainRun(s, start) {
		dst = append(dst, s[start:i]...)
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if c < utf8.RuneSelf {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
				break
			}
			r, size := decodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, `\ufffd`...) // a byte that is not UTF-8
				break
			}
			// A rune safetext.Unsafe reports (C1, a separator, a bidi
			// format): valid JSON as it is, but a terminal or a viewer
			// that shows the file would act on it.
			dst = append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			start = i + size
			continue
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainRun returns where the run of bytes from i that JSON takes as they
// are ends: the first control character, quote, backslash or byte that is
// not UTF-8, or len(s).
func plainRun[S string | []byte](s S, i int) int {
	for i < len(s) {
		// Sixteen bytes at once, then eight: two words tested apart
		// give the CPU two chains of work to overlap. The loads are
		// written out so that the compiler makes each one load, from a
		// slice of known length so that it checks no bounds.
		if i+16 <= len(s) {
			w := s[i : i+16]
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			y := uint64(w[8]) | uint64(w[9])<<8 | uint64(w[10])<<16 | uint64(w[11])<<24 |
				uint64(w[12])<<32 | uint64(w[13])<<40 | uint64(w[14])<<48 | uint64(w[15])<<56
			if (notPlain(x)|notPlain(y))&highs == 0 {
				i += 16
				continue
			}
		}
		if i+8 <= len(s) {
			w := s[i : i+8]
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			if plain8(x) {
				i += 8
				continue
			}
		}
		c := s[i]
		switch {
		case c >= 0x20 && c != '"' && c != '\\' && c != 0x7f && c < utf8.RuneSelf:
			i++
		case c < utf8.RuneSelf:
			return i
		default:
			r, size := decodeRune(s[i:])
			if r == utf8.RuneError && size == 1 || safetext.Unsafe(r) {
				return i
			}
			i += size
		}
	}
	return i
}

// Bytes in a word, for plain8's tests of eight bytes at once.
const (
	ones  = 0x0101010101010101 // 0x01 in each byte
	highs = 0x8080808080808080 // the high bit of each byte
)

// plain8 reports whether the eight bytes of x are ASCII that JSON takes
// as it is: no control character (DEL included), quote or backslash.
// Sentences are nearly all such bytes, and testing a word at a time
// rather than a byte made quoting them twice as fast
// (BenchmarkAppendString). When it says no, the caller looks at one byte.
func plain8(x uint64) bool { return notPlain(x)&highs == 0 }

// notPlain sets the high bit of each byte of x that JSON does not take
// as it is, as long as all eight are ASCII; a byte that is not sets its
// own high bit, and then the others' do not matter. For an ASCII byte c,
// c+0x60 reaches 0x80 exactly when c >= 0x20, c+1 when c >= 0x7f, and
// (c^q)+0x7f when c != q; none of these sums carries into the next byte.
func notPlain(x uint64) uint64 {
	q := x ^ '"'*ones
	bs := x ^ '\\'*ones
	return x | ^(x + 0x60*ones) | (x + ones) | ^(q + 0x7f*ones) | ^(bs + 0x7f*ones)
}

// plainJSON reports whether s is its own JSON string body: appendString
// would only put quotes around it.
func plainJSON(s []byte) bool { return plainRun(s, 0) == len(s) }

// decodeRune is utf8.DecodeRune of a string or bytes. A rune is at most
// utf8.UTFMax bytes, and a string of so few converts without allocating.
func decodeRune[S string | []byte](s S) (rune, int) {
	return utf8.DecodeRuneInString(string(s[:min(len(s), utf8.UTFMax)]))
}

// appendPos appends p as the JSON string of p.String(), "file:line:col",
// without making that string: the file quoted, then the numbers, which
// need no escaping, before the closing quote.
func appendPos(dst []byte, p gmp.Pos) []byte {
	dst = appendString(dst, p.File)
	dst = append(dst[:len(dst)-1], ':')
	dst = strconv.AppendInt(dst, int64(p.Line), 10)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, int64(p.Col), 10)
	return append(dst, '"')
}
