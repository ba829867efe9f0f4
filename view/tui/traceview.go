package tui

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/real/recorded"
)

// TraceApp shows finished runs (package real/recorded) step by step: a real
// program's runtime trace (schedlab trace), or a model run beside a real
// run of the same scenario (schedlab tui --vs real), in panes side by
// side, aligned on time. It shows what a trace can show, Ps, threads,
// goroutine states, a timeline and the events, and says what it cannot:
// run queues.
type TraceApp struct {
	title   string
	steps   *recorded.Lockstep
	theme   *Theme
	tv      *tview.Application
	root    *tview.Box
	help    bool
	playing bool
	pace    pace
	play    player
	message string
	keys    []traceBinding
}

// traceBinding is one entry of the trace view's key table, which
// dispatches keys, writes the status bar and lists the help.
type traceBinding struct {
	Keys  []Key
	Label string
	Help  string
	Bar   string
	Do    func(a *TraceApp)
}

func traceBindings() []traceBinding {
	return []traceBinding{
		{Keys: []Key{r(' ')}, Label: "space", Help: "play or pause", Bar: "play", Do: (*TraceApp).togglePlay},
		{Keys: []Key{k(tcell.KeyRight), r('l')}, Label: "→ l", Help: "one event forward", Bar: "step", Do: func(a *TraceApp) { a.move(1) }},
		{Keys: []Key{k(tcell.KeyLeft), r('h')}, Label: "← h", Help: "one event back", Bar: "back", Do: func(a *TraceApp) { a.move(-1) }},
		{Keys: []Key{k(tcell.KeyPgDn)}, Label: "pgdn", Help: "100 events forward", Do: func(a *TraceApp) { a.move(100) }},
		{Keys: []Key{k(tcell.KeyPgUp)}, Label: "pgup", Help: "100 events back", Do: func(a *TraceApp) { a.move(-100) }},
		{Keys: []Key{r('+'), r('=')}, Label: "+", Help: "play faster", Bar: "speed", Do: func(a *TraceApp) { a.pace.faster() }},
		{Keys: []Key{r('-')}, Label: "-", Help: "play slower", Do: func(a *TraceApp) { a.pace.slower() }},
		{Keys: []Key{r('r'), k(tcell.KeyHome)}, Label: "r home", Help: "restart: before the first event", Bar: "restart", Do: func(a *TraceApp) { a.playing = false; a.steps.Home() }},
		{Keys: []Key{k(tcell.KeyEnd)}, Label: "end", Help: "the last event", Do: func(a *TraceApp) { a.playing = false; a.steps.End() }},
		{Keys: []Key{r('?')}, Label: "?", Help: "show or hide this help", Bar: "help", Do: func(a *TraceApp) { a.help = !a.help }},
		{Keys: []Key{k(tcell.KeyEscape)}, Label: "esc", Help: "close the help", Do: func(a *TraceApp) { a.help = false }},
		{Keys: []Key{k(tcell.KeyCtrlZ)}, Label: "ctrl-z", Help: "suspend; fg brings it back", Do: func(a *TraceApp) {
			if a.tv != nil {
				a.playing = false
				a.tv.Suspend(suspendSelf)
			}
		}},
		{Keys: []Key{r('q'), k(tcell.KeyCtrlC)}, Label: "q ctrl-c", Help: "quit", Bar: "quit", Do: func(a *TraceApp) {
			if a.tv != nil {
				a.tv.Stop()
			}
		}},
	}
}

// NewTraceView returns the view of runs, side by side, under title, drawn as
// o says (its theme; Quiz does not apply).
func NewTraceView(title string, o Options, runs ...*recorded.Run) *TraceApp {
	a := &TraceApp{title: title, steps: recorded.NewLockstep(runs...), theme: NewTheme(o), pace: newPace(), keys: traceBindings()}
	a.root = tview.NewBox()
	a.root.SetDrawFunc(func(scr tcell.Screen, x, y, w, h int) (int, int, int, int) {
		a.draw(canvas{scr: a.theme.screen(scr), x: x, y: y, w: w, h: h})
		return x, y, w, h
	})
	return a
}

