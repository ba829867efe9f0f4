package tui

// The layout list: every view of the UI is the same column of rows, top
// to bottom, and a row names the panel it shows in each view (none where
// the view has none). The full view is the whole screen; the split view
// sets two panes side by side, the trace view one pane per run, each
// between a header and a status bar of the view's own. A panel says how
// many rows it takes (its rows method: its height, 0 when it has nothing
// to show); the layout adds them up here and nowhere else, places them,
// and gives the one fill row what the others leave.

// viewKind is which view a frame is drawn in.
type viewKind uint8

const (
	fullView  viewKind = iota // one run of the model, on the whole screen
	splitView                 // a pane of the split view: two runs in lockstep
	traceView                 // a pane of the trace view: a finished run
	numViews
)

// rowID names a row of the layout list.
type rowID uint8

const (
	rowTitle rowID = iota
	rowProcs
	rowQueues
	rowPools
	rowTimeline
	rowEvents
	rowConsole
	rowExplain
	rowNote
	rowStatus
	numRows
)

// layoutList is the column every view is made of. Adding a panel is a
// type and its line here (docs/extending.md).
var layoutList = [numRows]layoutRow{
	rowTitle:    {name: "title", full: row(headerPanel{}), split: row(paneTitle{}), trace: row(traceTitle{})},
	rowProcs:    {name: "Ps", full: procsOf, split: row(compactProcs{}), trace: row(traceProcs{})},
	rowQueues:   {name: "queues", full: row(infoPanel{}), split: row(globalPanel{}), trace: row(traceGoroutines{})},
	rowPools:    {name: "pools", full: row(poolsPanel{}), split: row(panePools{})},
	rowTimeline: {name: "timeline", full: row(timelinePanel{}), split: row(paneTimeline{}), trace: row(traceTimeline{})},
	rowEvents:   {name: "events", full: logOf, split: paneLogOf, trace: row(traceLog{}), fill: true},
	rowConsole:  {name: "output", full: row(consolePanel{})},
	rowExplain:  {name: "explain", full: row(explainPanel{}), trace: row(traceExplain{})},
	rowNote:     {name: "note", full: row(notePanel{}), trace: row(traceNote{}), foot: [numViews]bool{traceView: true}},
	rowStatus:   {name: "status", full: row(statusPanel{})},
}

// overlayList is drawn over a view's rows, in this order, each while it
// is open.
var overlayList = []overlayRow{
	{name: "note, large", full: over(noteBox{})},
	{name: "speaker notes", full: over(speakerNotes{})},
	{name: "question", full: func(p *panels) overlayPanel { return &p.quizBox }},
	{name: "goroutines", full: func(p *panels) overlayPanel { return &p.glist }},
	{name: "glossary", full: func(p *panels) overlayPanel { return &p.gloss }},
	{name: "source", full: func(p *panels) overlayPanel { return &p.listing }},
	{name: "scenario picker", full: over(pickerPanel{})},
	{name: "comparison", split: over(compareTable{})},
	{name: "keys", full: over(helpPanel{}), split: over(helpPanel{})},
	{name: "join the class", full: over(joinPanel{}), split: over(joinPanel{})},
}

// procRules say how many Ps a view's rows show (each P takes a row in
// the Ps panel and one in the timeline), in a pane of h rows; fixed is
// what the rows take with no P shown. The full view may give the
// timeline's rows to the Ps (hide).
var procRules = [numViews]func(f frame, h, fixed int) (shown int, hide bool){
	fullView: shareProcs,
	// The panes share the screen's height: the Ps and the timeline get
	// a row each per P, up to a quarter of it each; the last row of the
	// Ps then says how many are left out.
	splitView: func(f frame, h, _ int) (int, bool) {
		procs := f.state.Procs()
		shown := min(procs, max((h-8)/4, 1))
		if shown < procs {
			shown = max(shown-1, 1)
		}
		return shown, false
	},
	traceView: func(f frame, h, _ int) (int, bool) {
		return min(len(f.trace.st.Procs), max((h-8)/3, 1)), false
	},
}

