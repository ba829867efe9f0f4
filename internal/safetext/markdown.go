package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// markdownInline are the characters CommonMark (and GitHub's tables and
// strikethrough) can read as markup anywhere in a line: emphasis, code,
// links and images, raw HTML and autolinks, entities, table cells, and
// GitHub's strikethrough, and the @ of an address that GitHub's extended
// autolinks make a mailto: link of. Each is written with a backslash,
// which every CommonMark renderer reads as the character itself. (# is
// markup only at the ends of a line: Markdown escapes it there. The
// extended autolinks' other two, a scheme's :// and www., are escaped
// where they are: unlink.)
const markdownInline = "\\`*_[]<>&|~@"

// Markdown returns s as the text of a Markdown paragraph, heading or list
// item: on one line (a run of white space, line breaks included, becomes
// one space, so no line of s can start a block of its own), with every
// character that could be read as markup or HTML escaped — <script> shows
// as <script>, never runs — and what would start a block at the start of
// the line (a list's -, + or 1., a quote's >, a heading's #) escaped too.
// Control characters are dropped: they have nothing to show in a page,
// and NUL is not allowed in one. Bytes that are not UTF-8 become U+FFFD.
func Markdown(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < utf8.RuneSelf && strings.IndexByte(markdownInline, byte(r)) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	out := unlink(b.String())
	// A heading's closing sequence: a run of # at the end of the line,
	// after a space, which a heading would drop.
	if trail := len(out) - len(strings.TrimRight(out, "#")); trail > 0 && trail < len(out) && out[len(out)-trail-1] == ' ' {
		out = out[:len(out)-trail] + `\` + out[len(out)-trail:]
	}
	// What starts a block only at the start of a line: a heading (#), a
	// bullet (-, +; * is escaped above), an ordered list's number (1. or
	// 1)), a setext underline or thematic break (=, -).
	switch {
	case out == "":
	case out[0] == '#' || out[0] == '-' || out[0] == '+' || out[0] == '=':
		out = `\` + out
	default:
		digits := 0
		for digits < len(out) && digits < 10 && out[digits] >= '0' && out[digits] <= '9' {
			digits++
		}
		if digits > 0 && digits < len(out) && (out[digits] == '.' || out[digits] == ')') {
			out = out[:digits] + `\` + out[digits:]
		}
	}
	return out
}

// unlink escapes in out, Markdown's text with the spaces and controls
// dealt with, what GitHub's extended autolinks make a link of in plain
// text: a scheme's "://" (https://, ftp://) and "www.", whatever their
// case. An escaped colon or dot is the character itself, and no link.
func unlink(out string) string {
	linkAt := func(i int) bool {
		c := out[i]
		return c == ':' && strings.HasPrefix(out[i+1:], "//") || c == '.' && i >= 3 && strings.EqualFold(out[i-3:i], "www")
	}
	var b strings.Builder
	from := 0
	for i := 0; i < len(out); i++ {
		if linkAt(i) {
			b.WriteString(out[from:i])
			b.WriteByte('\\')
			from = i
		}
	}
	if b.Len() == 0 {
		return out // nothing escaped
	}
	b.WriteString(out[from:])
	return b.String()
}

// CodeSpan returns s as an inline code span (a file name in a sentence):
// between runs of backticks longer than any in s, padded with a space
// where s starts or ends with a backtick or a space, which CommonMark
// then takes off again. Line breaks become spaces, as a code span shows
// them; control characters are dropped.
func CodeSpan(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if s == "" {
		return "` `" // a code span holds something
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// CodeBlock returns s as a fenced code block with info (a language, such
// as yaml; schedlab's own, never the user's) on its opening fence. The
// fence is a run of backticks longer than any in s, and at least three,
// so no line of s can close it early. s keeps its lines and tabs; a
// carriage return and other control characters (NUL) are dropped. The
// block ends with a line break.
func CodeBlock(info, s string) string {
	s = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return fence + info + "\n" + s + fence + "\n"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			n = 0
			continue
		}
		n++
		longest = max(longest, n)
	}
	return longest
}
