package export

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/palette"
)

// The timeline's geometry, in SVG units (pixels at 100%): sized to be
// read on a projected slide.
const (
	svgLeft     = 70  // the lane labels
	svgRight    = 20  // a margin
	svgTop      = 64  // the title and the time axis
	svgLane     = 44  // one P
	svgStrip    = 36  // the global queue
	svgLegend   = 70  // the legend
	svgFont     = 15  // labels
	svgMinLabel = 26  // the narrowest run that gets its G's number
	svgQueueCap = 256 // the global queue's strip tops out here
)

// SVG writes a run's timeline as an SVG image for slides: a lane per P
// with a bar per goroutine run in the goroutine's colour (the UI's) and
// its number, markers for steals, preemptions, syscalls and retakes, the
// global queue's length as a strip, and a legend. It shows [from, to) of
// the run's time; it streams, keeping only the run in progress on each P.
type SVG struct {
	w          *bufio.Writer
	from, to   sim.Time
	width      int
	procs      int
	open       map[gmp.PID]bar
	globalLen  int
	globalFrom sim.Time
	// lastMark is where each lane's last marker went, and how high, so
	// that markers at one instant stack instead of overlapping.
	lastMark map[gmp.PID][2]float64
}

// bar is a run in progress on a P.
type bar struct {
	g       gmp.GID
	start   sim.Time
	syscall bool
}

// NewSVG starts a timeline of [from, to] of a run on procs Ps, titled
// title, width pixels wide, on w. The caller knows to: a first run of the
// model, which is deterministic, finds where a run ends.
func NewSVG(w io.Writer, title string, procs int, from, to time.Duration, width int) *SVG {
	s := &SVG{w: bufio.NewWriter(w), from: sim.Time(from), to: sim.Time(to), width: width, procs: procs,
		open: map[gmp.PID]bar{}, globalFrom: sim.Time(from), lastMark: map[gmp.PID][2]float64{}}
	h := s.height()
	fmt.Fprintf(s.w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`+"\n",
		width, h, width, h, svgFont)
	fmt.Fprintf(s.w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, h)
	fmt.Fprintf(s.w, `<text x="%d" y="24" font-size="20" font-weight="bold">%s</text>`+"\n", svgLeft, esc(title))
	fmt.Fprintf(s.w, `<text x="%d" y="24" fill="#444" text-anchor="end">%s to %s</text>`+"\n", width-svgRight, esc(s.from.String()), esc(s.to.String()))
	for p := range procs {
		y := s.laneY(gmp.PID(p))
		fmt.Fprintf(s.w, `<g class="lane" id="P%d"><rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4"/><text x="10" y="%d" font-weight="bold">P%d</text></g>`+"\n",
			p, svgLeft, y, s.plotW(), svgLane-6, y+svgLane/2+4, p)
	}
	s.axis()
	gy := s.stripY()
	fmt.Fprintf(s.w, `<g class="global"><rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4"/><text x="10" y="%d" font-size="12">global</text></g>`+"\n",
		svgLeft, gy, s.plotW(), svgStrip-6, gy+svgStrip/2)
	return s
}

func (s *SVG) height() int {
	return svgTop + s.procs*svgLane + svgStrip + svgLegend
}

func (s *SVG) plotW() int          { return s.width - svgLeft - svgRight }
func (s *SVG) laneY(p gmp.PID) int { return svgTop + int(p)*svgLane }
func (s *SVG) stripY() int         { return svgTop + s.procs*svgLane }
func (s *SVG) in(t sim.Time) bool  { return t >= s.from && t <= s.to }
func esc(text string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(text))
	return b.String()
}
func (s *SVG) clip(t sim.Time) sim.Time { return min(max(t, s.from), s.to) }
func (s *SVG) scale(t sim.Time) float64 {
	span := float64(s.to - s.from)
	if span <= 0 {
		return svgLeft
	}
	return svgLeft + float64(s.clip(t)-s.from)/span*float64(s.plotW())
}

