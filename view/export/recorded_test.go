package export

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/recorded"
	"github.com/schedlab/schedlab/real/rtrace"
)

// testdata/small.trace is a runtime trace of testdata/small.yaml run for
// real once (schedlab real small.yaml --runs 1 --trace small.trace, built
// with go1.26.8, GOMAXPROCS=2): four goroutines of 300µs that each send
// on a channel main receives from. It is kept, 3 KB, so that no test
// runs a real program.
func smallTrace(t *testing.T) (*recorded.Run, *rtrace.Summary) {
	t.Helper()
	data, err := os.ReadFile("testdata/small.trace")
	if err != nil {
		t.Fatal(err)
	}
	run, sum, err := recorded.FromTrace(bytes.NewReader(data), true, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	run.Label = "real: small.trace"
	return run, sum
}

// A runtime trace exports in the three formats: a valid trace-event file
// with a slice per goroutine run and arrows from the goroutines' sends to
// main's next runs; a timeline; a handout.
func TestRecordedExports(t *testing.T) {
	run, sum := smallTrace(t)
	var buf bytes.Buffer
	if err := WriteRecordedPerfetto(&buf, run.Label, run); err != nil {
		t.Fatal(err)
	}
	st, errs := validate(buf.Bytes())
	for _, err := range errs {
		t.Error(err)
	}
	runs := 0
	for _, s := range segmentsOf(run) {
		if s.to > s.from {
			runs++
		}
	}
	if st.phases["X"] != runs || runs < 8 || len(st.slices) != 2 {
		t.Errorf("%d slices on %d tracks for %d runs on 2 Ps", st.phases["X"], len(st.slices), runs)
	}
	// main creates G2-G5; each wakes main with its send.
	wakes := 0
	for _, f := range st.flows {
		if f.to.name == "G1" && f.from.name != "G1" {
			wakes++
		}
	}
	if len(st.flows) < 4 || wakes < 3 {
		t.Errorf("%d flows, %d of them waking main: %+v", len(st.flows), wakes, st.flows)
	}

	buf.Reset()
	if err := WriteRecordedSVG(&buf, "Runtime trace small.trace", run, SVGOptions{Width: 1280, Aspect: 16.0 / 9}); err != nil {
		t.Fatal(err)
	}
	checkSlide(t, "small.trace", buf.Bytes(), 1280, 720)
	if el := elements(t, buf.Bytes()); el[".lane"] != 2 || el[".run"] != runs || el[".global"] != 0 {
		t.Errorf("the trace's timeline: %v", el)
	}

	buf.Reset()
	if err := WriteTraceHandout(&buf, "Runtime trace <small>.trace", run, sum, HandoutOptions{Timeline: "small.svg"}); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert(buf.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	sameElements(t, elementsOf(t, page.String()), map[string]int{"h1": 1, "h2": 3, "p": -1, "code": -1, "img": 1, "ul": 1, "li": -1,
		"table": 1, "thead": 1, "tbody": 1, "tr": 3, "th": 3, "td": 6})
	for _, want := range []string{"# Runtime trace \\<small\\>.trace\n", "| P0 | ", "- event 1, ", "G1 creates G2"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the handout lacks %q:\n%s", want, buf.String())
		}
	}
}

// The model beside a real run: two processes of one valid Perfetto file,
// each with its Ps' slices; two groups of lanes in one SVG.
func TestVersusExports(t *testing.T) {
	run, _ := smallTrace(t)
	sc, err := scenarios.Load("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	p := NewPerfettoVersus(&buf, sc.Name, m, run.Label, run)
	Run(m, p)
	if err := p.End(m); err != nil {
		t.Fatal(err)
	}
	st, errs := validate(buf.Bytes())
	for _, err := range errs {
		t.Error(err)
	}
	if st.procs[1] != "schedlab model: small" || st.procs[2] != "real: small.trace" {
		t.Errorf("processes %v", st.procs)
	}
	for _, trk := range []string{"1/1", "1/2", "2/1", "2/2"} {
		if len(st.slices[trk]) == 0 {
			t.Errorf("no slices on track %s (%s)", trk, st.threads[trk])
		}
	}

	m, _ = gmp.New(sc.Config(), sc.Program())
	buf.Reset()
	s, err := NewSVGVersus(&buf, "small: the model above a real run", m, run.Label, run, SVGOptions{To: run.End(), Width: 1280, Aspect: 16.0 / 9})
	if err != nil {
		t.Fatal(err)
	}
	Run(m, s)
	if err := s.End(m); err != nil {
		t.Fatal(err)
	}
	checkSlide(t, "small versus", buf.Bytes(), 1280, 720)
	var groups []string
	for _, e := range parseSVG(t, buf.Bytes()) {
		if e.attr["class"] == "group" {
			groups = append(groups, e.text)
		}
	}
	if el := elements(t, buf.Bytes()); el[".lane"] != 4 || el[".global"] != 1 || strings.Join(groups, ",") != "model,real: small.trace" {
		t.Errorf("the timelines: %v, groups %q", el, groups)
	}
}
