package export

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// hostileScenario's text is markup a renderer would act on: HTML that
// runs script, a heading, a code fence, emphasis, links, list and quote
// markers at the start of a line, table pipes, and control characters.
const hostileScenario = "title: \"# <script>alert(1)</script> *T* [x](javascript:alert(1)) \\e]0;t\\a\"\n" +
	"summary: \"<script>alert(1)</script> <img src=x onerror=alert(1)>\\n# heading\\n```\\ncode\\n````\\n\\0 NUL, _em_ `tick` a|b ~~s~~ &amp; \\e[2J https://evil.example/x www.evil.example me@evil.example\n" +
	// Lines of the file that would close a fence of three or four.
	" ```\n" +
	" ````\"\n" +
	"procs: 1 # a raw escape in a comment: \x1b]0;t\a\n" +
	"pools: {\"<img src=x onerror=alert(1)>\": {size: 1}}\n" +
	"chans: {\"```\": 1}\n" +
	"main:\n" +
	"  - submit: {pool: \"<img src=x onerror=alert(1)>\", count: 2, do: [{cpu: 1ms}]}\n" +
	"  - send: \"```\"\n" +
	"  - recv: \"```\"\n" +
	"  - wait: children\n" +
	"notes:\n" +
	"  - at: 0s\n" +
	"    text: \"- item\\n> quote\\n1. one\\n| a | b |\\n|---|---|\\n<script>alert(2)</script>\\n    indented code\\n\\0\"\n" +
	"  - at: 1h\n" +
	"    text: \"<img src=y onerror=alert(3)> # never reached\"\n"

// render writes sc's handout and renders it as a page, as a renderer that
// lets raw HTML through would (renderRun).
func render(t *testing.T, sc *scenarios.Scenario) (md, page string) {
	t.Helper()
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	return renderRun(t, sc, m, HandoutOptions{})
}

// renderRun writes the handout of sc's run on m with o and renders it as
// a page, as a renderer that lets raw HTML through would; it fails the
// test on a control character in the handout (a tab is one only in a
// code block, where it is the file's).
func renderRun(t *testing.T, sc *scenarios.Scenario, m *gmp.Machine, o HandoutOptions) (md, page string) {
	t.Helper()
	var buf bytes.Buffer
	h := NewHandout(&buf, sc, m, o)
	Run(m, h)
	if err := h.End(m); err != nil {
		t.Fatal(err)
	}
	if i := bytes.IndexFunc(buf.Bytes(), func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f }); i >= 0 {
		t.Errorf("the handout has a control character at byte %d: %q", i, buf.Bytes()[max(i-20, 0):min(i+20, buf.Len())])
	}
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return buf.String(), out.String()
}

