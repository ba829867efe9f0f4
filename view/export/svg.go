package export

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/palette"
)

// The timeline's geometry, in SVG units (pixels at 100%).
const (
	svgLeft       = 70   // the lane labels
	svgRight      = 20   // a margin
	svgTop        = 64   // the title and the time axis
	svgLane       = 44   // one P, at its natural height
	svgMaxLane    = 80   // the tallest a lane grows to fill a --fit
	svgMinLane    = 3    // the thinnest lane drawn
	svgGroupHead  = 24   // the name of a run, when there are two
	svgStrip      = 36   // the global queue
	svgLegendLine = 20   // one line of the legend
	svgLegend     = 72   // the legend: three lines and a margin
	svgTitleFont  = 20   // the title
	svgFont       = 15   // the largest label
	svgQueueCap   = 256  // the global queue's strip tops out here
	DefaultWidth  = 1280 // a slide's width
	svgMinLabelPx = 9    // the smallest font a label is written in
)

// SVGOptions choose what a timeline shows and how big it is.
type SVGOptions struct {
	// From and To are the stretch of the run shown; To must be after
	// From.
	From, To time.Duration
	// Width is the image's width in pixels (0: DefaultWidth).
	Width int
	// Ps are the Ps drawn, in this order (nil: all of them).
	Ps []int
	// Aspect, if not 0, is the image's width over its height (16:9 is
	// 16.0/9): the lanes share the height that leaves.
	Aspect float64
}

// textWidth is an upper bound on the width of s in a sans-serif font of
// size px: no glyph the timelines write is wider than 0.8em, digits and
// most letters are about 0.55em.
func textWidth(s string, px float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r == ' ', r == '.', r == ':':
			w += 0.6
		case r >= 'a' && r <= 'z' && r != 'm' && r != 'w':
			w += 0.6
		default:
			w += 0.82
		}
	}
	return w * px
}

// marker kinds, in the legend's order.
type markKind uint8

const (
	markSteal markKind = iota
	markPreempt
	markSyscall
	markRetake
	markOverflow
	markKinds
)

var markSym = [markKinds]string{"S", "!", "≈", "R", "O"}

// markColor tells the kinds apart where lanes are too thin for their
// symbols and markers are small triangles.
var markColor = [markKinds]string{"#b00000", "#000000", "#1f4fbf", "#7a1fa0", "#b05a00"}

// svgGlyphLane is the thinnest lane whose markers are symbols.
const svgGlyphLane = 16

var markMeaning = [markKinds]string{"steals from another P", "preempted by sysmon", "enters a system call", "sysmon retakes the P from a syscall", "the ring overflows to the global queue"}

// timeline draws lanes of bars, markers and a queue strip for one run or
// two (a model's and a real one), streaming: it keeps only the marker
// waiting on each lane and the last label's end, and learns what the
// legend must explain as it draws.
type timeline struct {
	w        *bufio.Writer
	from, to sim.Time
	width    int
	height   int
	lane     float64 // a lane's height
	rows     int
	groups   []tlGroup
	// Per row: where the last label ended, and the marker still taking
	// others that fall on it.
	labelEnd []float64
	pending  []*pendingMark
	// Fonts and what is labelled, from the lane's height.
	laneFont, barFont, markFont float64
	labelEvery                  int
	// What the legend explains: only what the picture has.
	gs                   map[int]bool // goroutines drawn, up to a few
	manyGs               bool
	syscall              bool
	marks                [markKinds]bool
	merged               bool
	abbreviated, dropped bool
	// The global queue's strip: its length since globalFrom.
	globalLen  int
	globalFrom sim.Time
}

// tlGroup is one run's lanes.
type tlGroup struct {
	name     string
	first, n int     // rows
	top      float64 // y of the group's name, or of its first lane
	strip    bool
}

type pendingMark struct {
	x      float64
	kind   markKind
	n      int
	titles []string
}

// groupSpec says what a group holds: its name and Ps, and whether it has
// a global queue strip.
type groupSpec struct {
	name  string
	ps    int
	strip bool
}

// selectPs returns o.Ps checked against procs, or every P.
func selectPs(o SVGOptions, procs int) ([]int, error) {
	if o.Ps == nil {
		ps := make([]int, procs)
		for i := range ps {
			ps[i] = i
		}
		return ps, nil
	}
	for _, p := range o.Ps {
		if p < 0 || p >= procs {
			return nil, fmt.Errorf("the run has no P%d, only Ps 0 to %d", p, procs-1)
		}
	}
	if len(o.Ps) == 0 {
		return nil, errors.New("no P chosen")
	}
	return o.Ps, nil
}

