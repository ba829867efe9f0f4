package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// docsNotRun are the commands README and docs/ show with a capture that
// TestDocsOutputs does not run, each with the reason: by the document and
// the command as the document writes it.
var docsNotRun = map[string]string{
	"docs/guide.md: tui steal --quiz": "a screen of the UI: tui's own tests hold its screens",
}

// machineCommands measure this machine or run real programs: what they
// print is this machine's at that moment, not a fixed output, and a test
// of ./test.sh depends on no such thing. Their captures are not run
// (scripts/fidelity.sh and scripts/bench.sh run the commands).
var machineCommands = map[string]bool{"bench": true, "real": true, "verify": true, "calibrate": true}

// A capture is a command a document names as it is run from a checkout,
// in a code span of a paragraph that ends with a colon, right before a
// fenced block of output (no language, or markdown): the block is what
// the command prints. (A command written schedlab ARGS is one a reader
// runs, not one whose output follows.)
type capture struct {
	doc, args, block string
}

// captures finds the captures of a Markdown document: for each fenced
// block of output that follows a paragraph ending in ":", the last code
// span of the paragraph that is a command, go run ./cmd/schedlab ARGS.
func captures(doc, md string) []capture {
	var out []capture
	lines := strings.Split(md, "\n")
	var para []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "```") {
			if trimmed == "" {
				if len(para) > 0 && !strings.HasSuffix(strings.TrimSpace(para[len(para)-1]), ":") {
					para = nil
				}
				continue
			}
			if len(para) > 0 && strings.TrimSpace(lines[i-1]) == "" {
				para = nil // a new paragraph
			}
			para = append(para, line)
			continue
		}
		// A fence: its block runs to a line of as many backticks.
		fence := trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
		var block []string
		for i++; i < len(lines); i++ {
			t := strings.TrimSpace(lines[i])
			if strings.TrimRight(t, "`") == "" && len(t) >= len(fence) {
				break
			}
			block = append(block, lines[i])
		}
		text := strings.Join(para, " ")
		para = nil
		if info := strings.TrimPrefix(trimmed, fence); !strings.HasSuffix(strings.TrimSpace(text), ":") || info != "" && info != "markdown" {
			continue
		}
		args := ""
		for _, span := range codeSpan.FindAllString(text, -1) {
			cmd := strings.Join(strings.Fields(strings.Trim(span, "`")), " ")
			if rest, ok := strings.CutPrefix(cmd, "go run ./cmd/schedlab "); ok {
				args = rest
			}
		}
		if args != "" {
			out = append(out, capture{doc: doc, args: args, block: strings.Join(block, "\n") + "\n"})
		}
	}
	return out
}

// Every command README and docs/*.md show with its output right after
// them prints that output today, but the few docsNotRun names with why
// (real programs, this machine's measures, the UI's screens). A document
// that shows one more gets it checked without a change here.
func TestDocsOutputs(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, "../../README.md")
	seen := map[string]bool{}
	ran := 0
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(d, "../../")
		for _, c := range captures(name, string(data)) {
			key := c.doc + ": " + c.args
			seen[key] = true
			if _, skip := docsNotRun[key]; skip || machineCommands[strings.Fields(c.args)[0]] {
				continue
			}
			ran++
			t.Logf("runs %s", key)
			code, out, errOut := cli(t, strings.Fields(c.args)...)
			if code != 0 {
				t.Errorf("%s: exit %d, %s", key, code, errOut)
				continue
			}
			if c.block != out {
				t.Errorf("%s's output of %q is stale; it prints:\n%s", c.doc, c.args, out)
			}
		}
	}
	for key, why := range docsNotRun {
		if !seen[key] {
			t.Errorf("docsNotRun names %q (%s), which no document shows any more", key, why)
		}
	}
	if ran < 4 {
		t.Errorf("only %d captures run; is the capture reader broken?", ran)
	}
}

// docs/cli.md shows docs/tour.svg, which must be what its command writes.
func TestDocsTimeline(t *testing.T) {
	want, err := os.ReadFile("../../docs/tour.svg")
	if err != nil {
		t.Fatal(err)
	}
	cliDoc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	const command, image = "`go run ./cmd/schedlab export tour --format svg -o docs/tour.svg` gives:\n\n![", "](tour.svg)"
	if !strings.Contains(string(cliDoc), command) || !strings.Contains(string(cliDoc), image) {
		t.Errorf("docs/cli.md no longer shows tour.svg right after the command that writes it")
	}
	code, out, errOut := cli(t, "export", "tour", "--format", "svg")
	if code != 0 || out != string(want) {
		t.Errorf("docs/tour.svg is stale (exit %d, %s): go run ./cmd/schedlab export tour --format svg -o docs/tour.svg", code, errOut)
	}
}

