package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// fuzzMaxEvents bounds each fuzzed run: what an export writes of a name
// or a note is written by the first events as by the millionth, and a
// fuzzer wants many short runs, not a few long ones.
const fuzzMaxEvents = 4000

// handoutElements are the elements a handout's page may have, rendered by
// a CommonMark renderer that lets raw HTML through: what the handout
// itself writes (headings, paragraphs, code, lists, the program's table,
// the timeline's image when it has one), whatever the scenario says.
var handoutElements = map[string]bool{"h1": true, "h2": true, "p": true, "code": true, "pre": true,
	"ul": true, "ol": true, "li": true, "table": true, "thead": true, "tbody": true, "tr": true,
	"th": true, "td": true, "img": true}

// svgElements are the elements a timeline's image may have: those
// svg.go writes.
var svgElements = map[string]bool{"svg": true, "g": true, "line": true, "path": true, "rect": true,
	"text": true, "title": true, "tspan": true}

// FuzzExport holds every export of an untrusted scenario to the promises
// docs/security.md makes of them, for any scenario that parses: the
// handout, rendered with raw HTML let through, has only the elements the
// handout writes, no event handler and no javascript: link, and no
// control character; the timeline's image is XML that encoding/xml
// reads, of the image's own elements, with no event handler; the Perfetto
// trace is JSON with no raw control character; the Go execution trace
// reads back with golang.org/x/exp/trace. The fixed cases
// (TestHandoutEscapesTheScenariosText, TestSVGEscapesItsTitle,
// TestPerfettoEscapesItsStrings) hold particular hostile names; this holds
// whatever the fuzzer finds.
func FuzzExport(f *testing.F) {
	builtins, err := scenarios.Builtins()
	if err != nil || len(builtins) == 0 {
		f.Fatalf("no built-in scenarios: %v", err)
	}
	for _, sc := range builtins {
		f.Add(sc.Source)
	}
	f.Add([]byte(hostileScenario))
	q, _ := json.Marshal(markup)
	f.Add([]byte("title: " + string(q) + "\nprocs: 2\npools: {" + string(q) + ": {size: 2}}\nmain:\n  - submit: {pool: " + string(q) + ", count: 3, do: [{cpu: 1ms}]}\n  - wait: children\n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenarios.Parse("f`<i>\x1b.yaml", data)
		if err != nil {
			return
		}
		cfg := sc.Config()
		cfg.MaxEvents = fuzzMaxEvents
		machine := func() *gmp.Machine {
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Skip() // a configuration New refuses: nothing to export
			}
			return m
		}

		// The handout, with a timeline whose name is hostile too.
		md, page := renderRun(t, sc, machine(), HandoutOptions{Timeline: "t<i>`)(.svg"})
		tags := elementsOf(t, page)
		for tag, n := range tags {
			if !handoutElements[tag] {
				t.Errorf("the handout's page has %d <%s>, an element the handout does not write", n, tag)
			}
		}
		if tags["img"] > 1 {
			t.Errorf("the handout's page has %d images, want the timeline's alone", tags["img"])
		}
		if t.Failed() {
			t.Fatalf("the handout:\n%s\nthe page:\n%s", md, page)
		}

		// The timeline's image, titled as the export command titles it.
		title := sc.Name
		if sc.Title != "" {
			title += " — " + sc.Title
		}
		svg := svgTitled(t, sc, cfg, title, SVGOptions{To: 1e9})
		for _, e := range parseSVG(t, svg) {
			if !svgElements[e.name] {
				t.Errorf("the image has a <%s>, an element the timeline does not write", e.name)
			}
			for a := range e.attr {
				if strings.HasPrefix(strings.ToLower(a), "on") {
					t.Errorf("the image's <%s> has an event handler, %s", e.name, a)
				}
			}
		}
		if !utf8.Valid(svg) {
			t.Errorf("the image is not UTF-8")
		}

		// The Perfetto trace.
		trace := perfettoOf(t, machine(), title)
		var recs []map[string]any
		if err := json.Unmarshal(trace, &recs); err != nil {
			t.Errorf("the trace is not JSON: %v", err)
		}

		// The Go execution trace reads back with the reader go tool
		// trace's is, whatever the names, and however the run ended.
		m := machine()
		var gotrace bytes.Buffer
		g := NewGoTrace(&gotrace, m)
		Run(m, g)
		if err := g.End(m); err != nil {
			t.Fatal(err)
		}
		if _, err := readSteps(gotrace.Bytes()); err != nil {
			t.Errorf("the Go trace does not read back (the run ended %v): %v", m.End().Reason, err)
		}
	})
}