// newTimeline lays out the groups and writes the head of the image: the
// title, the lanes and the time axis.
func newTimeline(w io.Writer, title string, o SVGOptions, specs []groupSpec) (*timeline, error) {
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.To <= o.From {
		return nil, fmt.Errorf("the timeline's end %v is not after its start %v", o.To, o.From)
	}
	t := &timeline{w: bufio.NewWriter(w), from: sim.Time(o.From), to: sim.Time(o.To), width: o.Width,
		gs: map[int]bool{}, globalFrom: sim.Time(o.From)}
	fixed := svgTop + svgLegend
	for _, g := range specs {
		t.rows += g.ps
		if len(specs) > 1 {
			fixed += svgGroupHead
		}
		if g.strip {
			fixed += svgStrip
		}
	}
	t.lane = svgLane
	t.height = fixed + t.rows*svgLane
	if o.Aspect > 0 {
		t.height = int(math.Round(float64(o.Width) / o.Aspect))
		t.lane = min(float64(t.height-fixed)/float64(t.rows), svgMaxLane)
		if t.lane < svgMinLane {
			return nil, fmt.Errorf("%d lanes do not fit %dx%d: choose fewer Ps (--ps) or a wider image", t.rows, o.Width, t.height)
		}
	}
	// Labels scale with the lane and stop where they would be unreadable:
	// lane names are written on every lane they fit, goroutine numbers
	// only in lanes tall enough for them.
	t.laneFont = min(svgFont, math.Max(t.lane*0.8, svgMinLabelPx+1))
	t.labelEvery = max(1, int(math.Ceil((t.laneFont+2)/t.lane)))
	t.barFont = min(svgFont, t.lane*0.55)
	t.markFont = min(14, math.Max(t.lane*0.8, 8))
	t.labelEnd = make([]float64, t.rows)
	t.pending = make([]*pendingMark, t.rows)

	h := t.height
	fmt.Fprintf(t.w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`+"\n",
		o.Width, h, o.Width, h, svgFont)
	fmt.Fprintf(t.w, `<rect width="%d" height="%d" fill="white"/>`+"\n", o.Width, h)
	span := esc(t.from.String() + " to " + t.to.String())
	room := float64(o.Width-svgLeft-svgRight) - textWidth(t.from.String()+" to "+t.to.String(), svgFont) - 20
	fmt.Fprintf(t.w, `<text class="title" x="%d" y="24" font-size="%d" font-weight="bold">%s<title>%s</title></text>`+"\n",
		svgLeft, svgTitleFont, esc(fitText(title, svgTitleFont, room)), esc(title))
	fmt.Fprintf(t.w, `<text x="%d" y="24" fill="#444" text-anchor="end">%s</text>`+"\n", o.Width-svgRight, span)

	y := float64(svgTop)
	row := 0
	for _, g := range specs {
		gr := tlGroup{name: g.name, first: row, n: g.ps, top: y, strip: g.strip}
		if len(specs) > 1 {
			fmt.Fprintf(t.w, `<text class="group" x="10" y="%.1f" font-weight="bold" fill="#333">%s</text>`+"\n", y+svgGroupHead-7, esc(g.name))
			y += svgGroupHead
		}
		y += float64(g.ps) * t.lane
		if g.strip {
			y += svgStrip
		}
		t.groups = append(t.groups, gr)
		row += g.ps
	}
	t.axis()
	return t, nil
}

// fitText cuts s to fit room pixels in a font of px, ending it with "…".
func fitText(s string, px, room float64) string {
	if textWidth(s, px) <= room {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(string(r)+"…", px) > room {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// laneTop is the y of a group's first lane.
func (t *timeline) laneTop(g *tlGroup) float64 {
	y := g.top
	if len(t.groups) > 1 {
		y += svgGroupHead
	}
	return y
}

// rowY is the top of row r.
func (t *timeline) rowY(r int) float64 {
	for i := range t.groups {
		g := &t.groups[i]
		if r >= g.first && r < g.first+g.n {
			return t.laneTop(g) + float64(r-g.first)*t.lane
		}
	}
	return 0
}

// stripY is the top of group g's strip.
func (t *timeline) stripY(g *tlGroup) float64 {
	return t.laneTop(g) + float64(g.n)*t.lane
}

func (t *timeline) plotW() int { return t.width - svgLeft - svgRight }

func esc(text string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(text))
	return b.String()
}

func (t *timeline) in(at sim.Time) bool       { return at >= t.from && at <= t.to }
func (t *timeline) clip(at sim.Time) sim.Time { return min(max(at, t.from), t.to) }
func (t *timeline) scale(at sim.Time) float64 {
	return svgLeft + float64(t.clip(at)-t.from)/float64(t.to-t.from)*float64(t.plotW())
}

// lanes draws each group's lanes, named (every labelEvery-th lane when
// they are thin), and its strip.
func (t *timeline) lanes(names [][]string) {
	for gi := range t.groups {
		g := &t.groups[gi]
		for i := range g.n {
			r := g.first + i
			y := t.rowY(r)
			fmt.Fprintf(t.w, `<g class="lane" id="%s"><rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#f4f4f4"/>`,
				laneID(gi, names[gi][i]), svgLeft, y, t.plotW(), t.barHeight())
			if i%t.labelEvery == 0 {
				fmt.Fprintf(t.w, `<text x="10" y="%.1f" font-size="%.1f" font-weight="bold">%s</text>`, y+t.barHeight()/2+t.laneFont*0.35, t.laneFont, names[gi][i])
			}
			t.w.WriteString("</g>\n")
		}
		if g.strip {
			gy := t.stripY(g)
			fmt.Fprintf(t.w, `<g class="global"><rect x="%d" y="%.1f" width="%d" height="%d" fill="#f4f4f4"/><text x="10" y="%.1f" font-size="12">global</text></g>`+"\n",
				svgLeft, gy+4, t.plotW(), svgStrip-8, gy+svgStrip/2+4)
		}
	}
}