// Root is the view's root primitive, for drawing it elsewhere (tests).
func (a *TraceApp) Root() tview.Primitive { return a.root }

func (a *TraceApp) move(n int) {
	a.playing = false
	if a.steps.Seek(n) == 0 {
		if n > 0 {
			a.message = "the last event: ← or home to go back"
		} else {
			a.message = "before the first event"
		}
	}
}

func (a *TraceApp) togglePlay() {
	a.playing = !a.playing
	a.play.start(0)
}

// HandleKey dispatches a key through the key table.
func (a *TraceApp) HandleKey(ev *tcell.EventKey) *tcell.EventKey {
	a.message = ""
	for _, b := range a.keys {
		for _, key := range b.Keys {
			if key.Code == ev.Key() && (key.Code != tcell.KeyRune || key.Rune == ev.Rune()) {
				b.Do(a)
				return nil
			}
		}
	}
	if ev.Key() == tcell.KeyRune {
		a.message = fmt.Sprintf("no key %q: press ? for the keys", ev.Rune())
	}
	return nil
}

// Advance moves playback on by the events due in dt at the current speed.
func (a *TraceApp) Advance(dt time.Duration) {
	if !a.playing {
		return
	}
	n := a.play.events(a.pace, dt)
	if n > 0 && a.steps.Seek(n) < n {
		a.playing = false
		a.message = "the last event"
	}
}

// Run shows the view until the user quits; the terminal is restored
// however it ends.
func (a *TraceApp) Run(screen tcell.Screen) error {
	a.tv = tview.NewApplication()
	if screen != nil {
		a.tv.SetScreen(screen)
	}
	a.tv.SetRoot(a.root, true).SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		return a.HandleKey(ev)
	})
	done := make(chan struct{})
	defer close(done)
	sigs := make(chan os.Signal, 1)
	stop := notifyEnding(sigs)
	defer stop()
	var ended os.Signal
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				ended = sig
				a.tv.Stop()
				return
			case <-tick.C:
				// Draw only while playing: an idle screen writes nothing.
				a.tv.QueueUpdate(func() {
					if a.playing {
						a.Advance(tickEvery)
						a.tv.ForceDraw()
					}
				})
			}
		}
	}()
	err := a.tv.Run()
	if err == nil && ended != nil {
		err = fmt.Errorf("stopped by %v", ended)
	}
	return err
}

// draw renders the whole screen.
func (a *TraceApp) draw(c canvas) {
	t := a.theme
	c.clear(t.Base)
	if c.w < leastWidth || c.h < leastHeight {
		for i, line := range wrap(fmt.Sprintf("The terminal is %d×%d; this view needs at least %d×%d.", c.w, c.h, leastWidth, leastHeight), c.w) {
			c.text(0, i, line, t.Warn)
		}
		return
	}
	// The position stays in view however long the title: it goes right.
	k, n := a.steps.Pos()
	pos := fmt.Sprintf("  event %d of %d", k, n)
	c.text(0, 0, truncate(a.title, c.w-width(pos)), t.Title)
	c.text(c.w-width(pos), 0, pos, t.Title)
	runs := a.steps.Runs
	pw := (c.w - (len(runs) - 1)) / len(runs)
	for i := range runs {
		pc := canvas{scr: c.scr, x: c.x + i*(pw+1), y: c.y + 1, w: pw, h: c.h - 2}
		if i > 0 {
			for row := 0; row < c.h-2; row++ {
				c.text(i*(pw+1)-1, row+1, "│", t.Dim)
			}
		}
		a.drawPane(pc, i)
	}
	a.drawStatus(c.sub(c.h-1, 1))
	if a.help {
		a.drawHelp(c)
	}
}

// drawPane draws run i: the layout list's rows of a trace pane, its Ps,
// goroutines, timeline and events.
func (a *TraceApp) drawPane(c canvas, i int) {
	run := a.steps.Runs[i]
	cur := a.steps.Cursor(i)
	st := run.StateAfter(cur)
	tf := &traceFrame{run: run, cur: cur, st: st, moved: a.steps.Moved() == i}
	drawRows(c, frame{view: traceView, theme: a.theme, w: c.w, h: c.h, wide: c.w >= wideWidth, trace: tf}, nil)
}

