package tui

import (
	"fmt"
	"github.com/gdamore/tcell/v2"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
)

// headerPanel writes the scenario on the left and where the run is on the
// right.
type headerPanel struct{}

func (headerPanel) draw(c canvas, a *App, _ layout) {
	t := a.theme
	s := a.sess
	sc := s.Scenario()
	st := s.State()
	left := " " + sc.Name
	if c.w >= wideWidth {
		left = " schedlab · " + sc.Name
	}
	if sc.Title != "" {
		left += " — " + sc.Title
	}
	// Only what depends on the cursor, so that coming back to an event
	// gives back the same screen: not how far the run has got ahead.
	event := "event " + strconv.Itoa(s.Cursor()+1)
	if s.AtEnd() {
		event += " (the last)"
	}
	// The pace shows paused too: it is what space will play at.
	play := "paused " + a.pace.String()
	if a.playing {
		play = "▶ " + a.pace.String()
	}
	right := fmt.Sprintf("seed %d · t=%v · %s · %s ", s.Config().Seed, st.Now(), event, play)
	if score := a.scoreLine(); score != "" {
		right = score + " · " + right
	}
	rw := width(right)
	c.fill(0, c.w, 0, ' ', t.Focus)
	c.text(0, 0, truncate(left, max(c.w-rw-1, 10)), t.Focus)
	c.text(c.w-rw, 0, right, t.Focus)
}

// procsPanel writes one lane per P: its state, its M, the G it runs with
// how long sysmon has seen the slice, runnext, the ring and schedtick.
type procsPanel struct {
	top int // first P shown when they do not all fit
}

func (p *procsPanel) draw(c canvas, a *App, l layout) {
	st := a.sess.State()
	procs := st.Procs()
	detail := "state · M · running G: ran / sysmon has seen its slice · runnext · ring (of 256)"
	if l.visibleProcs < procs {
		detail = fmt.Sprintf("P%d–P%d of %d (tab here, then ↓ ↑) · ", p.top, min(p.top+l.visibleProcs, procs)-1, procs) + detail
	}
	if l.timelineHidden {
		detail = "every P; t or a taller screen shows the timeline · " + detail
	}
	panelTitle(c, a, "Ps", detail, focusProcs)
	for i := range l.visibleProcs {
		id := gmp.PID(p.top + i)
		if int(id) >= procs {
			break
		}
		drawProc(c, a, 1+i, id, l.wide)
	}
}

// scroll moves the first P shown. The last page shows the last P on the
// last row, not blank rows under it.
func (p *procsPanel) scroll(a *App, l layout, n int) {
	last := a.sess.Config().Procs - max(l.visibleProcs, 1)
	p.top = max(min(p.top+n, last), 0)
}

// page is the Ps shown.
func (p *procsPanel) page(l layout) int { return max(l.visibleProcs, 1) }

// compactRow is a P in the few columns of a split pane: state, running
// G, runnext, ring.
func (p *procsPanel) compactRow(c canvas, a *App, row int, id gmp.PID) {
	t := a.theme
	st := a.sess.State()
	pp := st.P(id)
	col := c.text(0, row, fmt.Sprintf("%-4s", id.String()), t.Title)
	// The full view's state, with the running G in its colour.
	running, style, m := procState(a, id)
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
	gList(c, a, col, row, c.w, show, n)
}

// procState says what P id is doing, for the full view's P rows and the
// split view's alike: idle, handed to a waking thread (→M3), running a G
// (run), in a system call with one (sys), or in the scheduler (sched);
// its style; and the M holding it, if any.
func procState(a *App, id gmp.PID) (string, tcell.Style, *gmp.M) {
	t := a.theme
	st := a.sess.State()
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

func drawProc(c canvas, a *App, row int, id gmp.PID, wide bool) {
	t := a.theme
	st := a.sess.State()
	p := st.P(id)
	col := c.text(0, row, fmt.Sprintf("%-4s", id.String()), t.Title)

	state, stStyle, m := procState(a, id)
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
		if g.ID == a.found {
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
		if p.Runnext == a.found {
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
	limit := c.w - width(tick) - 1
	n := p.RunqLen()
	col = c.text(col+1, row, fmt.Sprintf("ring %d ", n), t.Dim)
	show := make([]gmp.GID, 0, 32)
	for i := 0; i < n && len(show) < 32; i++ {
		show = append(show, p.RunqAt(i))
	}
	gList(c, a, col, row, limit, show, n)
	c.text(c.w-width(tick), row, tick, t.Dim)
}