func laneID(group int, name string) string {
	if group == 0 {
		return name
	}
	return "run" + strconv.Itoa(group) + "-" + name
}

// barHeight is the height of a lane's bars: the lane less a gap.
func (t *timeline) barHeight() float64 {
	return t.lane - math.Max(1, math.Round(t.lane*0.14))
}

// bottom is the y below the last lane or strip.
func (t *timeline) bottom() float64 {
	g := &t.groups[len(t.groups)-1]
	y := t.stripY(g)
	if g.strip {
		y += svgStrip
	}
	return y
}

// axis draws a light line and a label at round times across the lanes,
// no closer than a label's width.
func (t *timeline) axis() {
	span := time.Duration(t.to - t.from)
	step := niceStep(time.Duration(float64(span) * 80 / float64(t.plotW())))
	top, bottom := svgTop-4, t.bottom()
	for at := (time.Duration(t.from) + step - 1) / step * step; at <= time.Duration(t.to); at += step {
		x := t.scale(sim.Time(at))
		fmt.Fprintf(t.w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#ccc"/><text x="%.1f" y="%d" font-size="11" fill="#666" text-anchor="middle">%v</text>`+"\n",
			x, top, x, bottom, x, top-4, at)
	}
}

// niceStep is the round duration (1, 2 or 5 times a power of ten) at or
// above d.
func niceStep(d time.Duration) time.Duration {
	p := time.Duration(1)
	for {
		for _, m := range []time.Duration{1, 2, 5} {
			if m*p >= d {
				return m * p
			}
		}
		p *= 10
	}
}

// bar draws goroutine g's run on row r over [start, end], with its number
// where it fits and does not run into the last one written on the row:
// "G12", else "12", else nothing.
func (t *timeline) bar(r int, g int64, start, end sim.Time, syscall bool) {
	if end < t.from || start > t.to {
		return
	}
	x0, x1 := t.scale(start), t.scale(end)
	w := math.Max(x1-x0, 0.6)
	y := t.rowY(r)
	c := palette.For(int(g)).Hex
	opacity := "1"
	if syscall {
		opacity = "0.35"
		t.syscall = true
	}
	if !t.manyGs {
		t.gs[int(g)] = true
		t.manyGs = len(t.gs) > len(palette.Gs)
	}
	fmt.Fprintf(t.w, `<rect class="run" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="%s"><title>G%d %s–%s</title></rect>`+"\n",
		x0, y, w, t.barHeight(), c, opacity, g, start, end)
	if t.barFont < svgMinLabelPx {
		t.dropped = true
		return
	}
	full := "G" + strconv.FormatInt(g, 10)
	for i, label := range []string{full, full[1:]} {
		lw := textWidth(label, t.barFont)
		if x0+2 >= t.labelEnd[r] && lw+4 <= w {
			fmt.Fprintf(t.w, `<text class="label" x="%.1f" y="%.1f" font-size="%.1f" fill="black">%s</text>`+"\n",
				x0+2, y+t.barHeight()/2+t.barFont*0.35, t.barFont, label)
			t.labelEnd[r] = x0 + 2 + lw
			if i > 0 {
				t.abbreviated = true
			}
			return
		}
	}
	t.dropped = true
}