// shareProcs is the full view's rule: the Ps share what the other rows
// leave, but leave the events a title and three lines.
func shareProcs(f frame, h, fixed int) (int, bool) {
	const logMin = 4 // title and three events
	fixed += logMin
	procs := f.cfg.Procs
	shown := max(min(procs, (h-fixed)/2), 1)
	if f.wide && h >= tallHeight && procs > (h-fixed-4)/2 {
		// Many Ps: leave the log at least a third of a tall screen.
		shown = max(min(shown, (h-fixed-h/3)/2), 1)
	}
	// When every P fits only without the timeline (8 Ps at 80×24), the
	// Ps come first: the timeline gives its rows up, and the Ps title
	// says where it went.
	if compact := h - fixed + 1; !f.keepTimeline && h < tallHeight && shown < procs && compact >= procs {
		return procs, true
	}
	return shown, false
}

// alwaysShown is how many Ps the full view keeps on screen whatever else
// is there, down to 80×24 (minHeight): a class follows every P of a small
// machine.
const alwaysShown = 8

// makeRoom are the rows that give rows up so that the Ps fit, first to
// last, each down to its least (a shrinker): the log keeps its title and
// the current event, the pools and the queues their first rows, the
// sentence and the note their first line, cut short. The timeline has
// given its rows already (shareProcs).
var makeRoom = []rowID{rowEvents, rowPools, rowQueues, rowExplain, rowNote}

// shrinker is a row panel that can make do with fewer rows than it
// wants: least is how few, of want.
type shrinker interface {
	least(f frame, want int) int
}

// leastLog is the log's fewest rows: its title and the current event.
const leastLog = 2

// layoutRow is one row of the layout list: its panel in the full view, in
// a split pane and in a trace pane, nil where the view has none.
type layoutRow struct {
	name               string
	full, split, trace pick[rowPanel]
	// fill takes the rows the others leave (only one row does).
	fill bool
	// foot puts the row at the foot of the pane, whatever is above it.
	foot [numViews]bool
}

// in is the row's panel in view v.
func (r layoutRow) in(v viewKind) pick[rowPanel] {
	return [numViews]pick[rowPanel]{r.full, r.split, r.trace}[v]
}

// overlayRow is one entry of the overlay list.
type overlayRow struct {
	name               string
	full, split, trace pick[overlayPanel]
}

func (o overlayRow) in(v viewKind) pick[overlayPanel] {
	return [numViews]pick[overlayPanel]{o.full, o.split, o.trace}[v]
}

// pick finds a row's panel among a view's panels: a panel that keeps
// state is the view's own (each split pane scrolls apart); one that keeps
// none is the same everywhere (row, over).
type pick[P any] func(*panels) P

func row(p rowPanel) pick[rowPanel] { return func(*panels) rowPanel { return p } }

func over(p overlayPanel) pick[overlayPanel] { return func(*panels) overlayPanel { return p } }

var (
	procsOf   pick[rowPanel] = func(p *panels) rowPanel { return &p.procs }
	logOf     pick[rowPanel] = func(p *panels) rowPanel { return &p.log }
	paneLogOf pick[rowPanel] = func(p *panels) rowPanel { return paneLog{&p.log} }
)

// layout is where a view's rows went, in a pane w×h.
type layout struct {
	w, h  int
	shown int  // Ps shown
	hide  bool // the timeline gave its rows to the Ps
	place [numRows]placement
	// caps are the rows a row gave up for the Ps: it gets at most
	// cap[id] (0: as many as it wants).
	caps [numRows]int
}

// placement is the rows of the pane a panel is drawn in.
type placement struct{ row, rows int }

// rowsOf is how many rows row id was given.
func (l layout) rowsOf(id rowID) int { return l.place[id].rows }

