package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/compare"
	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/core/taskmode"
)

// The split view runs one workload two ways (package compare's modes:
// raw goroutines, the pool, a semaphore, an errgroup) side by side, in
// lockstep: a step forward runs whichever run's next event comes first in
// simulated time (both, if they tie), so the two panes always show the
// same moment. A step back undoes the same way.

// split is the App's state in split mode.
type split struct {
	panes [2]*pane
	// moves records which panes each step forward moved (bit 0, bit 1),
	// so that a step back undoes exactly that step.
	moves []uint8
	// compare measures the two runs as schedlab compare does; its table
	// is shown when both runs have ended (table), until esc.
	compare     func() (*compare.Report, error)
	table       []string
	tableClosed bool
}

// pane is one run of the split view. Its App shares the parent's theme
// and renders the pane with the same panel code as the full view.
type pane struct {
	label string // the mode or the policy it runs
	view  *App
}

// NewSplit returns the split view of sc's workload run as modes[0] and
// modes[1], with cfg. It fails, before any screen is touched, if the
// scenario submits no tasks (there is nothing to compare) or cannot run.
func NewSplit(sc *scenarios.Scenario, cfg gmp.Config, modes [2]taskmode.Mode, o Options) (*App, error) {
	if modes[0] == modes[1] {
		return nil, fmt.Errorf("the split view needs two different modes, not %v twice", modes[0])
	}
	var runs [2]splitRun
	for i, mode := range modes {
		prog, err := compare.Transform(sc.Program(), mode)
		if err != nil {
			return nil, err
		}
		// The pane's scenario is the rewritten one; the notes are about
		// the original run, so they stay out.
		psc := *sc
		psc.Main, psc.Pools, psc.Sems, psc.Chans, psc.Notes = prog.Main, prog.Pools, prog.Sems, prog.Chans, nil
		runs[i] = splitRun{label: mode.String(), sc: &psc, cfg: cfg}
	}
	a, err := newSplitApp(runs, o)
	if err == nil {
		a.split.compare = func() (*compare.Report, error) {
			return compare.Compare(sc.Name, sc.Title, sc.Program(), cfg, modes[:])
		}
	}
	return a, err
}

// NewPolicySplit returns the split view of sc as written, run under two
// what-if policies in lockstep. A pane keeps the scenario's notes only
// under the runtime's own rules, the run they were written about.
func NewPolicySplit(sc *scenarios.Scenario, cfg gmp.Config, policies [2]gmp.Policy, o Options) (*App, error) {
	if policies[0] == policies[1] {
		return nil, fmt.Errorf("the split view needs two different policies, not %v twice", policies[0])
	}
	var runs [2]splitRun
	for i, p := range policies {
		psc := *sc
		if p != (gmp.Policy{}) {
			psc.Notes = nil
		}
		c := cfg
		c.Policy = p
		runs[i] = splitRun{label: p.String(), sc: &psc, cfg: c}
	}
	a, err := newSplitApp(runs, o)
	if err == nil {
		a.split.compare = func() (*compare.Report, error) {
			return compare.ComparePolicies(sc.Name, sc.Title, sc.Program(), cfg, policies[:])
		}
	}
	return a, err
}

// splitRun is what one pane runs.
type splitRun struct {
	label string
	sc    *scenarios.Scenario
	cfg   gmp.Config
}

func newSplitApp(runs [2]splitRun, o Options) (*App, error) {
	theme := NewTheme(o)
	a := &App{theme: theme, keys: splitBindings(), pace: newPace(), split: &split{}, opts: o}
	for i, r := range runs {
		sess, err := NewSession(r.sc, r.cfg)
		if err != nil {
			a.closeSplit()
			return nil, err
		}
		v := &App{sess: sess, theme: theme, keys: a.keys}
		a.split.panes[i] = &pane{label: r.label, view: v}
	}
	a.sess = a.split.panes[0].view.sess
	a.root = newRootView(a)
	return a, nil
}

func (a *App) closeSplit() {
	for _, p := range a.split.panes {
		if p != nil {
		}
	}
}

