package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

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

// split is the split view's two runs: it plays them in lockstep and
// draws them side by side (it is the App's runs in the split view).
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

// pane is one run of the split view, with panels of its own, drawn by
// the same panel code as the full view.
type pane struct {
	label string // the mode or the policy it runs
	sess  *Session
	panels
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
	return newSplitApp(runs, o, func() (*compare.Report, error) {
		return compare.Compare(sc.Name, sc.Title, sc.Program(), cfg, modes[:])
	})
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
	return newSplitApp(runs, o, func() (*compare.Report, error) {
		return compare.ComparePolicies(sc.Name, sc.Title, sc.Program(), cfg, policies[:])
	})
}

// splitRun is what one pane runs.
type splitRun struct {
	label string
	sc    *scenarios.Scenario
	cfg   gmp.Config
}

func newSplitApp(runs [2]splitRun, o Options, measure func() (*compare.Report, error)) (*App, error) {
	sp := &split{compare: measure}
	for i, r := range runs {
		sess, err := NewSession(r.sc, r.cfg)
		if err != nil {
			return nil, err
		}
		sp.panes[i] = &pane{label: r.label, sess: sess}
	}
	// The App's own session is the first run's: the job line counts its
	// events.
	a := &App{sess: sp.panes[0].sess, theme: NewTheme(o), keys: splitBindings(), pace: newPace(), runs: sp, opts: o}
	a.root = newRootView(a)
	// Open at the moment asked for: step in lockstep while the next
	// moment is not past it.
	for o.StartAt > 0 {
		if next, ok := sp.nextAt(); !ok || next > o.StartAt || !sp.forward1() {
			break
		}
	}
	return a, nil
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

func (sp *split) paneRuns() []*Session { return []*Session{sp.panes[0].sess, sp.panes[1].sess} }

// atEnd reports whether both runs are at their last event.
func (sp *split) atEnd() bool { return sp.panes[0].sess.AtEnd() && sp.panes[1].sess.AtEnd() }

// nextAt is the earlier of the two runs' next events.
func (sp *split) nextAt() (sim.Time, bool) {
	t0, ok0 := nextAt(sp.panes[0].sess)
	t1, ok1 := nextAt(sp.panes[1].sess)
	switch {
	case ok0 && ok1:
		return min(t0, t1), true
	case ok0:
		return t0, true
	}
	return t1, ok1
}

// now is the later of the two runs' moments.
func (sp *split) now() sim.Time {
	return max(sp.panes[0].sess.State().Now(), sp.panes[1].sess.State().Now())
}

func (sp *split) forward(n int) int {
	for i := range n {
		if !sp.forward1() {
			return i
		}
	}
	return n
}

// runOn grows both runs by a slice of steps, then steps the two in
// lockstep as far as the events they have reached allow.
func (sp *split) runOn() bool {
	for _, p := range sp.panes {
		s := p.sess
		s.reach(s.Known()+jobSlice, stepSlice)
	}
	for range jobSlice {
		if !sp.known() || !sp.forward1() {
			break
		}
	}
	return sp.atEnd()
}

// known reports whether each run's next event is known, or its run has
// ended: forward1 then needs no more of the model.
func (sp *split) known() bool {
	for _, p := range sp.panes {
		s := p.sess
		if s.Cursor()+2 >= s.Known() && !s.Finished() {
			return false
		}
	}
	return true
}

func (sp *split) step() string {
	if !sp.forward1() {
		return sp.endMessage()
	}
	return ""
}

func (sp *split) back() string {
	if !sp.back1() {
		return "both runs are at their first event"
	}
	return ""
}

func (sp *split) endMessage() string { return "both runs have ended" }

// dismiss closes the comparison shown at the end.
func (sp *split) dismiss() bool {
	if sp.atEnd() && !sp.tableClosed {
		sp.tableClosed = true
		return true
	}
	return false
}

// other is the full view of the scenario.
func (sp *split) other(source string) (*Switch, string) {
	return &Switch{Scenario: source}, ""
}

// mouse does nothing: the split view has no panels to scroll or names to
// find.
func (sp *split) mouse(tview.MouseAction, *tcell.EventMouse) bool { return false }

// forward1 moves the split view one moment on: the run whose next event
// comes first steps, or both if they tie. It reports whether either could.
func (sp *split) forward1() bool {
	t0, ok0 := nextAt(sp.panes[0].sess)
	t1, ok1 := nextAt(sp.panes[1].sess)
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
			p.sess.Forward(1)
		}
	}
	sp.moves = append(sp.moves, move)
	return true
}

