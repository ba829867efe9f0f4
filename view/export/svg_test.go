package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func timeline(t *testing.T, name string, to time.Duration) []byte {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if to == 0 {
		m, _ := gmp.New(sc.Config(), sc.Program())
		m.Run()
		to = m.Now().D()
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	s := NewSVG(&buf, sc.Name, sc.Procs, 0, to, 1600)
	Run(m, s)
	if err := s.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// elements counts an SVG's elements by class (and by tag for those
// without), failing on XML that does not parse.
func elements(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	out := map[string]int{}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			out[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					out["."+a.Value]++
				}
			}
		}
	}
}

// The timeline is XML with a lane per P, bars for the runs, the markers
// the run calls for, the queue strip and a legend.
func TestSVGTimeline(t *testing.T) {
	for _, c := range []struct {
		name    string
		procs   int
		markers bool
	}{{"steal", 2, true}, {"overflow", 1, true}, {"syscall-busy", 1, true}, {"runnext", 1, false}} {
		svg := timeline(t, c.name, 0)
		el := elements(t, svg)
		if el[".lane"] != c.procs || el[".run"] == 0 || el[".legend"] != 1 || el[".global"] != 1 || el["svg"] != 1 {
			t.Errorf("%s: elements %v", c.name, el)
		}
		if c.markers && el[".marker"] == 0 {
			t.Errorf("%s: no markers", c.name)
		}
	}
	if s := string(timeline(t, "steal", 0)); !strings.Contains(s, ">S<title>steals from another P") {
		t.Error("steal's timeline has no steal marker")
	}
}

// runnext's timeline is a golden file; when rsvg-convert is installed
// (.ci/run installs it) the tour's renders to PNG, as a slide would.
func TestSVGGoldenAndRenders(t *testing.T) {
	got := timeline(t, "runnext", 0)
	if *update {
		if err := os.WriteFile("testdata/runnext.svg", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile("testdata/runnext.svg"); err != nil || !bytes.Equal(got, want) {
		t.Errorf("runnext's timeline differs from testdata/runnext.svg (%v); go test ./view/export -update, then look at it", err)
	}
	conv, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert is not installed, so the timeline is not rendered (.ci/run installs it)")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "tour.svg"), filepath.Join(dir, "tour.png")
	if err := os.WriteFile(in, timeline(t, "tour", 25*time.Millisecond), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(conv, in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, msg)
	}
	png, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 5000 {
		t.Errorf("the rendered timeline is not a PNG of substance (%d bytes, %v)", len(png), err)
	}
}