// mark puts a marker of kind k at the top of row r at time at. Markers
// that would overlap the one before on the row join it: it shows the
// first one's symbol and a "+" (in thin lanes, its triangle), and lists
// them all when pointed at.
func (t *timeline) mark(r int, at sim.Time, k markKind) {
	if !t.in(at) {
		return
	}
	x := t.scale(at)
	title := markMeaning[k] + " at " + at.String()
	t.marks[k] = true
	if p := t.pending[r]; p != nil {
		if x < p.x+t.markWidth(p.kind)+1 {
			p.n++
			if len(p.titles) < 8 {
				p.titles = append(p.titles, title)
			}
			return
		}
		t.flushMark(r)
	}
	t.pending[r] = &pendingMark{x: x, kind: k, n: 1, titles: []string{title}}
}

// glyphs says whether markers are symbols (else triangles).
func (t *timeline) glyphs() bool { return t.lane >= svgGlyphLane }

// markWidth is the room a marker of kind k takes, joined by others: twice
// its width, so that a busy lane's bars still show between its markers.
func (t *timeline) markWidth(k markKind) float64 {
	if t.glyphs() {
		return textWidth(markSym[k]+"+", t.markFont) * 2
	}
	return t.triangle() * 4
}

// triangle is the half-width of a thin lane's marker.
func (t *timeline) triangle() float64 { return math.Max(2, t.lane*0.3) }

func (t *timeline) flushMark(r int) {
	p := t.pending[r]
	if p == nil {
		return
	}
	t.pending[r] = nil
	titles := strings.Join(p.titles, "; ")
	if p.n > 1 {
		t.merged = true
		if p.n > len(p.titles) {
			titles += fmt.Sprintf("; %d in all", p.n)
		}
	}
	y := t.rowY(r)
	if !t.glyphs() {
		// A triangle hanging from the lane's top edge, in the kind's
		// colour: it covers little of the bars under it.
		h := t.triangle()
		fmt.Fprintf(t.w, `<path class="marker" d="M%.1f %.1fh%.1fl%.1f %.1fz" fill="%s"><title>%s</title></path>`+"\n",
			p.x-h, y, 2*h, -h, math.Min(1.4*h, t.barHeight()*0.45), markColor[p.kind], esc(titles))
		return
	}
	sym := markSym[p.kind]
	if p.n > 1 {
		sym += "+"
	}
	x := math.Min(p.x, float64(svgLeft+t.plotW())-textWidth(sym, t.markFont))
	// Inside the lane's top, in dark red with a white edge, so that it
	// reads over any bar and never reaches another lane or the title.
	fmt.Fprintf(t.w, `<text class="marker" x="%.1f" y="%.1f" font-size="%.1f" font-weight="bold" fill="#b00000" stroke="white" stroke-width="%.1f" paint-order="stroke">%s<title>%s</title></text>`+"\n",
		x, y+math.Min(t.markFont*0.85, t.barHeight()), t.markFont, t.markFont/6, esc(sym), esc(titles))
}

// queue draws the global queue's length up to at on group g's strip, and
// notes its new length n.
func (t *timeline) queue(g *tlGroup, at sim.Time, n int) {
	if at > t.globalFrom && t.globalLen > 0 && at >= t.from && t.globalFrom <= t.to {
		// A log scale: one waiting goroutine shows, 256 fill the strip.
		h := float64(svgStrip-10) * math.Log2(math.Min(float64(t.globalLen), svgQueueCap)+1) / math.Log2(svgQueueCap+1)
		x0, x1 := t.scale(t.globalFrom), t.scale(at)
		fmt.Fprintf(t.w, `<rect class="queue" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#555"><title>%d in the global queue</title></rect>`+"\n",
			x0, t.stripY(g)+svgStrip-5-h, math.Max(x1-x0, 0.6), h, t.globalLen)
	}
	t.globalLen, t.globalFrom = n, at
}

