package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// headerPanel writes the scenario on the left and where the run is on the
// right.
type headerPanel struct{}

func (headerPanel) rows(frame, int) int { return 1 }

func (headerPanel) draw(c canvas, f frame) {
	t := f.theme
	sc := f.sc
	st := f.state
	left := " " + sc.Name
	if c.w >= wideWidth {
		left = " schedlab · " + sc.Name
	}
	if sc.Title != "" {
		left += " — " + sc.Title
	}
	// Only what depends on the cursor, so that coming back to an event
	// gives back the same screen: not how far the run has got ahead.
	event := "event " + strconv.Itoa(f.cursor+1)
	if f.atEnd {
		event += " (the last)"
	}
	// The pace shows paused too: it is what space will play at.
	play := "paused " + f.pace.String()
	if f.playing {
		play = "▶ " + f.pace.String()
	}
	seed := "seed " + strconv.FormatUint(f.cfg.Seed, 10)
	if f.cfg.Noise {
		seed += " noise"
	}
	right := fmt.Sprintf("%s · t=%v · %s · %s ", seed, st.Now(), event, play)
	// The title is cut to what a right part of the widest usual figures
	// leaves (up to 1s and 9,999 events, the pace's widest), so that it
	// stays put as the time, the event and the pace grow: past those it
	// moves a column, once.
	widest := fmt.Sprintf("%s · t=%s · event %s · paused %s ", seed, widestTime(st.Now()), widestCount(f.cursor+1), widestPace(f.pace))
	score := ""
	if f.score != "" {
		score = f.score + " · "
	}
	if c.w-width(score+widest)-1 < minTitle {
		// A narrow screen: the pace goes (it shows on the status bar as
		// it changes), and the seed, so the title keeps minTitle.
		right = fmt.Sprintf("t=%v · %s ", st.Now(), event)
		widest = fmt.Sprintf("t=%s · event %s ", widestTime(st.Now()), widestCount(f.cursor+1))
	}
	right, widest = score+right, score+widest
	rw := width(right)
	c.fill(0, c.w, 0, ' ', t.Focus)
	c.text(0, 0, truncate(left, max(min(c.w-width(widest), c.w-rw)-1, minTitle)), t.Focus)
	c.text(c.w-rw, 0, right, t.Focus)
}

// minTitle is the fewest columns the header gives the scenario's name.
const minTitle = 12

// widestPace is the widest a pace of p's kind (events or time) is
// written.
func widestPace(p pace) string {
	w := ""
	n := len(eventRates)
	if p.byTime {
		n = len(timeRates)
	}
	for i := range n {
		q := pace{byTime: p.byTime, ev: i, tm: i}
		if s := q.String(); width(s) > width(w) {
			w = s
		}
	}
	return w
}

// widestTime is a time as wide as any under 1s (sim.Time writes
// milliseconds, six decimals), or now's when wider.
func widestTime(now sim.Time) string {
	if s := now.String(); width(s) > width("999.999999ms") {
		return s
	}
	return "999.999999ms"
}

// widestCount is an event number as wide as any under 10,000, or n's
// when wider.
func widestCount(n int) string {
	return strings.Repeat("9", max(len(strconv.Itoa(n)), 4))
}

// procsPanel writes one lane per P: its state, its M, the G it runs with
// how long sysmon has seen the slice, runnext, the ring and schedtick.
type procsPanel struct {
	top int // first P shown when they do not all fit
}

// rows are a title and a row per P shown.
func (p *procsPanel) rows(f frame, _ int) int { return 1 + f.l.shown }

func (p *procsPanel) draw(c canvas, f frame) {
	l := f.l
	st := f.state
	procs := st.Procs()
	detail := "state · M · running G: ran / sysmon has seen its slice · runnext · ring (of 256)"
	if l.shown < procs {
		detail = fmt.Sprintf("P%d–P%d of %d (tab here, then ↓ ↑) · ", p.top, min(p.top+l.shown, procs)-1, procs) + detail
	}
	if l.hide {
		detail = "every P; t or a taller screen shows the timeline · " + detail
	}
	panelTitle(c, f, "Ps", detail, focusProcs)
	for i := range l.shown {
		id := gmp.PID(p.top + i)
		if int(id) >= procs {
			break
		}
		drawProc(c, f, 1+i, id, f.wide)
	}
}

// scroll moves the first P shown. The last page shows the last P on the
// last row, not blank rows under it.
func (p *procsPanel) scroll(f frame, n int) {
	last := f.cfg.Procs - max(f.l.shown, 1)
	p.top = max(min(p.top+n, last), 0)
}

// page is the Ps shown.
func (p *procsPanel) page(f frame) int { return max(f.l.shown, 1) }

// compactProcs writes a split pane's Ps, a row each in few columns, from
// the first, and how many more there are.
type compactProcs struct{}

// rows are a row per P shown and one saying how many are left out.
func (compactProcs) rows(f frame, _ int) int {
	if f.l.shown < f.state.Procs() {
		return f.l.shown + 1
	}
	return f.l.shown
}

func (compactProcs) draw(c canvas, f frame) {
	st := f.state
	for i := range f.l.shown {
		compactRow(c, f, i, gmp.PID(i))
	}
	if f.l.shown < st.Procs() {
		c.text(0, f.l.shown, truncate(fmt.Sprintf("… and %d more Ps (the full view shows them all)", st.Procs()-f.l.shown), c.w), f.theme.Dim)
	}
}