// arrange lays out f's view in a pane of w×h with ps's panels: the Ps
// shown, then each row's rows, top to bottom, the fill row's last.
func arrange(f frame, ps *panels, w, h int) layout {
	v := f.view
	l := layout{w: w, h: h}
	fixed := 0
	var wants [numRows]int
	for id, r := range layoutList {
		if p := r.in(v); p != nil && !r.fill {
			wants[id] = p(ps).rows(f, h)
			fixed += wants[id]
		}
	}
	l.shown, l.hide = procRules[v](f, h, fixed)
	if v == fullView {
		makeRoomForPs(f, ps, h, fixed, wants, &l)
	}
	f.l = l
	fill := numRows
	at := 0
	for id, r := range layoutList {
		p := r.in(v)
		if p == nil {
			continue
		}
		if r.fill {
			fill = rowID(id)
			break
		}
		n := l.capped(rowID(id), p(ps).rows(f, h-at))
		l.place[id] = placement{at, n}
		at += n
	}
	if fill == numRows {
		return l
	}
	// The rows under the fill row are sized first: it gets the rest.
	under := 0
	for id := fill + 1; id < numRows; id++ {
		if p := layoutList[id].in(v); p != nil {
			l.place[id].rows = l.capped(id, p(ps).rows(f, 0))
			under += l.place[id].rows
		}
	}
	n := layoutList[fill].in(v)(ps).rows(f, h-at-under)
	l.place[fill] = placement{at, n}
	at += n
	for id := fill + 1; id < numRows; id++ {
		pl := &l.place[id]
		switch {
		case layoutList[id].in(v) == nil:
		case layoutList[id].foot[v]:
			// At the foot: what does not fit is its top.
			pl.row = h - pl.rows
			if pl.row < 0 {
				pl.row, pl.rows = 0, h
			}
		default:
			pl.row = at
			at += pl.rows
		}
	}
	return l
}

// capped is n rows for row id, or its cap when it gave rows up.
func (l *layout) capped(id rowID, n int) int {
	if c := l.caps[id]; c > 0 {
		return min(n, c)
	}
	return n
}

// makeRoomForPs has the rows of makeRoom give up rows, as few as it
// takes, when the full view's Ps (up to alwaysShown) do not all fit, the
// timeline having given its own (shareProcs): fixed are the rows the
// others want, wants each one's. It sets l's Ps and caps.
func makeRoomForPs(f frame, ps *panels, h, fixed int, wants [numRows]int, l *layout) {
	procs := min(f.cfg.Procs, alwaysShown)
	// Below the smallest screen the layout is made for, the Ps scroll.
	if l.shown >= procs || f.keepTimeline || h >= tallHeight || h < minHeight {
		return
	}
	// shareProcs gives every P a row, the timeline hidden, once
	// h-fixed+1-4 (the log's title and three events) reaches procs.
	short := procs - (h - fixed + 1 - 4)
	for _, id := range makeRoom {
		if short <= 0 {
			break
		}
		give := 0
		if id == rowEvents {
			give = min(short, 4-leastLog)
		} else if sh, ok := layoutList[id].in(fullView)(ps).(shrinker); ok && wants[id] > 0 {
			give = max(min(short, wants[id]-sh.least(f, wants[id])), 0)
			if give > 0 {
				l.caps[id] = wants[id] - give
			}
		}
		short -= give
		fixed -= give
	}
	l.shown, l.hide = shareProcs(f, h, fixed)
}

// drawRows lays out f's view in c and draws its rows, then its overlays
// that are open. It returns the layout.
func drawRows(c canvas, f frame, ps *panels) layout {
	f.l = arrange(f, ps, c.w, c.h)
	for id, r := range layoutList {
		pl := f.l.place[id]
		if p := r.in(f.view); p != nil && pl.rows > 0 {
			p(ps).draw(c.sub(pl.row, pl.rows), f)
		}
	}
	return f.l
}

// drawOverlays draws the overlays of f's view that are open over c.
func drawOverlays(c canvas, f frame, ps *panels) {
	for _, o := range overlayList {
		if p := o.in(f.view); p != nil {
			if op := p(ps); op.shows(f) {
				op.draw(c, f)
			}
		}
	}
}