// axis draws a light line and a label at round times across the lanes.
func (s *SVG) axis() {
	span := time.Duration(s.to - s.from)
	if span <= 0 {
		return
	}
	step := niceStep(span / 8)
	top, bottom := svgTop-4, s.stripY()+svgStrip-6
	for t := (time.Duration(s.from) + step - 1) / step * step; t <= time.Duration(s.to); t += step {
		x := s.scale(sim.Time(t))
		fmt.Fprintf(s.w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ccc"/><text x="%.1f" y="%d" font-size="11" fill="#666" text-anchor="middle">%v</text>`+"\n",
			x, top, x, bottom, x, top-4, t)
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

// Event adds the run's next event.
func (s *SVG) Event(e gmp.Event) {
	s.followGlobal(&e)
	switch e.Kind {
	case gmp.KindGoStart:
		s.start(e.P, bar{g: e.G, start: e.T})
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit:
		if b, ok := s.open[e.P]; ok && b.g == e.G {
			s.finish(e.P, e.T)
		}
		if e.Kind == gmp.KindGoStop && e.Reason == gmp.ReasonPreempted {
			s.marker(e.P, e.T, "!", "preempted by sysmon")
		}

	case gmp.KindSyscallEnter:
		if e.P != gmp.NoP {
			s.start(e.P, bar{g: e.G, start: e.T, syscall: true})
			s.marker(e.P, e.T, "≈", "enters a system call")
		}
	case gmp.KindSyscallExit:
		if e.To.Kind == gmp.LocRunning {
			s.start(e.To.P(), bar{g: e.G, start: e.T})
		}
	case gmp.KindProcSteal:
		s.finish(e.P, e.T)
		s.marker(e.P, e.T, "R", "sysmon retakes the P from a syscall")
	case gmp.KindSteal:
		s.marker(e.P, e.T, "S", "steals from another P")
	case gmp.KindRunqOverflow:
		s.marker(e.P, e.T, "O", "the ring overflows to the global queue")
	}
}

// followGlobal keeps the global queue's length from the events that
// change it: those that say its new length, those that put one G there,
// and those that take a batch from it.
func (s *SVG) followGlobal(e *gmp.Event) {
	switch {
	case e.Kind == gmp.KindGoStop && e.Rule != gmp.RuleGoyield || e.Kind == gmp.KindRunqOverflow:
		s.queue(e.T, e.GlobalLen())
	case e.To.Kind == gmp.LocGlobal:
		s.queue(e.T, s.globalLen+1)
	case e.Kind == gmp.KindGoStart && e.From.Kind == gmp.LocGlobal:
		// A batch takes Batch() Gs; any other start from the global
		// queue (Batch() 0) takes one.
		taken := max(e.Batch(), 1)
		s.queue(e.T, max(s.globalLen-taken, 0))
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
func (s *SVG) finish(p gmp.PID, t sim.Time) {
	b, ok := s.open[p]
	if !ok {
		return
	}
	delete(s.open, p)
	if t < s.from || b.start > s.to {
		return
	}
	x0, x1 := s.scale(b.start), s.scale(t)
	w := math.Max(x1-x0, 0.6)
	y := s.laneY(p) + 4
	c := palette.For(int(b.g)).Hex
	opacity := "1"
	if b.syscall {
		opacity = "0.35"
	}
	fmt.Fprintf(s.w, `<rect class="run" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" fill-opacity="%s"><title>%s %s–%s</title></rect>`+"\n",
		x0, y, w, svgLane-14, c, opacity, b.g, b.start, t)
	if w >= svgMinLabel {
		fmt.Fprintf(s.w, `<text x="%.1f" y="%d" fill="black">%s</text>`+"\n", x0+3, y+svgLane/2, b.g)
	}
}

// marker puts a symbol above p's lane at t.
func (s *SVG) marker(p gmp.PID, t sim.Time, sym, meaning string) {
	if p == gmp.NoP || !s.in(t) {
		return
	}
	x, lift := s.scale(t), 0.0
	if last := s.lastMark[p]; math.Abs(x-last[0]) < 10 {
		lift = last[1] + 13
	}
	s.lastMark[p] = [2]float64{x, lift}
	fmt.Fprintf(s.w, `<text class="marker" x="%.1f" y="%.1f" font-weight="bold" fill="#b00000" text-anchor="middle">%s<title>%s at %s</title></text>`+"\n",
		x, float64(s.laneY(p)+2)-lift, esc(sym), esc(meaning), t)
}

// queue draws the global queue's length up to t, and notes its new one.
func (s *SVG) queue(t sim.Time, n int) {
	if t > s.globalFrom && s.globalLen > 0 && t >= s.from && s.globalFrom <= s.to {
		// A log scale: one waiting goroutine shows, 256 fill the strip.
		h := float64(svgStrip-8) * math.Log2(math.Min(float64(s.globalLen), svgQueueCap)+1) / math.Log2(svgQueueCap+1)
		x0, x1 := s.scale(s.globalFrom), s.scale(t)
		fmt.Fprintf(s.w, `<rect class="queue" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#555"><title>%d in the global queue</title></rect>`+"\n",
			x0, float64(s.stripY()+svgStrip-6)-h, math.Max(x1-x0, 0.6), h, s.globalLen)
	}
	s.globalLen, s.globalFrom = n, t
}

// End draws what is still in progress at the run's end, and the legend.
func (s *SVG) End(m *gmp.Machine) error {
	end := m.Now()
	for p := range gmp.PID(s.procs) {
		s.finish(p, end)
	}
	s.queue(end, 0)
	y := s.stripY() + svgStrip + 24
	x := svgLeft
	fmt.Fprintf(s.w, `<g class="legend">`)
	for g := 1; g <= len(palette.Gs); g++ {
		fmt.Fprintf(s.w, `<rect x="%d" y="%d" width="14" height="14" fill="%s"/><text x="%d" y="%d">G%d</text>`,
			x, y-12, palette.For(g).Hex, x+18, y, g)
		x += 58
	}
	x += 10
	fmt.Fprintf(s.w, `<text x="%d" y="%d" fill="#444">colours repeat every %d goroutines · faint: in a syscall</text>`, x, y, len(palette.Gs))
	y += 24
	x = svgLeft
	for _, sym := range []string{"S steals from another P", "! preempted by sysmon", "≈ enters a system call", "R sysmon retakes the P from a syscall", "O the ring overflows to the global queue"} {
		fmt.Fprintf(s.w, `<text x="%d" y="%d"><tspan font-weight="bold" fill="#b00000">%s</tspan>%s</text>`, x, y, esc(sym[:strings.Index(sym, " ")]), esc(sym[strings.Index(sym, " "):]))
		x += 20 + 8*len(sym)
	}
	fmt.Fprintf(s.w, "</g>\n</svg>\n")
	return s.w.Flush()
}