// end writes the markers still waiting, the legend and the end of the
// image.
func (t *timeline) end() error {
	for r := range t.rows {
		t.flushMark(r)
	}
	lg := &legend{t: t, x: svgLeft, y: float64(t.height-svgLegend) + 24}
	t.w.WriteString(`<g class="legend">`)
	switch {
	case t.manyGs:
		for _, c := range palette.Gs {
			lg.swatch(c.Hex, "")
		}
		lg.text(fmt.Sprintf("a colour per goroutine, repeating every %d", len(palette.Gs)), "#444")
	default:
		gs := make([]int, 0, len(t.gs))
		for g := range t.gs {
			gs = append(gs, g)
		}
		slices.Sort(gs)
		for _, g := range gs {
			lg.swatch(palette.For(g).Hex, "G"+strconv.Itoa(g))
		}
	}
	if t.syscall {
		lg.text("faint: in a syscall", "#444")
	}
	lg.newline()
	for k := range markKinds {
		if t.marks[k] {
			if t.glyphs() {
				lg.symbol(markSym[k], markMeaning[k])
			} else {
				lg.triangle(markColor[k], markMeaning[k])
			}
		}
	}
	if t.merged {
		if t.glyphs() {
			lg.symbol("+", "more markers at that point (point at it for all)")
		} else {
			lg.text("a triangle may hold several markers (point at it for all)", "#444")
		}
	}
	var notes []string
	switch {
	case t.barFont < svgMinLabelPx && t.dropped:
		notes = append(notes, "lanes too thin for goroutine numbers")
	case t.abbreviated && t.dropped:
		notes = append(notes, "a short run has its number without the G, or none")
	case t.abbreviated:
		notes = append(notes, "a short run has its number without the G")
	case t.dropped:
		notes = append(notes, "a short run has no number")
	}
	if t.labelEvery > 1 {
		notes = append(notes, fmt.Sprintf("every %s P named", ordinal(t.labelEvery)))
	}
	for _, n := range notes {
		lg.text(n, "#444")
	}
	t.w.WriteString("</g>\n</svg>\n")
	return t.w.Flush()
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

// legend lays out the legend's items left to right, wrapping at the
// image's width.
type legend struct {
	t    *timeline
	x, y float64
}

const legendFont = 13

func (l *legend) room(w float64) {
	if l.x > svgLeft && l.x+w > float64(l.t.width-svgRight) {
		l.newline()
	}
}

func (l *legend) newline() {
	if l.x > svgLeft {
		l.x, l.y = svgLeft, l.y+svgLegendLine
	}
}

func (l *legend) swatch(color, label string) {
	w := 14 + textWidth(label, legendFont) + 10
	l.room(w)
	fmt.Fprintf(l.t.w, `<rect x="%.0f" y="%.0f" width="12" height="12" fill="%s"/>`, l.x, l.y-11, color)
	if label != "" {
		fmt.Fprintf(l.t.w, `<text x="%.0f" y="%.0f" font-size="%d">%s</text>`, l.x+15, l.y, legendFont, label)
	}
	l.x += w
}

func (l *legend) text(s, color string) {
	w := textWidth(s, legendFont) + 14
	l.room(w)
	fmt.Fprintf(l.t.w, `<text x="%.0f" y="%.0f" font-size="%d" fill="%s">%s</text>`, l.x, l.y, legendFont, color, esc(s))
	l.x += w
}

func (l *legend) triangle(color, meaning string) {
	w := 14 + textWidth(meaning, legendFont) + 14
	l.room(w)
	fmt.Fprintf(l.t.w, `<path d="M%.0f %.0fh12l-6 9z" fill="%s"/><text x="%.0f" y="%.0f" font-size="%d">%s</text>`, l.x, l.y-10, color, l.x+16, l.y, legendFont, esc(meaning))
	l.x += w
}

func (l *legend) symbol(sym, meaning string) {
	w := textWidth(sym+" "+meaning, legendFont) + 16
	l.room(w)
	fmt.Fprintf(l.t.w, `<text x="%.0f" y="%.0f" font-size="%d"><tspan font-weight="bold" fill="#b00000">%s</tspan> %s</text>`, l.x, l.y, legendFont, esc(sym), esc(meaning))
	l.x += w
}

// SVG writes a run of the model as an SVG timeline for slides: a lane per
// P with a bar per goroutine run in the goroutine's colour (the UI's) and
// its number where it fits, markers for steals, preemptions, syscalls,
// retakes and overflows, the global queue's length as a strip (read from
// the machine after each step), and a legend of what the picture holds.
// It shows [From, To) of the run's time; it streams, keeping only the run
// in progress on each P. Run runs the model into it.
type SVG struct {
	t    *timeline
	m    *gmp.Machine
	rows []int // rows[p] is P p's row, -1 if it is not drawn
	open map[gmp.PID]bar
	g    *tlGroup
	then func() // draws what follows the run, before the legend
}

// bar is a run in progress on a P.
type bar struct {
	g       gmp.GID
	start   sim.Time
	syscall bool
}

// NewSVG starts a timeline of m's run, titled title, on w. The caller
// knows o.To: a first run of the model, which is deterministic, finds
// where a run ends.
func NewSVG(w io.Writer, title string, m *gmp.Machine, o SVGOptions) (*SVG, error) {
	ps, err := selectPs(o, m.Procs())
	if err != nil {
		return nil, err
	}
	t, err := newTimeline(w, title, o, []groupSpec{{name: "model", ps: len(ps), strip: true}})
	if err != nil {
		return nil, err
	}
	return newModelSVG(t, 0, m, ps, [][]string{laneNames(ps)}), nil
}

// newModelSVG draws m's run as group gi of t, on the Ps ps, and the lanes
// of every group, named names.
func newModelSVG(t *timeline, gi int, m *gmp.Machine, ps []int, names [][]string) *SVG {
	s := &SVG{t: t, m: m, rows: make([]int, m.Procs()), open: map[gmp.PID]bar{}, g: &t.groups[gi]}
	for i := range s.rows {
		s.rows[i] = -1
	}
	for i, p := range ps {
		s.rows[p] = s.g.first + i
	}
	t.lanes(names)
	return s
}

// row is P p's row, or -1.
func (s *SVG) row(p gmp.PID) int {
	if p == gmp.NoP || int(p) >= len(s.rows) {
		return -1
	}
	return s.rows[p]
}

// Event adds the run's next event.
func (s *SVG) Event(e gmp.Event) {
	switch e.Kind {
	case gmp.KindGoStart:
		s.start(e.P, bar{g: e.G, start: e.T})
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
		if b, ok := s.open[e.P]; ok && b.g == e.G {
			s.finish(e.P, e.T)
		}
		if e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted {
			s.mark(e.P, e.T, markPreempt)
		}
	case gmp.KindSyscallEnter:
		if e.P != gmp.NoP {
			s.start(e.P, bar{g: e.G, start: e.T, syscall: true})
			s.mark(e.P, e.T, markSyscall)
		}
	case gmp.KindSyscallExit:
		if e.To.Kind == gmp.LocRunning {
			s.start(e.To.P(), bar{g: e.G, start: e.T})
		}
	case gmp.KindProcSteal:
		s.finish(e.P, e.T)
		s.mark(e.P, e.T, markRetake)
	case gmp.KindSteal:
		s.mark(e.P, e.T, markSteal)
	case gmp.KindRunqOverflow:
		s.mark(e.P, e.T, markOverflow)
	}
}

// AfterStep follows the global queue's length, as the machine has it.
func (s *SVG) AfterStep() {
	if n := s.m.Sched().RunqLen(); n != s.t.globalLen {
		s.t.queue(s.g, s.m.Now(), n)
	}
}

func (s *SVG) mark(p gmp.PID, at sim.Time, k markKind) {
	if r := s.row(p); r >= 0 {
		s.t.mark(r, at, k)
	}
}

func (s *SVG) start(p gmp.PID, b bar) {
	if p == gmp.NoP {
		return
	}
	s.finish(p, b.start)
	s.open[p] = b
}

// finish draws the run in progress on p, ending at t.
func (s *SVG) finish(p gmp.PID, at sim.Time) {
	b, ok := s.open[p]
	if !ok {
		return
	}
	delete(s.open, p)
	if r := s.row(p); r >= 0 {
		s.t.bar(r, int64(b.g), b.start, at, b.syscall)
	}
}

// End draws what is still in progress at the run's end, and the legend.
func (s *SVG) End(m *gmp.Machine) error {
	s.finishAll(m)
	if s.then != nil {
		s.then()
	}
	return s.t.end()
}

func (s *SVG) finishAll(m *gmp.Machine) {
	end := m.Now()
	for p := range gmp.PID(m.Procs()) {
		s.finish(p, end)
	}
	s.t.queue(s.g, end, 0)
}
