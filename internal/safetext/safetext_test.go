package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerm(t *testing.T) {
	for _, c := range []struct{ in, line, lines string }{
		{"plain text, µs and 日本", "plain text, µs and 日本", "plain text, µs and 日本"},
		{"", "", ""},
		{"\x1b]0;title\a", `\x1b]0;title\x07`, `\x1b]0;title\x07`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`, `\x1b]52;c;aGk=\x07`},
		{"\x1b[2J\x1b[31mred", `\x1b[2J\x1b[31mred`, `\x1b[2J\x1b[31mred`},
		{"a\nb\tc\rd", `a\nb\tc\rd`, "a\nb\tc\\rd"},
		{"nul\x00del\x7f", `nul\x00del\x7f`, `nul\x00del\x7f`},
		{"c1 \u009b31m \u0085", `c1 \u009b31m \u0085`, `c1 \u009b31m \u0085`},
		{"bad \x9b\xff utf-8", `bad \x9b\xff utf-8`, `bad \x9b\xff utf-8`},
		{`a \x1b written out`, `a \x1b written out`, `a \x1b written out`},
		// Bidi overrides and isolates reorder what a reader sees; line
		// separators break a line where none shows.
		{"admin\u202e\u2066x\u2069\u200f", `admin\u202e\u2066x\u2069\u200f`, `admin\u202e\u2066x\u2069\u200f`},
		{"one\u2028two\u2029", `one\u2028two\u2029`, `one\u2028two\u2029`},
	} {
		if got := Term(c.in); got != c.line {
			t.Errorf("Term(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := TermLines(c.in); got != c.lines {
			t.Errorf("TermLines(%q) = %q, want %q", c.in, got, c.lines)
		}
		if got := string(AppendTerm([]byte("x"), c.in)); got != "x"+c.line {
			t.Errorf("AppendTerm(%q) = %q, want %q", c.in, got, "x"+c.line)
		}
		if got := string(AppendTerm([]byte("x"), []byte(c.in))); got != "x"+c.line {
			t.Errorf("AppendTerm([]byte(%q)) = %q, want %q", c.in, got, "x"+c.line)
		}
		if IsTerm(c.in) != (c.in == c.line) {
			t.Errorf("IsTerm(%q) = %v", c.in, IsTerm(c.in))
		}
		// What Term writes is safe as it is: writing it again changes
		// nothing.
		if again := Term(c.line); again != c.line {
			t.Errorf("Term(Term(%q)) = %q", c.in, again)
		}
	}
}

// Whatever the input, Term's output has no byte a terminal would act on.
func FuzzTerm(f *testing.F) {
	for _, s := range []string{"\x1b]0;x\a", "\u009b", "\xc2", "ok", "a\nb\tc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Term(s), TermLines(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%q: not UTF-8: %q", s, out)
			}
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
					t.Fatalf("%q: %q has %U", s, out, r)
				}
			}
		}
		if strings.ContainsAny(Term(s), "\n\t") {
			t.Fatalf("Term(%q) keeps a line break or tab", s)
		}
	})
}

// A line with nothing to escape is neither copied nor allocated: the text
// trace writes hundreds of thousands.
func TestTermPlainDoesNotAllocate(t *testing.T) {
	s := "G1 (main) starts on P0 with M0 (runnable for 1.05µs)"
	b := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() {
		_ = Term(s)
		b = AppendTerm(b[:0], s)
		b = AppendTerm(b[:0], []byte(s[:10]))
		_ = IsTerm(b)
	}); n != 0 {
		t.Errorf("%v allocations for plain text", n)
	}
}

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"<img src=x onerror=alert(1)>", `\<img src=x onerror=alert(1)\>`},
		{"# heading", `\# heading`},
		{"*bold* _em_ `code` [link](x) a|b ~~s~~ &amp;", `\*bold\* \_em\_ \` + "`code\\`" + ` \[link\](x) a\|b \~\~s\~\~ \&amp;`},
		{"> quote", `\> quote`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"12. item", `12\. item`},
		{"3) item", `3\) item`},
		{"===", `\===`},
		{"  two\n\nparagraphs\t and   spaces  ", "two paragraphs and spaces"},
		{"nul\x00 esc\x1b[2J \u009b", "nul esc\\[2J"},
		{"back\\slash", `back\\slash`},
		{"waiter #1 and C#", "waiter #1 and C#"},
		{"closing ##", `closing \##`},
		{"##", `\##`},
		{"version 1.5 - fine", "version 1.5 - fine"},
		// GitHub's extended autolinks: an address, a scheme, www.
		{"(at@mic.B", `(at\@mic.B`},
		{"see https://go.dev or FTP://x.y", `see https\://go.dev or FTP\://x.y`},
		{"www.go.dev, (WwW.a.b)", `www\.go.dev, (WwW\.a.b)`},
		{"ww\x00w.x h\ttp:\x00//y", `www\.x h tp\://y`},
		{"a: b, 1.5, w.ww", "a: b, 1.5, w.ww"},
		{"://x", `\://x`},
	} {
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCodeSpan(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"steal.yaml", "`steal.yaml`"},
		{"a`b", "``a`b``"},
		{"`x", "`` `x ``"},
		{"a``b`", "``` a``b` ```"},
		{"two\nlines\x00", "`two lines`"},
		{"", "` `"},
	} {
		if got := CodeSpan(c.in); got != c.want {
			t.Errorf("CodeSpan(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCodeBlock(t *testing.T) {
	for _, c := range []struct{ info, in, want string }{
		{"yaml", "a: 1\n", "```yaml\na: 1\n```\n"},
		{"yaml", "a: 1", "```yaml\na: 1\n```\n"},
		{"", "```\nfenced\n```", "````\n```\nfenced\n```\n````\n"},
		{"", "x ````` y", "``````\nx ````` y\n``````\n"},
		{"", "nul\x00 cr\r\n\ttab", "```\nnul cr\n\ttab\n```\n"},
		{"", "", "```\n```\n"},
	} {
		if got := CodeBlock(c.info, c.in); got != c.want {
			t.Errorf("CodeBlock(%q, %q) = %q, want %q", c.info, c.in, got, c.want)
		}
	}
}

func BenchmarkIsTerm(b *testing.B) {
	s := []byte("P0 runs G3 from its runnext and inherits the current time slice (schedtick stays 1) (runnable for 1.05µs)")
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if !IsTerm(s) {
			b.Fatal("not plain")
		}
	}
}