// traceTitle writes the run's name and its moment.
type traceTitle struct{}

func (traceTitle) rows(frame, int) int { return 1 }

func (traceTitle) draw(c canvas, f frame) {
	t, run, cur, st := f.theme, f.trace.run, f.trace.cur, f.trace.st
	row := 0
	head := run.Label
	if cur >= 0 {
		head += "  " + sim.FormatMillis(st.T)
	}
	style := t.Title
	if f.trace.moved {
		style = t.Focus
	}
	c.text(0, row, truncate(head, c.w), style)
}

// traceProcs writes a row per P, as many as a third of the pane allows,
// and says how many are left out.
type traceProcs struct{}

func (traceProcs) rows(f frame, _ int) int {
	if len(f.trace.st.Procs) > f.l.shown {
		return f.l.shown + 1
	}
	return f.l.shown
}

func (traceProcs) draw(c canvas, f frame) {
	t, st := f.theme, f.trace.st
	row := 0
	maxProcs := f.l.shown
	for p, pr := range st.Procs {
		if p >= maxProcs {
			c.text(0, row, fmt.Sprintf("  … %d more Ps", len(st.Procs)-p), t.Dim)
			break
		}
		col := c.text(0, row, fmt.Sprintf("P%-3d", p), t.Base)
		switch {
		case pr.G >= 0:
			col = c.text(col, row, fmt.Sprintf("M%-5s ", strconv.FormatInt(pr.M, 10)), t.Dim)
			col = c.text(col, row, "G"+strconv.FormatInt(pr.G, 10), t.G(int(pr.G)))
			c.text(col, row, " running for "+sim.FormatMillis(st.T-pr.Since), t.Dim)
		case pr.M >= 0:
			col = c.text(col, row, fmt.Sprintf("M%-5s ", strconv.FormatInt(pr.M, 10)), t.Dim)
			c.text(col, row, "no goroutine", t.Idle)
		default:
			c.text(col, row, "idle", t.Idle)
		}
		row++
	}
}

// traceGoroutines counts the goroutines by state, then lists the
// runnable ones.
type traceGoroutines struct{}

func (traceGoroutines) rows(frame, int) int { return 2 }

func (traceGoroutines) draw(c canvas, f frame) {
	t, st := f.theme, f.trace.st
	row := 0
	counts := []string{}
	for _, s := range []recorded.GState{recorded.GRunning, recorded.GRunnable, recorded.GWaiting, recorded.GSyscall, recorded.GDead} {
		if n := st.Count(s); n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, s))
		}
	}
	if len(counts) == 0 {
		counts = append(counts, "none yet")
	}
	c.text(0, row, truncate("Gs: "+strings.Join(counts, ", "), c.w), t.Base)
	row++
	// As many as one row can hold (each takes at least 3 columns), and
	// one more to know that the row overflows: a trace can have hundreds
	// of thousands.
	if rn := st.First(recorded.GRunnable, c.w/3+1); len(rn) > 0 {
		col := c.text(0, row, "runnable:", t.Dim)
		for _, g := range rn {
			label := " G" + strconv.FormatInt(g, 10)
			if col+width(label) > c.w {
				c.text(col, row, " …", t.Dim)
				break
			}
			col = c.text(col, row, label, t.G(int(g)))
		}
	}
}

// traceLog writes the events up to the current one, in the rows the
// others leave.
type traceLog struct{}

func (traceLog) rows(_ frame, room int) int { return max(room, 0) }

func (traceLog) draw(c canvas, f frame) {
	t, run, cur := f.theme, f.trace.run, f.trace.cur
	row := 0
	logRows := c.h
	from := max(cur-logRows+1, 0)
	for j := from; j <= cur; j++ {
		e := run.Events[j]
		// A narrow pane keeps the time and the sentence, which
		// names the P and says what happened.
		line := fmt.Sprintf("%8s %s", short(e.T), run.Text(j))
		if c.w >= 72 {
			line = fmt.Sprintf("%10s %-4s %-13s %s", sim.FormatMillis(e.T), pid(int64(e.P)), e.Kind, run.Text(j))
		}
		s := t.Base
		if j == cur {
			s = t.Current
		}
		c.text(0, row, truncate(line, c.w), s)
		row++
	}
}