// elementsOf counts a rendered page's elements by tag, and fails the test
// on an event handler or a javascript: link.
func elementsOf(t *testing.T, page string) map[string]int {
	t.Helper()
	tags := map[string]int{}
	for _, m := range regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`).FindAllStringSubmatch(page, -1) {
		tags[strings.ToLower(m[1])]++
		if regexp.MustCompile(`(?i)\son\w+\s*=`).MatchString(m[2]) {
			t.Errorf("an element with an event handler: %s", m[0])
		}
		if strings.Contains(strings.ToLower(m[2]), "javascript:") {
			t.Errorf("an element with a javascript: link: %s", m[0])
		}
	}
	return tags
}

// sameElements fails the test unless the page has exactly the elements
// want counts; want[tag] < 0 accepts any number.
func sameElements(t *testing.T, got, want map[string]int) {
	t.Helper()
	for tag, n := range got {
		if w, ok := want[tag]; !ok || w >= 0 && w != n {
			t.Errorf("the page has %d <%s> elements, want %d", n, tag, max(w, 0))
		}
	}
	for tag, w := range want {
		if _, ok := got[tag]; !ok && w > 0 {
			t.Errorf("the page has no <%s> element, want %d", tag, w)
		}
	}
}

// The handout shows a scenario's text as text: rendered by a CommonMark
// renderer that lets raw HTML through (goldmark with WithUnsafe, and
// GitHub's extensions), it has no element or attribute the scenario wrote,
// and exactly the headings, tables, code spans and lists the handout
// means; the scenario's names read back in the program's table, whatever
// pipes and fences they hold.
func TestHandoutEscapesTheScenariosText(t *testing.T) {
	sc, err := scenarios.Parse("a`b<i>x</i>.yaml", []byte(hostileScenario))
	if err != nil {
		t.Fatal(err)
	}
	md, out := render(t, sc)
	tags := elementsOf(t, out)
	// What the handout means: its title; the file and the commands (tui,
	// export for the timeline, tui --quiz) in code spans; the program's
	// table, a row for main and one for the pool's tasks; the program's,
	// the run's, the reached note's, the unreached one's, the end's, the
	// questions' and the answers' sections; a list of events after the
	// note, of notes not reached, and of each question's choices; the
	// questions and the answers as numbered lists.
	sameElements(t, tags, map[string]int{"h1": 1, "h2": 7, "p": -1, "code": 4, "ul": 3, "ol": 2, "li": -1,
		"table": 1, "thead": 1, "tbody": 1, "tr": 3, "th": 3, "td": 6})
	if t.Failed() {
		t.Logf("the handout:\n%s\nthe page:\n%s", md, out)
	}

	// The words are all there, as text.
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(out, ""))
	for _, s := range []string{
		"# <script>alert(1)</script> *T* [x](javascript:alert(1)) ]0;t",
		"<script>alert(1)</script> <img src=x onerror=alert(1)> # heading ``` code ```` NUL, _em_ `tick` a|b ~~s~~ &amp; [2J https://evil.example/x www.evil.example me@evil.example ``` ````",
		"- item > quote 1. one | a | b | |---|---| <script>alert(2)</script> indented code",
		"It declares channel ``` (buffer 1), pool <img src=x onerror=alert(1)> (size 1).",
		"a`b<i>x</i>.yaml",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("the page's text lacks %q", s)
		}
	}
	// The table's cells are the program, in the scenario's names.
	cells := regexp.MustCompile(`(?s)<td>(.*?)</td>`).FindAllStringSubmatch(out, -1)
	var got []string
	for _, c := range cells {
		got = append(got, html.UnescapeString(c[1]))
	}
	want := []string{"G1 (main)", "the runtime", "submit ×2 to pool <img src=x onerror=alert(1)>; send ```; recv ```; wait for its children",
		"2 tasks of pool <img src=x onerror=alert(1)>, run by its workers G2", "G1 (main), line 9", "cpu 1ms"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the program's table reads\n%q\nwant\n%q", got, want)
	}
}

// The timeline's image is one image whatever its file is called: the
// path is escaped as a URL's, so no name closes the link or adds markup.
func TestHandoutLinksItsTimeline(t *testing.T) {
	sc, err := scenarios.Load("runnext")
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h := NewHandout(&buf, sc, m, HandoutOptions{Timeline: "a b)(x<y>\n[z]#.svg"})
	Run(m, h)
	if err := h.End(m); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert(buf.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	imgs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(page.String(), -1)
	if len(imgs) != 1 || imgs[0][1] != "a%20b%29%28x%3Cy%3E%0A%5Bz%5D%23.svg" && imgs[0][1] != "a%20b)(x%3Cy%3E%0A%5Bz%5D%23.svg" {
		t.Errorf("the timeline's images: %q\n%s", imgs, buf.String())
	}
	elementsOf(t, page.String())
}

// A run that ends in an error shows it in a code block of its own, fenced
// past the backticks of the names it quotes.
func TestHandoutFencesTheError(t *testing.T) {
	sc, err := scenarios.Parse("d.yaml", []byte("procs: 1\nchans: {\"```<script>alert(1)</script>\": 0}\nmain:\n  - recv: \"```<script>alert(1)</script>\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	md, page := render(t, sc)
	sameElements(t, elementsOf(t, page), map[string]int{"h1": 1, "h2": -1, "p": -1, "pre": 1, "code": -1,
		"table": 1, "thead": 1, "tbody": 1, "tr": 2, "th": 3, "td": 3})
	if !strings.Contains(md, "\n````\n") || !strings.Contains(html.UnescapeString(page), "channel \"```<script>alert(1)</script>\"") {
		t.Errorf("the error is not in a fence of four:\n%s\n%s", md, page)
	}
}
