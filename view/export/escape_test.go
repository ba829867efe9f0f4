package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// markup is text that would be markup, or break a string, in the SVG and
// JSON exports if written raw.
const markup = `<script>alert(1)</script> "quoted" & \back\slash</text>`

// controls are control characters a title can hold (a name cannot).
const controls = "\x1b]0;t\a\x1b[2J\x00\x7f\u009b\r\n\t"

const markupFile = "m" + markup + controls + ".yaml"

// scenarioWithMarkup declares names full of markup and a title and a note
// with control characters too; its file's name, which the Perfetto
// trace's records cite, has both.
func scenarioWithMarkup(t *testing.T) *scenarios.Scenario {
	t.Helper()
	q, err := json.Marshal(markup) // a JSON string is a YAML double-quoted one
	if err != nil {
		t.Fatal(err)
	}
	src := "title: " + string(q) + "\n" +
		"summary: \"\\e]0;t\\a\\0\"\n" +
		"procs: 2\n" +
		"pools: {" + string(q) + ": {size: 2}}\n" +
		"main:\n" +
		"  - submit: {pool: " + string(q) + ", count: 3, do: [{cpu: 1ms}]}\n" +
		"  - wait: children\n" +
		"notes:\n" +
		"  - at: 0s\n" +
		"    text: \"\\e]52;c;aGk=\\a\\0 " + strings.Trim(string(q), `"`) + "\"\n"
	sc, err := scenarios.Parse(markupFile, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// The SVG timeline escapes its title: with markup and control characters
// in it, the file is XML that encoding/xml reads, with no element the
// title wrote, and the title reads back as its text (control characters,
// which XML cannot hold, as U+FFFD).
func TestSVGEscapesItsTitle(t *testing.T) {
	sc := scenarioWithMarkup(t)
	title := sc.Name + " — " + sc.Title + controls
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	// Wide enough for the whole title, which a narrower image cuts.
	s, err := NewSVG(&buf, title, m, SVGOptions{To: 5e6, Width: 4000})
	if err != nil {
		t.Fatal(err)
	}
	Run(m, s)
	if err := s.End(m); err != nil {
		t.Fatal(err)
	}
	el := elements(t, buf.Bytes())
	if el["script"] != 0 || el["svg"] != 1 {
		t.Errorf("elements %v", el)
	}
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	want := strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return '\uFFFD'
		}
		return r
	}, title)
	if len(texts) == 0 || texts[0] != want {
		t.Errorf("the title reads back as %q, want %q", texts[:min(len(texts), 1)], want)
	}
}

// The Perfetto trace escapes every string: with markup and control
// characters in the process's name and the file's, it is JSON with no raw
// control character, and the names read back exactly.
func TestPerfettoEscapesItsStrings(t *testing.T) {
	sc := scenarioWithMarkup(t)
	name := sc.Title + controls
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	trace := perfettoOf(t, m, name)
	var recs []struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	}
	if err := json.Unmarshal(trace, &recs); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	process, file := false, false
	for _, r := range recs {
		if r.Name == "process_name" && r.Args["name"] == "schedlab: "+name {
			process = true
		}
		if src, _ := r.Args["src"].(string); strings.HasPrefix(src, markupFile+":") {
			file = true
		}
	}
	if !process || !file {
		t.Errorf("the names do not read back exactly: the process's %v, the file's %v", process, file)
	}
}

// perfettoOf writes m's run as a Perfetto trace of the process name, and
// fails the test on a raw control character in it.
func perfettoOf(t *testing.T, m *gmp.Machine, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	p := NewPerfetto(&buf, name, m)
	Run(m, p)
	if err := p.End(m); err != nil {
		t.Fatal(err)
	}
	if i := bytes.IndexFunc(buf.Bytes(), func(r rune) bool { return r < 0x20 && r != '\n' }); i >= 0 {
		t.Errorf("the trace has a raw control character at byte %d: %q", i, buf.Bytes()[max(i-20, 0):min(i+20, buf.Len())])
	}
	return buf.Bytes()
}