// splitBindings is the split view's key table: playing and stepping both
// runs together.
func splitBindings() []Binding {
	return []Binding{
		{Keys: []Key{r(' ')}, Label: "space", Help: "play or pause both runs", Bar: "play", Do: (*App).togglePlay},
		{Keys: []Key{k(tcell.KeyRight), r('l')}, Label: "→ l", Help: "next event of either run", Bar: "step", Do: (*App).stepForward},
		{Keys: []Key{k(tcell.KeyLeft), r('h')}, Label: "← h", Help: "undo the last step", Bar: "back", Do: (*App).stepBack},
		{Keys: []Key{r('+'), r('=')}, Label: "+", Help: "play faster", Bar: "speed", Do: (*App).faster},
		{Keys: []Key{r('-')}, Label: "-", Help: "play slower", Do: (*App).slower},
		{Keys: []Key{r('p')}, Label: "p", Help: "pace: events or sim time", Do: (*App).togglePace},
		{Keys: []Key{r('r'), k(tcell.KeyHome)}, Label: "r home", Help: "restart both runs", Bar: "restart", Do: (*App).restart},
		{Keys: []Key{k(tcell.KeyEnd)}, Label: "end", Help: "run both to their ends", Do: (*App).last},
		{Keys: []Key{r('v')}, Label: "v", Help: "back to the full view", Do: (*App).toggleView},
		{Keys: []Key{k(tcell.KeyEscape)}, Label: "esc", Help: "close help", Do: (*App).escape},
		{Keys: []Key{r('?')}, Label: "?", Help: "show or hide this help", Bar: "help", Do: (*App).toggleHelp},
		{Keys: []Key{r('q'), k(tcell.KeyCtrlC)}, Label: "q ctrl-c", Help: "quit", Bar: "quit", Do: (*App).quit},
	}
}

// nextAt is when a session's next event happens, if it has one.
func nextAt(s *Session) (sim.Time, bool) {
	e, ok := s.Peek(s.Cursor() + 1)
	return e.T, ok
}

// forward moves the split view one moment on: the run whose next event
// comes first steps, or both if they tie. It reports whether either could.
func (sp *split) forward() bool {
	t0, ok0 := nextAt(sp.panes[0].view.sess)
	t1, ok1 := nextAt(sp.panes[1].view.sess)
	var move uint8
	switch {
	case ok0 && (!ok1 || t0 < t1):
		move = 1
	case ok1 && (!ok0 || t1 < t0):
		move = 2
	case ok0 && ok1:
		move = 3
	default:
		return false
	}
	for i, p := range sp.panes {
		if move&(1<<i) != 0 {
			p.view.sess.Forward(1)
		}
	}
	sp.moves = append(sp.moves, move)
	return true
}

// back undoes the last step forward. It reports whether there was one.
func (sp *split) back() bool {
	n := len(sp.moves)
	if n == 0 {
		return false
	}
	move := sp.moves[n-1]
	sp.moves = sp.moves[:n-1]
	for i, p := range sp.panes {
		if move&(1<<i) != 0 {
			p.view.sess.Back(1)
		}
	}
	return true
}

// restart takes both runs back to their first event.
func (sp *split) restart() {
	for _, p := range sp.panes {
		p.view.sess.Seek(0)
	}
	sp.moves = sp.moves[:0]
	sp.tableClosed = false
}

// drawSplit draws the split view: a header, the two panes, the status.
func drawSplit(c canvas, a *App) {
	t := a.theme
	sp := a.split
	s0, s1 := sp.panes[0].view.sess, sp.panes[1].view.sess
	sc := s0.Scenario()
	now := max(s0.State().Now(), s1.State().Now())
	play := "paused " + a.pace.String()
	if a.playing {
		play = "▶ " + a.pace.String()
	}
	left := fmt.Sprintf(" %s — %s vs %s", sc.Name, sp.panes[0].label, sp.panes[1].label)
	right := fmt.Sprintf("seed %d · t=%v · %s ", s0.Config().Seed, now, play)
	c.fill(0, c.w, 0, ' ', t.Focus)
	c.text(0, 0, truncate(left, max(c.w-width(right)-1, 10)), t.Focus)
	c.text(c.w-width(right), 0, right, t.Focus)
	w := (c.w - 1) / 2
	body := canvas{scr: c.scr, x: c.x, y: c.y + 1, w: w, h: c.h - 2}
	drawPane(body, sp.panes[0])
	for row := 1; row < c.h-1; row++ {
		c.text(w, row, "│", t.Dim)
	}
	drawPane(canvas{scr: c.scr, x: c.x + w + 1, y: c.y + 1, w: c.w - w - 1, h: c.h - 2}, sp.panes[1])
	statusPanel{}.draw(c.sub(c.h-1, 1), a, layout{})
	if sp.ended() && !sp.tableClosed {
		drawCompareTable(c, a)
	}
	if a.help {
		drawHelp(c, a)
	}
}

