package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// sourcePanels reads the package's source (tests left out) for the types
// that draw from a frame (panelsIn).
func sourcePanels(t *testing.T) (panels map[string]string, takesApp []string) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if files[name], err = parser.ParseFile(fset, name, nil, 0); err != nil {
			t.Fatal(err)
		}
	}
	return panelsIn(files)
}

// panelsIn finds in files, by file name, the types with a method
// draw(canvas, frame), and every function of a panel_*.go file that takes
// the App.
func panelsIn(files map[string]*ast.File) (panels map[string]string, takesApp []string) {
	panels = map[string]string{}
	for name, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if strings.HasPrefix(name, "panel_") && mentionsApp(fn.Type, fn.Recv) {
				takesApp = append(takesApp, name+": "+fn.Name.Name)
			}
			if fn.Recv == nil || fn.Name.Name != "draw" || len(fn.Type.Params.List) != 2 {
				continue
			}
			if typeString(fn.Type.Params.List[0].Type) != "canvas" || typeString(fn.Type.Params.List[1].Type) != "frame" {
				continue
			}
			panels[strings.TrimPrefix(typeString(fn.Recv.List[0].Type), "*")] = name
		}
	}
	sort.Strings(takesApp)
	return panels, takesApp
}

func typeString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + typeString(e.X)
	}
	return ""
}

// mentionsApp reports whether a function's receiver or parameters are the
// App.
func mentionsApp(ft *ast.FuncType, recv *ast.FieldList) bool {
	for _, fl := range []*ast.FieldList{recv, ft.Params} {
		if fl == nil {
			continue
		}
		for _, p := range fl.List {
			if s := typeString(p.Type); s == "*App" || s == "App" {
				return true
			}
		}
	}
	return false
}

// listedPanels are the panel types the layout list and the overlay list
// name, in any view.
func listedPanels() map[string]bool {
	out := map[string]bool{}
	name := func(p any) {
		ty := reflect.TypeOf(p)
		if ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		out[ty.Name()] = true
	}
	ps := &panels{}
	for _, r := range layoutList {
		for v := range numViews {
			if p := r.in(v); p != nil {
				name(p(ps))
			}
		}
	}
	for _, o := range overlayList {
		for v := range numViews {
			if p := o.in(v); p != nil {
				name(p(ps))
			}
		}
	}
	return out
}

// A panel is a type that draws from a frame, and the layout list is the
// only place that puts one on screen: a panel type no row (or overlay)
// names is one nobody sees, so docs/extending.md's recipe has both steps.
// No panel takes the App.
func TestEveryPanelIsInTheLayoutList(t *testing.T) {
	found, takesApp := sourcePanels(t)
	if len(found) < 10 {
		t.Fatalf("found only %d panel types in the source: %v", len(found), found)
	}
	for id, r := range layoutList {
		views := 0
		for v := range numViews {
			if r.in(v) != nil {
				views++
			}
		}
		if r.name == "" || views == 0 {
			t.Errorf("row %d of the layout list has no name or no panel", id)
		}
	}
	listed := listedPanels()
	var missing []string
	for ty, file := range found {
		if !listed[ty] {
			missing = append(missing, ty+" ("+file+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("panel %s draws from a frame but no row of layoutList nor overlayList (layout.go) names it", m)
	}
	for _, f := range takesApp {
		t.Errorf("%s takes the App: a panel draws from a frame", f)
	}
}

// The test above sees a panel type added without its row, and one that
// takes the App.
func TestAPanelOutsideTheListIsFound(t *testing.T) {
	const src = `package tui
type clockPanel struct{}
func (clockPanel) rows(frame, int) int { return 1 }
func (clockPanel) draw(c canvas, f frame) {}
func (p *clockPanel) scroll(a *App, n int) {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "panel_clock.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	found, takesApp := panelsIn(map[string]*ast.File{"panel_clock.go": f})
	if _, ok := found["clockPanel"]; !ok || listedPanels()["clockPanel"] {
		t.Errorf("a panel outside the list was not seen: %v", found)
	}
	if len(takesApp) != 1 {
		t.Errorf("a panel function taking the App was not seen: %v", takesApp)
	}
}

// Each view's rows, as the layout places them, follow one another from
// the top without a gap or an overlap, but for a row at the foot; and
// the fill row takes what the others leave.
func TestLayoutRowsAreCountedOnce(t *testing.T) {
	a := newApp(t, "tour", false)
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		draw(t, a, sz.w, sz.h)
		l := a.drawn
		row := 0
		for id, r := range layoutList {
			if r.in(fullView) == nil {
				continue
			}
			if pl := l.place[id]; pl.row != row {
				t.Errorf("%dx%d: row %s starts at %d, after the rows above it end at %d", sz.w, sz.h, r.name, pl.row, row)
			}
			row += l.place[id].rows
		}
		if row != sz.h {
			t.Errorf("%dx%d: the rows take %d", sz.w, sz.h, row)
		}
	}
}