// compactRow is a P in the few columns of a split pane: state, running
// G, runnext, ring.
func compactRow(c canvas, f frame, row int, id gmp.PID) {
	t := f.theme
	st := f.state
	pp := st.P(id)
	col := c.text(0, row, fmt.Sprintf("%-4s", id.String()), t.Title)
	// The full view's state, with the running G in its colour.
	running, style, m := procState(t, st, id)
	if m != nil && m.CurG != gmp.NoG {
		running, style = m.CurG.String(), t.G(int(m.CurG))
		if m.State == gmp.MSyscall {
			running, style = "sys "+m.CurG.String(), t.Syscall
		}
	}
	col = c.text(col, row, fmt.Sprintf("%-8s", running), style)
	next := "-"
	if pp.Runnext != gmp.NoG {
		next = pp.Runnext.String()
	}
	col = c.text(col, row, fmt.Sprintf("next %-7s", next), t.Dim)
	n := pp.RunqLen()
	col = c.text(col, row, fmt.Sprintf("ring %d ", n), t.Dim)
	show := make([]gmp.GID, 0, 8)
	for i := 0; i < n && len(show) < 8; i++ {
		show = append(show, pp.RunqAt(i))
	}
	gList(c, f, col, row, c.w, show, n)
}

// procState says what P id is doing, for the full view's P rows and the
// split view's alike: idle, handed to a waking thread (→M3), running a G
// (run), in a system call with one (sys), or in the scheduler (sched);
// its style; and the M holding it, if any.
func procState(t *Theme, st *gmp.Machine, id gmp.PID) (string, tcell.Style, *gmp.M) {
	p := st.P(id)
	if p.M != gmp.NoM {
		m := st.M(p.M)
		switch m.State {
		case gmp.MRunning:
			return "run", t.Run, m
		case gmp.MSyscall:
			return "sys", t.Syscall, m
		}
		return "sched", t.Spinning, m
	}
	if !p.Idle {
		// Off the idle list without an M: handed to a thread that is
		// waking up, or in the hands of one handing it off.
		for i := range st.NumM() {
			if w := st.M(gmp.MID(i)); w.NextP == id {
				return "→" + w.ID.String(), t.Spinning, nil
			}
		}
		return "handed", t.Spinning, nil
	}
	return "idle", t.Idle, nil
}

func drawProc(c canvas, f frame, row int, id gmp.PID, wide bool) {
	t := f.theme
	st := f.state
	p := st.P(id)
	col := c.text(0, row, fmt.Sprintf("%-4s", id.String()), t.Title)

	state, stStyle, m := procState(t, st, id)
	col = c.text(col, row, fmt.Sprintf("%-7s", state), stStyle)
	mName := "-"
	if m != nil {
		mName = m.ID.String()
	}
	col = c.text(col, row, fmt.Sprintf("%-4s", mName), t.Base)

	// The running G and its slice as sysmon sees it.
	slice := ""
	if m != nil && m.CurG != gmp.NoG {
		g := st.G(m.CurG)
		gst := t.G(int(g.ID))
		if g.ID == f.found {
			gst = t.Found
		}
		col = c.text(col, row, fmt.Sprintf("%-6s", g.ID.String()), gst)
		now := st.Now()
		if m.State == gmp.MSyscall {
			slice = "syscall"
		} else {
			slice = short(now.Sub(g.RunStart))
		}
		if p.Sysmontick.Schedtick == p.Schedtick {
			slice += " / " + short(now.Sub(p.Sysmontick.Schedwhen))
		} else {
			slice += " / –"
		}
	} else {
		switch {
		case m != nil && m.Picked != gmp.NoG:
			slice = "about to run " + m.Picked.String()
		case m != nil && m.Backoff:
			slice = "backing off to steal"
		case m != nil && m.Spinning:
			slice = "spinning"
		}
		col = c.text(col, row, fmt.Sprintf("%-6s", "-"), t.Dim)
	}
	sliceW := 18
	if wide {
		sliceW = 24
	}
	col = c.text(col, row, fmt.Sprintf("%-*s", sliceW, truncate(slice, sliceW-1)), t.Dim)

	// runnext.
	col = c.text(col, row, "next ", t.Dim)
	if p.Runnext != gmp.NoG {
		gst := t.G(int(p.Runnext))
		if p.Runnext == f.found {
			gst = t.Found
		}
		c.text(col, row, p.Runnext.String(), gst)
	} else {
		c.text(col, row, "-", t.Dim)
	}
	col += 5

	// The ring, then schedtick at the right edge.
	tick := "tick " + strconv.Itoa(int(p.Schedtick))
	if wide {
		tick = fmt.Sprintf("free %d · tick %d", len(p.GFree), p.Schedtick)
	}
	n := p.RunqLen()
	ring := fmt.Sprintf("ring %d ", n)
	if col+1+width(ring)+width(tick) > c.w {
		// Too narrow for both (60 to 79 columns): the ring comes first.
		tick = ""
	}
	limit := c.w - width(tick) - 1
	col = c.text(col+1, row, ring, t.Dim)
	show := make([]gmp.GID, 0, 32)
	for i := 0; i < n && len(show) < 32; i++ {
		show = append(show, p.RunqAt(i))
	}
	gList(c, f, col, row, limit, show, n)
	c.text(c.w-width(tick), row, tick, t.Dim)
}
