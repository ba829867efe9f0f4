package safetext

import (
	"strings"
	"unicode/utf8"
)

// QuoteMax bounds how many runes of a user's text a message quotes.
const QuoteMax = 80

// BriefMax bounds the runes of a message Brief returns.
const BriefMax = 4 * QuoteMax

// Clip shortens s to at most n runes, the last an ellipsis if it cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Brief shortens a message that another library wrote about untrusted
// text, for a message of schedlab's own: each piece it quotes in double
// quotes, and each word outside them, to at most QuoteMax runes, and the
// whole to BriefMax, as one line of valid text shown as a terminal shows
// it (Term). Such messages quote the text as it is: the YAML parser an
// invalid header option whole, the Go type checker a name of three
// thousand letters, the Go scanner a raw string with its line breaks and
// bytes that are not UTF-8, the runtime trace reader two of the trace's
// strings; and a message that long buries the position it starts with.
func Brief(msg string) string {
	msg = Term(msg)
	var b strings.Builder
	for msg != "" {
		switch msg[0] {
		case ' ':
			b.WriteByte(' ')
			msg = msg[1:]
		case '"':
			piece, rest, closed := strings.Cut(msg[1:], `"`)
			b.WriteByte('"')
			b.WriteString(Clip(piece, QuoteMax))
			if closed {
				b.WriteByte('"')
			}
			msg = rest
		default:
			end := strings.IndexAny(msg, ` "`)
			if end < 0 {
				end = len(msg)
			}
			b.WriteString(Clip(msg[:end], QuoteMax))
			msg = msg[end:]
		}
	}
	return Clip(b.String(), BriefMax)
}
