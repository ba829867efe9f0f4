package gofront

import (
	"go/types"
	"slices"
	"testing"
)

// Every function and method the stubs declare is in a row of the table,
// so that a call of it is read or refused in the table's words, except
// what only the helpers of a program schedlab real wrote use (their
// bodies are not read).
func TestGoStubsAreInTheTable(t *testing.T) {
	helpersOnly := []string{"runtime/trace", "syscall", "golang.org/x/sys/unix", "math/rand/v2", cputimeImport}
	helperFuncs := []string{"os.Create", "os.NewFile", "(*os.File).Close", "(*os.File).Read", "(*" + poolImport + ".Pool).Running", "(*" + poolImport + ".Pool).Release"}
	for path := range stubSources {
		if slices.Contains(helpersOnly, path) {
			continue
		}
		pkg, err := stubs.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			switch obj := scope.Lookup(n).(type) {
			case *types.Func:
				names = append(names, obj.FullName())
			case *types.TypeName:
				named, ok := obj.Type().(*types.Named)
				if !ok {
					continue
				}
				for m := range named.Methods() {
					names = append(names, m.FullName())
				}
				if it, ok := named.Underlying().(*types.Interface); ok {
					for m := range it.Methods() {
						names = append(names, m.FullName())
					}
				}
			}
		}
		for _, n := range names {
			if byAPI[n] == nil && !slices.Contains(helperFuncs, n) {
				t.Errorf("%s is in the stubs but in no row of the table", n)
			}
		}
	}
}

// Every row that accepts an API has a handler, and every handler a row
// that accepts.
func TestGoHandlersMatchTheTable(t *testing.T) {
	for _, c := range Constructs() {
		_, has := handlers[c.ID]
		switch {
		case c.Status == Accepted && len(c.API) > 0 && !has:
			t.Errorf("row %q accepts %v but has no handler", c.ID, c.API)
		case c.Status != Accepted && has:
			t.Errorf("row %q is %s but has a handler", c.ID, c.Status)
		}
	}
	for id := range handlers {
		if c := lookup(id); len(c.API) == 0 {
			t.Errorf("handler %q has a row with no API", id)
		}
	}
}

// Every stub type-checks.
func TestGoStubsLoad(t *testing.T) {
	for p := range stubSources {
		if _, err := stubs.Import(p); err != nil {
			t.Error(err)
		}
	}
}