// back1 undoes the last step forward. It reports whether there was one.
func (sp *split) back1() bool {
	n := len(sp.moves)
	if n == 0 {
		return false
	}
	move := sp.moves[n-1]
	sp.moves = sp.moves[:n-1]
	for i, p := range sp.panes {
		if move&(1<<i) != 0 {
			p.sess.Back(1)
		}
	}
	return true
}

// restart takes both runs back to their first event.
func (sp *split) restart() {
	for _, p := range sp.panes {
		p.sess.Seek(0)
	}
	sp.moves = sp.moves[:0]
	sp.tableClosed = false
}

// show draws the split view: a header, the two panes, the status, and
// over them the comparison at the end and the help.
func (sp *split) show(c canvas, base frame) {
	base.view = splitView
	t := base.theme
	s0 := sp.panes[0].sess
	sc := s0.Scenario()
	now := sp.now()
	play := "paused " + base.pace.String()
	if base.playing {
		play = "▶ " + base.pace.String()
	}
	left := fmt.Sprintf(" %s — %s vs %s", sc.Name, sp.panes[0].label, sp.panes[1].label)
	right := fmt.Sprintf("seed %d · t=%v · %s ", s0.Config().Seed, now, play)
	c.fill(0, c.w, 0, ' ', t.Focus)
	c.text(0, 0, truncate(left, max(c.w-width(right)-1, 10)), t.Focus)
	c.text(c.w-width(right), 0, right, t.Focus)
	w := (c.w - 1) / 2
	sp.panes[0].show(canvas{scr: c.scr, x: c.x, y: c.y + 1, w: w, h: c.h - 2}, base)
	for row := 1; row < c.h-1; row++ {
		c.text(w, row, "│", t.Dim)
	}
	sp.panes[1].show(canvas{scr: c.scr, x: c.x + w + 1, y: c.y + 1, w: c.w - w - 1, h: c.h - 2}, base)
	statusPanel{}.draw(c.sub(c.h-1, 1), base)
	if sp.atEnd() && !sp.tableClosed {
		base.table = sp.comparison()
	}
	drawOverlays(c, base, nil)
}

// comparison is compare's table of the two runs, measured once.
func (sp *split) comparison() []string {
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
	return sp.table
}

// compareTable shows, once both runs have ended, compare's table of the
// two: what schedlab compare prints for them.
type compareTable struct{}

func (compareTable) shows(f frame) bool { return len(f.table) > 0 }

func (compareTable) draw(c canvas, f frame) {
	w, h := min(c.w-2, 100), min(len(f.table)+3, c.h-2)
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + (c.h-h)/2, w: w, h: h}
	box.frame(" both runs have ended: schedlab compare's figures · esc closes ", f.theme)
	for i, line := range f.table {
		if i+1 >= h-1 {
			break
		}
		box.text(2, i+1, truncate(line, w-4), f.theme.Base)
	}
}

// show draws one run in c: the layout list's rows of a split pane.
func (p *pane) show(c canvas, base frame) {
	f := base.withRun(p.sess)
	f.label = p.label
	f.w, f.h, f.wide = c.w, c.h, c.w >= wideWidth
	drawRows(c, f, &p.panels)
}

// paneTitle writes a pane's title: what it runs, the moment, the event,
// and its goroutines.
type paneTitle struct{}

func (paneTitle) rows(frame, int) int { return 1 }

func (paneTitle) draw(c canvas, f frame) {
	t := f.theme
	st := f.state
	title := fmt.Sprintf(" %s ", f.label)
	col := c.text(0, 0, title, t.Title.Reverse(true))
	sum := fmt.Sprintf(" t=%v · event %d · %d Gs alive, %d made", st.Now(), f.cursor+1, st.Live(), st.NumG()-1)
	if f.atEnd {
		sum += " · ended: " + st.End().Reason.String()
	}
	c.text(col, 0, truncate(sum, c.w-col), t.Dim)
}
