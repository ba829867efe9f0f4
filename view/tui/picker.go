package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
)

// The picker (o) lists what can be opened: the built-ins, and the
// scenario files beside the one open (or in the working directory when a
// built-in is), each with its title. Typing filters the list; enter opens
// the selection, or what was typed, with the command line's did-you-mean
// when it names nothing.

// pickEntry is one scenario the picker offers.
type pickEntry struct {
	name  string // what open takes: a built-in's name or a file's path
	label string // what the list shows: the name, a file's base name
	title string // its title, or why it does not load
	bad   bool   // the file does not load
	file  bool
}

// picker is the open list.
type picker struct {
	all    []pickEntry
	dir    string // the folder the files are from
	filter string
	sel    int
	top    int
}

// maxPickFiles bounds the files listed: a folder of scenarios, not a
// disk.
const maxPickFiles = 200

// newPicker gathers the built-ins and the files beside source.
func newPicker(source string) *picker {
	p := &picker{}
	if all, err := scenarios.Builtins(); err == nil {
		for _, sc := range all {
			p.all = append(p.all, pickEntry{name: sc.Name, label: sc.Name, title: sc.Title})
		}
	}
	dir := "."
	if strings.ContainsAny(source, `/\`) || strings.HasSuffix(source, ".yaml") || strings.HasSuffix(source, ".yml") {
		dir = filepath.Dir(source)
	}
	p.dir = dir
	var files []string
	for _, pat := range []string{"*.yaml", "*.yml"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	slices.Sort(files)
	for _, f := range files[:min(len(files), maxPickFiles)] {
		if fi, err := os.Lstat(f); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		e := pickEntry{name: f, label: filepath.Base(f), file: true}
		if sc, err := scenarios.Load(f); err != nil {
			// Its position by the file's base name: the folder is said once.
			msg := strings.ReplaceAll(firstLine(err.Error()), f+":", filepath.Base(f)+":")
			e.title, e.bad = "does not load: "+msg, true
		} else {
			e.title = sc.Title
		}
		p.all = append(p.all, e)
	}
	return p
}

// shown are the entries the filter keeps: those whose name starts with
// it, then those whose name holds it, then those whose title does, each
// in the list's order.
func (p *picker) shown() []pickEntry {
	f := strings.ToLower(p.filter)
	var ranked [3][]pickEntry
	for _, e := range p.all {
		name := strings.ToLower(e.label)
		switch {
		case strings.HasPrefix(name, f):
			ranked[0] = append(ranked[0], e)
		case strings.Contains(name, f):
			ranked[1] = append(ranked[1], e)
		case strings.Contains(strings.ToLower(e.title), f):
			ranked[2] = append(ranked[2], e)
		}
	}
	return slices.Concat(ranked[0], ranked[1], ranked[2])
}

func (a *App) startOpen() {
	a.picker = newPicker(a.source())
}

// pickerKey handles a key while the picker is open, and reports whether
// it took it.
func (a *App) pickerKey(ev *tcell.EventKey) bool {
	p := a.picker
	if p == nil {
		return false
	}
	shown := p.shown()
	switch ev.Key() {
	case tcell.KeyEscape:
		a.picker = nil
	case tcell.KeyEnter:
		a.picker = nil
		if len(shown) > 0 {
			a.open(shown[min(p.sel, len(shown)-1)].name)
		} else {
			a.open(p.filter)
		}
	case tcell.KeyDown:
		p.sel = min(p.sel+1, max(len(shown)-1, 0))
	case tcell.KeyUp:
		p.sel = max(p.sel-1, 0)
	case tcell.KeyPgDn:
		p.sel = min(p.sel+10, max(len(shown)-1, 0))
	case tcell.KeyPgUp:
		p.sel = max(p.sel-10, 0)
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if r := []rune(p.filter); len(r) > 0 {
			p.filter, p.sel, p.top = string(r[:len(r)-1]), 0, 0
		}
	case tcell.KeyRune:
		if len(p.filter) < 256 {
			p.filter, p.sel, p.top = p.filter+string(ev.Rune()), 0, 0
		}
	case tcell.KeyCtrlC:
		return false // quits
	}
	return true
}

// pickerFrame is the picker as its panel reads it.
type pickerFrame struct {
	shown  []pickEntry
	dir    string
	filter string
	sel    int
	guess  string // did-you-mean, when nothing is shown
}

func (a *App) pickerFrame() *pickerFrame {
	p := a.picker
	if p == nil {
		return nil
	}
	pf := &pickerFrame{shown: p.shown(), dir: p.dir, filter: p.filter, sel: p.sel}
	if len(pf.shown) == 0 && p.filter != "" {
		if _, err := scenarios.Load(p.filter); err != nil {
			if _, g, ok := strings.Cut(err.Error(), "did you mean "); ok {
				g, _, _ = strings.Cut(g, "?")
				pf.guess = g
			}
		}
	}
	return pf
}

// pickerPanel draws the picker over the screen.
type pickerPanel struct{}

func (pickerPanel) shows(f frame) bool { return f.picker != nil }

func (pickerPanel) draw(c canvas, f frame) {
	t := f.theme
	p := f.picker
	w, h := min(c.w-2, 100), c.h-2
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + 1, w: w, h: h}
	box.frame(" open a scenario · type to filter · ↑ ↓ choose · enter opens · esc ", t)
	col := box.text(2, 1, "open: ", t.Key)
	col = box.text(col, 1, truncate(p.filter, w-col-4), t.Base)
	col = box.text(col, 1, "▁", t.Key)
	box.text(col+2, 1, truncate("built-ins, then the files in "+p.dir, w-col-4), t.Dim)
	rows := h - 4
	if len(p.shown) == 0 {
		msg := "nothing named so here; enter tries it as a file"
		if p.guess != "" {
			msg = "nothing named so; did you mean " + p.guess + "?"
		}
		box.text(2, 3, truncate(msg, w-4), t.Warn)
		return
	}
	// Keep the selection in view.
	top := max(min(p.sel-rows/2, len(p.shown)-rows), 0)
	nameW := 0
	for _, e := range p.shown {
		nameW = max(nameW, width(e.label))
	}
	nameW = min(nameW, w/3)
	for i := 0; i < rows && top+i < len(p.shown); i++ {
		e := p.shown[top+i]
		st, tst := t.Base, t.Dim
		if e.bad {
			tst = t.Warn
		}
		if top+i == p.sel {
			st, tst = t.Current, t.Current
			box.fill(1, w-1, 3+i, ' ', st)
		}
		name := truncate(e.label, nameW)
		col := box.text(2, 3+i, name, st)
		col = max(col, 2+nameW) + 2
		box.text(col, 3+i, truncate(e.title, w-col-2), tst)
	}
	if n := len(p.shown); n > rows {
		box.text(w-24, h-1, fmt.Sprintf(" %d of %d, ↓ for more ", min(top+rows, n), n), t.Title)
	}
}
