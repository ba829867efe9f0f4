package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

// svgOf draws sc's run under cfg with o (o.To 0: to the run's end).
func svgOf(t *testing.T, sc *scenarios.Scenario, cfg gmp.Config, o SVGOptions) []byte {
	t.Helper()
	return svgTitled(t, sc, cfg, sc.Name, o)
}

// svgTitled is svgOf with the image titled title.
func svgTitled(t *testing.T, sc *scenarios.Scenario, cfg gmp.Config, title string, o SVGOptions) []byte {
	t.Helper()
	if o.To == 0 {
		m, _ := gmp.New(cfg, sc.Program())
		m.Run()
		o.To = m.Now().D()
	}
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	s, err := NewSVG(&buf, title, m, o)
	if err != nil {
		t.Fatal(err)
	}
	Run(m, s)
	if err := s.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func timelineOf(t *testing.T, name string, to time.Duration) []byte {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return svgOf(t, sc, sc.Config(), SVGOptions{To: to})
}

// elements counts an SVG's elements by class (and by tag for those
// without), failing on XML that does not parse.
func elements(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, e := range parseSVG(t, svg) {
		out[e.name]++
		if e.attr["class"] != "" {
			out["."+e.attr["class"]]++
		}
	}
	return out
}

// svgEl is an element of an SVG: its tag, attributes, text and the text
// of its <title>.
type svgEl struct {
	name  string
	attr  map[string]string
	text  string
	title string
}

func parseSVG(t *testing.T, svg []byte) []*svgEl {
	t.Helper()
	var out, stack []*svgEl
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &svgEl{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			out = append(out, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			if top.name == "title" && len(stack) > 1 {
				stack[len(stack)-2].title += string(tok)
			} else {
				top.text += string(tok)
			}
		}
	}
}

func num(t *testing.T, e *svgEl, a string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attr[a], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.name, a, e.attr[a], err)
	}
	return v
}

// The timeline is XML with a lane per P, bars for the runs, the markers
// the run calls for, the queue strip and a legend.
func TestSVGTimeline(t *testing.T) {
	for _, c := range []struct {
		name    string
		procs   int
		markers bool
	}{{"steal", 2, true}, {"overflow", 1, true}, {"syscall-busy", 1, true}, {"runnext", 1, false}} {
		svg := timelineOf(t, c.name, 0)
		el := elements(t, svg)
		if el[".lane"] != c.procs || el[".run"] == 0 || el[".legend"] != 1 || el[".global"] != 1 || el["svg"] != 1 {
			t.Errorf("%s: elements %v", c.name, el)
		}
		if c.markers != (el[".marker"] > 0) {
			t.Errorf("%s: %d markers", c.name, el[".marker"])
		}
	}
	if s := string(timelineOf(t, "steal", 0)); !strings.Contains(s, ">S<title>steals from another P") {
		t.Error("steal's timeline has no steal marker")
	}
}