// ended reports whether both runs are at their last event.
func (sp *split) ended() bool {
	return sp.panes[0].view.sess.AtEnd() && sp.panes[1].view.sess.AtEnd()
}

// drawCompareTable shows, once both runs have ended, compare's table of
// the two: what schedlab compare prints for them.
func drawCompareTable(c canvas, a *App) {
	sp := a.split
	if sp.table == nil && sp.compare != nil {
		var b strings.Builder
		rep, err := sp.compare()
		if err == nil {
			err = rep.WriteText(&b)
		}
		if err != nil {
			b.WriteString("the comparison failed: " + err.Error())
		}
		sp.table = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	}
	if len(sp.table) == 0 {
		return
	}
	w, h := min(c.w-2, 100), min(len(sp.table)+3, c.h-2)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	box.frame(" both runs have ended: schedlab compare's figures · esc closes ", a.theme)
	for i, line := range sp.table {
		if i+1 >= h-1 {
			break
		}
		box.text(2, i+1, truncate(line, w-4), a.theme.Base)
	}
}

// drawPane draws one run: its figures, its Ps, its pool or semaphore,
// its timeline and its latest events, each as far as room allows.
func drawPane(c canvas, p *pane) {
	a := p.view
	t := a.theme
	s := a.sess
	st := s.State()
	row := 0
	title := fmt.Sprintf(" %s ", p.label)
	col := c.text(0, row, title, t.Title.Reverse(true))
	sum := fmt.Sprintf(" t=%v · event %d · %d Gs alive, %d made", st.Now(), s.Cursor()+1, st.Live(), st.NumG()-1)
	if s.AtEnd() {
		sum += " · ended: " + st.End().Reason.String()
	}
	c.text(col, row, truncate(sum, c.w-col), t.Dim)
	row++
	// The panes share the screen's height: the Ps and the timeline get
	// a row each per P, up to a quarter of it each.
	procs := min(st.Procs(), max((c.h-8)/4, 1))
	shown := procs
	if procs < st.Procs() {
		shown = max(procs-1, 1) // the last row says how many are left out
	}
	for i := range shown {
		a.procs.compactRow(c, a, row, gmp.PID(i))
		row++
	}
	if shown < st.Procs() {
		c.text(0, row, truncate(fmt.Sprintf("… and %d more Ps (the full view shows them all)", st.Procs()-shown), c.w), t.Dim)
		row++
	}
	q := st.Sched()
	gcol := c.text(0, row, "global ", t.Title)
	gcol = c.text(gcol, row, strconv.Itoa(q.RunqLen())+" ", t.Dim)
	gList(c, a, gcol, row, c.w, q.RunqHead(12), q.RunqLen())
	row++
	if pools := poolRows(a); pools > 0 {
		sub := canvas{scr: c.scr, x: c.x, y: c.y + row, w: c.w, h: min(pools, 3)}
		poolsPanel{}.draw(sub, a, layout{})
		row += sub.h
	}
	l := layout{visibleProcs: shown, timelineRows: shown + 1}
	if row+l.timelineRows+3 <= c.h {
		timelinePanel{}.draw(c.sub(row, l.timelineRows), a, l)
		row += l.timelineRows
		if shown < st.Procs() {
			// As under the Ps: the lanes left out are said, not dropped.
			c.text(0, row, truncate(fmt.Sprintf("… and %d more lanes", st.Procs()-shown), c.w), t.Dim)
			row++
		}
	}
	if rows := c.h - row; rows >= 2 {
		a.log.draw(c.sub(row, rows), a, layout{})
	}
}