// README is a landing page: what schedlab is, the two commands, a
// picture, and where to read on; the rest lives in docs/, and each
// document there is one README names.
func TestREADMEIsALandingPage(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if n := strings.Count(readme, "\n"); n >= 200 {
		t.Errorf("README has %d lines; a landing page stays under 200, the rest goes to docs/", n)
	}
	for _, command := range []string{"go run ./cmd/schedlab", "./test.sh"} {
		if !strings.Contains(readme, "\n```sh\n"+command+"\n```\n") {
			t.Errorf("README no longer gives the command %q in a block of its own", command)
		}
	}
	linked := map[string]bool{}
	for _, l := range links(readme) {
		target, _, _ := strings.Cut(l, "#")
		if strings.HasPrefix(target, "docs/") {
			linked[target] = true
			if _, err := os.Stat("../../" + target); err != nil {
				t.Errorf("README links to %s, which does not exist", target)
			}
		}
	}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	for _, d := range docs {
		if name := "docs/" + filepath.Base(d); !linked[name] {
			t.Errorf("README does not link to %s", name)
		}
	}
}

// README's layout table names folders that exist, and every group folder
// at the top of the repository is in it.
func TestREADMELayout(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "\n## Layout\n")
	if !ok {
		t.Fatal("README has no Layout section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")
	var folders []string
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		folders = append(folders, m[1])
		if fi, err := os.Stat("../../" + m[1]); err != nil || !fi.IsDir() {
			t.Errorf("README's layout table names %s, which is not a folder", m[1])
		}
	}
	if len(folders) < 10 {
		t.Fatalf("README's layout table has %d rows", len(folders))
	}
	groups := []string{"core", "view", "teach", "real", "cmd", "internal", "scripts", "docs"}
	// A new group folder carries a doc.go saying what lives in it; it
	// must be in the table too.
	top, err := os.ReadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range top {
		if _, err := os.Stat(filepath.Join("../..", e.Name(), "doc.go")); e.IsDir() && err == nil && !slices.Contains(groups, e.Name()) {
			groups = append(groups, e.Name())
		}
	}
	for _, g := range groups {
		if !slices.ContainsFunc(folders, func(f string) bool { return f == g || strings.HasPrefix(f, g+"/") }) {
			t.Errorf("README's layout table has no row for %s", g)
		}
	}
}

// Every relative link in README and docs/*.md leads to a file of the
// repository, and a link to a heading (#anchor) to a heading of that
// document, as GitHub names them.
func TestDocsLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, "../../README.md")
	checked := 0
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(d, "../../")
		for _, l := range links(string(data)) {
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			checked++
			target, anchor, hasAnchor := strings.Cut(l, "#")
			file := d
			if target != "" {
				file = path.Join(path.Dir(d), target)
				if !strings.HasPrefix(file, "../../") || strings.HasPrefix(file, "../../../") {
					t.Errorf("%s links to %s, outside the repository", name, l)
					continue
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s links to %s, which does not exist", name, l)
					continue
				}
			}
			if !hasAnchor {
				continue
			}
			if !strings.HasSuffix(file, ".md") {
				t.Errorf("%s links to %s: an anchor in a file that is not Markdown", name, l)
				continue
			}
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(anchors(string(body)), anchor) {
				t.Errorf("%s links to %s, but %s has no heading %q (it has %v)", name, l, strings.TrimPrefix(file, "../../"), anchor, anchors(string(body)))
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d relative links found; is the link reader broken?", checked)
	}
}

// prose is a Markdown document without its fenced blocks, whose lines
// are given in order: a fence closes only with as many backticks as it
// opened with, so a four-backtick block may hold three-backtick ones.
func prose(md string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.TrimRight(trimmed, "`") == "" && len(trimmed) >= len(fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"):
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
		default:
			out = append(out, line)
		}
	}
	return out
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// links are the targets of a Markdown document's links and images, out
// of its code.
func links(md string) []string {
	text := codeSpan.ReplaceAllString(strings.Join(prose(md), "\n"), "")
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// anchors are the names GitHub gives a document's headings: lower case,
// punctuation dropped, spaces as hyphens, and -1, -2… after a repeat.
func anchors(md string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range prose(md) {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			a = fmt.Sprintf("%s-%d", a, n)
		}
		seen[b.String()]++
		out = append(out, a)
	}
	return out
}

// docs/security.md names the test behind each promise; a promise whose
// test was renamed or removed would be held by nothing.
func TestSecurityDocCitesRealTests(t *testing.T) {
	doc, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`)
	err = filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			defined[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := regexp.MustCompile("`((?:Test|Fuzz)[A-Z]\\w*)`").FindAllStringSubmatch(string(doc), -1)
	if len(cited) < 20 {
		t.Fatalf("docs/security.md cites only %d tests", len(cited))
	}
	for _, m := range cited {
		if !defined[m[1]] {
			t.Errorf("docs/security.md cites %s, which no test file defines", m[1])
		}
	}
}