// checkSlide holds a timeline to what a slide needs: its size; nothing
// outside it; the markers inside their lanes, below the title and the
// axis, none over another; each number inside its bar and clear of the
// one before it; the legend naming the markers the picture has and no
// other.
func checkSlide(t *testing.T, what string, svg []byte, width, height int) {
	t.Helper()
	els := parseSVG(t, svg)
	root := els[0]
	if root.attr["width"] != strconv.Itoa(width) || root.attr["height"] != strconv.Itoa(height) || root.attr["viewBox"] != "0 0 "+strconv.Itoa(width)+" "+strconv.Itoa(height) {
		t.Errorf("%s: the image is %sx%s (%s), want %dx%d", what, root.attr["width"], root.attr["height"], root.attr["viewBox"], width, height)
	}
	// A label's width, measured apart from the code's own bound: 0.58em
	// a digit or space (DejaVu Sans's digits are 0.56em), 0.78em else.
	width1 := func(s string, px float64) float64 {
		w := 0.0
		for _, r := range s {
			if r >= '0' && r <= '9' || r == ' ' {
				w += 0.58
			} else {
				w += 0.78
			}
		}
		return w * px
	}
	type box struct{ x0, x1, y0, y1 float64 }
	var lanes []box
	var bars []box
	lastLabel := map[float64]float64{} // by y: where the last label ended
	lastMark := map[float64]float64{}
	meanings := map[string]bool{}
	legend := ""
	inLegend := false
	for _, e := range els {
		switch {
		case e.name == "g" && e.attr["class"] == "legend":
			inLegend = true
		case e.name == "g" && e.attr["class"] == "lane":
			inLegend = false
		}
		if inLegend && e.name == "text" {
			legend += e.text + " | "
		}
		for _, a := range []string{"x", "y", "x1", "x2", "y1", "y2"} {
			if v, ok := e.attr[a]; ok {
				f, _ := strconv.ParseFloat(v, 64)
				limit := float64(width)
				if a[0] == 'y' {
					limit = float64(height)
				}
				if f < 0 || f > limit {
					t.Errorf("%s: <%s %s=%s> is outside the %dx%d image", what, e.name, a, v, width, height)
				}
			}
		}
		switch e.attr["class"] {
		case "run":
			x, y, w, h := num(t, e, "x"), num(t, e, "y"), num(t, e, "width"), num(t, e, "height")
			bars = append(bars, box{x, x + w, y, y + h})
			if x+w > float64(width) || y+h > float64(height) {
				t.Errorf("%s: a bar runs out of the image: %v", what, e.attr)
			}
		case "label":
			x, y, size := num(t, e, "x"), num(t, e, "y"), num(t, e, "font-size")
			b := bars[len(bars)-1] // a label follows its bar
			if x < b.x0 || x+width1(e.text, size) > b.x1+1 || y < b.y0 || y > b.y1 {
				t.Errorf("%s: label %q at (%v, %v) is not inside its bar %v", what, e.text, x, y, b)
			}
			if x < lastLabel[b.y0] {
				t.Errorf("%s: label %q at %v runs into the one before, which ends at %v", what, e.text, x, lastLabel[b.y0])
			}
			lastLabel[b.y0] = x + width1(e.text, size)
		case "marker":
			var x, y, w float64
			if e.name == "text" {
				x, y = num(t, e, "x"), num(t, e, "y")
				w = width1(e.text, num(t, e, "font-size"))
			} else {
				var h float64
				if _, err := fmtSscanPath(e.attr["d"], &x, &y, &w, &h); err != nil {
					t.Fatalf("%s: marker path %q: %v", what, e.attr["d"], err)
				}
			}
			if y < svgTop {
				t.Errorf("%s: marker %q at y %v is in the title or the axis", what, e.text, y)
			}
			in := false
			var lane box
			for _, l := range lanes {
				if y >= l.y0 && y <= l.y1+1 {
					in, lane = true, l
				}
			}
			if !in {
				t.Errorf("%s: marker %q at y %v is in no lane", what, e.text, y)
			}
			if x < lastMark[lane.y0] {
				t.Errorf("%s: marker %q at %v overlaps the one before, which ends at %v", what, e.text, x, lastMark[lane.y0])
			}
			lastMark[lane.y0] = x + w
			for _, m := range strings.Split(e.title, "; ") {
				if i := strings.Index(m, " at "); i > 0 {
					meanings[m[:i]] = true
				}
			}
		}
		if e.name == "g" && e.attr["class"] == "lane" {
			lanes = append(lanes, box{})
		}
		// A lane's background is the first rect of its group.
		if len(lanes) > 0 && e.name == "rect" && lanes[len(lanes)-1] == (box{}) && e.attr["class"] == "" && e.attr["fill"] == "#f4f4f4" {
			x, y, w, h := num(t, e, "x"), num(t, e, "y"), num(t, e, "width"), num(t, e, "height")
			lanes[len(lanes)-1] = box{x, x + w, y, y + h}
		}
	}
	for _, m := range []string{"steals from another P", "preempted by sysmon", "enters a system call", "sysmon retakes the P from a syscall", "the ring overflows to the global queue"} {
		if meanings[m] != strings.Contains(legend, m) {
			t.Errorf("%s: markers %v, but the legend (%s) says %q: %v", what, meanings, legend, m, strings.Contains(legend, m))
		}
	}
}