// traceExplain writes the current event in full, on up to two rows, and
// leaves a blank one above the note.
type traceExplain struct{}

func (traceExplain) rows(frame, int) int { return 3 }

func (traceExplain) draw(c canvas, f frame) {
	t, run, cur := f.theme, f.trace.run, f.trace.cur
	row := 0
	explain := []string{"before the first event: → steps forward"}
	if cur >= 0 {
		explain = wrap(run.Text(cur), c.w)
	}
	for j, line := range explain[:min(2, len(explain))] {
		c.text(0, row+j, line, t.Base)
	}
}

// traceNote says what the run cannot show, at the foot of the pane.
type traceNote struct{}

func (traceNote) rows(f frame, _ int) int { return len(wrap(f.trace.run.Note, f.w)) }

func (traceNote) draw(c canvas, f frame) {
	t := f.theme
	note := wrap(f.trace.run.Note, f.w)
	for j, line := range note {
		c.text(0, c.h-len(note)+j, line, t.Dim)
	}
}

// traceTimeline draws a lane per P shown over a window that ends now,
// with a ruler on its last row giving the window's span.
type traceTimeline struct{}

func (traceTimeline) rows(f frame, _ int) int { return f.l.shown + 1 }

func (traceTimeline) draw(c canvas, f frame) {
	run, cur, now, rows := f.trace.run, f.trace.cur, f.trace.st.T, f.l.shown
	t := f.theme
	const label = 5
	cols := c.w - label
	if cols < 10 {
		return
	}
	// The window spans the 80 events up to the cursor, and never shows
	// what comes after it.
	lo, hi := now, now
	if cur >= 0 {
		lo = run.Events[max(cur-80, 0)].T
	}
	span := max(hi-lo, 10*time.Microsecond)
	lo = hi - span
	cell := span / time.Duration(cols)
	if cell <= 0 {
		cell = 1
	}
	for p := range rows {
		c.text(0, p, fmt.Sprintf("P%-3d", p), t.Dim)
		c.fill(label, c.w, p, '·', t.Idle)
		run.Segments(int64(p), lo, hi, func(s recorded.Segment) {
			from := label + int((s.From-lo)/cell)
			to := label + int((s.To-lo)/cell)
			if to <= from {
				to = from + 1
			}
			c.fill(from, to, p, '█', t.G(int(s.G)))
			if name := "G" + strconv.FormatInt(s.G, 10); to-from > width(name) {
				c.text(from, p, name, t.G(int(s.G)).Reverse(true))
			}
		})
	}
	ruler := rows
	c.fill(label, c.w, ruler, '─', t.Dim)
	c.text(label, ruler, " last "+short(span)+" ", t.Dim)
	c.text(c.w-1, ruler, "▲", t.Title)
}

func pid(p int64) string {
	if p < 0 {
		return "-"
	}
	return "P" + strconv.FormatInt(p, 10)
}

func (a *TraceApp) drawStatus(c canvas) {
	t := a.theme
	if a.message != "" {
		c.text(0, 0, truncate(a.message, c.w), t.Warn)
		return
	}
	col := 0
	if a.playing {
		col = c.text(col, 0, "playing ", t.Good)
	}
	for _, b := range a.keys {
		if b.Bar == "" {
			continue
		}
		if col+width(b.Label)+width(b.Bar)+2 > c.w {
			break
		}
		col = c.text(col, 0, b.Label, t.Key)
		col = c.text(col+1, 0, b.Bar, t.Dim) + 2
	}
}

func (a *TraceApp) drawHelp(c canvas) {
	w, h := min(60, c.w-4), min(len(a.keys)+4, c.h-2)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	box.frame("keys", a.theme)
	for i, b := range a.keys {
		if i+2 >= h-1 {
			break
		}
		col := box.text(2, i+2, fmt.Sprintf("%-10s", b.Label), a.theme.Key)
		box.text(col+1, i+2, truncate(b.Help, w-col-3), a.theme.Base)
	}
}