// fmtSscanPath reads a triangle marker's path, "Mx yhWl-a b z".
func fmtSscanPath(d string, x, y, w, h *float64) (int, error) {
	m := regexp.MustCompile(`^M([-\d.]+) ([-\d.]+)h([-\d.]+)l([-\d.]+) ([-\d.]+)z$`).FindStringSubmatch(d)
	if m == nil {
		return 0, strconv.ErrSyntax
	}
	for i, p := range []*float64{x, y, w, h} {
		v, err := strconv.ParseFloat(m[i+1], 64)
		if err != nil {
			return i, err
		}
		*p = v
	}
	return 4, nil
}

// A 64-P run drawn for a 16:9 slide 1280 wide is 1280x720, whole, with
// its markers in their lanes, labels that do not collide and a legend
// of what it shows; so are a few Ps of it chosen with Ps, and the tour.
func TestSVGForSlides(t *testing.T) {
	burst, err := scenarios.Load("burst")
	if err != nil {
		t.Fatal(err)
	}
	cfg := burst.ConfigWith(scenarios.Overrides{Procs: 64})
	all := svgOf(t, burst, cfg, SVGOptions{Width: 1280, Aspect: 16.0 / 9})
	checkSlide(t, "burst on 64 Ps", all, 1280, 720)
	if el := elements(t, all); el[".lane"] != 64 {
		t.Errorf("64 Ps drawn in %d lanes", el[".lane"])
	}
	some := svgOf(t, burst, cfg, SVGOptions{Width: 1280, Aspect: 16.0 / 9, Ps: []int{0, 55, 56, 57, 58, 59, 60, 61, 62, 63}})
	checkSlide(t, "burst's Ps 0 and 55-63", some, 1280, 720)
	var ids []string
	for _, e := range parseSVG(t, some) {
		if e.attr["class"] == "lane" {
			ids = append(ids, e.attr["id"])
		}
	}
	if strings.Join(ids, ",") != "P0,P55,P56,P57,P58,P59,P60,P61,P62,P63" {
		t.Errorf("--ps 0,55-63 drew lanes %v", ids)
	}
	tour, _ := scenarios.Load("tour")
	checkSlide(t, "tour", svgOf(t, tour, tour.Config(), SVGOptions{To: 25 * time.Millisecond}), 1280, 260)
	for _, name := range []string{"steal", "overflow", "syscall-busy", "preempt", "runnext"} {
		sc, _ := scenarios.Load(name)
		checkSlide(t, name, svgOf(t, sc, sc.Config(), SVGOptions{Width: 1280, Aspect: 16.0 / 9}), 1280, 720)
	}
	// A P the run does not have, or too many lanes for the height, is
	// an error, not a picture.
	m, _ := gmp.New(cfg, burst.Program())
	if _, err := NewSVG(io.Discard, "x", m, SVGOptions{To: 1, Ps: []int{64}}); err == nil || !strings.Contains(err.Error(), "P64") {
		t.Errorf("Ps [64] of 64: %v", err)
	}
	if _, err := NewSVG(io.Discard, "x", m, SVGOptions{To: 1, Width: 400, Aspect: 4}); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Errorf("64 lanes at 400x100: %v", err)
	}
}

// runnext's timeline is a golden file; when rsvg-convert is installed
// (.ci/run installs it) a 64-P slide renders to a 1280x720 PNG.
func TestSVGGoldenAndRenders(t *testing.T) {
	got := timelineOf(t, "runnext", 0)
	golden.Check(t, "testdata/runnext.svg", got)
	conv, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert is not installed, so the timeline is not rendered (.ci/run installs it)")
	}
	burst, _ := scenarios.Load("burst")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "slide.svg"), filepath.Join(dir, "slide.png")
	if err := os.WriteFile(in, svgOf(t, burst, burst.ConfigWith(scenarios.Overrides{Procs: 64}), SVGOptions{Width: 1280, Aspect: 16.0 / 9}), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(conv, in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, msg)
	}
	png, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 5000 {
		t.Fatalf("the rendered timeline is not a PNG of substance (%d bytes, %v)", len(png), err)
	}
	// The PNG's header says its size: 1280x720, nothing cropped.
	if w, h := be32(png[16:20]), be32(png[20:24]); w != 1280 || h != 720 {
		t.Errorf("the slide renders at %dx%d, want 1280x720", w, h)
	}
}

func be32(b []byte) int { return int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3]) }
