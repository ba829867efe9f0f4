package gmp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// The places goroutines park at on a sync object (waitplace.go) say what
// waits there in their own files: the generic wording and queue lookup
// (waitq.go), the place names (describe.go), the park sentence (describe_park.go) and the deadlock
// report (checkdead.go) read the table and name none of them. Put a case
// for one back into those files and this fails naming the file and line.
func TestWaitPlacesHaveNoCasesOutside(t *testing.T) {
	// Each registered place's Loc, and the wait reasons only such a
	// place parks with (ReasonWaitGroup is errgroup.Wait's too).
	banned := map[string]bool{"ReasonMutexLock": true, "ReasonRWMutexRLock": true, "ReasonRWMutexLock": true, "ReasonCondWait": true}
	locs := map[string]LocKind{"LocMutex": LocMutex, "LocRWReader": LocRWReader, "LocRWWriter": LocRWWriter, "LocWaitGroup": LocWaitGroup, "LocObj": LocObj}
	registered := 0
	for k := range waitPlaces {
		if waitPlaces[k] != nil {
			registered++
		}
	}
	if registered != len(locs) {
		t.Fatalf("%d places are registered, this test knows %d: add the new one's Loc to locs", registered, len(locs))
	}
	for name, l := range locs {
		wp := placeOf(l)
		if wp == nil {
			t.Errorf("%s has no waitPlace", name)
		} else if wp.loc == nil || wp.words == nil || wp.reason == nil || wp.queue == nil || wp.state == nil {
			t.Errorf("%s: its waitPlace lacks a name, a reason, a queue or a state", name)
		}
		banned[name] = true
	}
	fset := token.NewFileSet()
	for _, file := range []string{"checkdead.go", "describe.go", "describe_park.go", "waitq.go"} {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && banned[id.Name] {
				t.Errorf("%s names %s: say it in the place's waitPlace (waitplace.go) instead", fset.Position(id.Pos()), id.Name)
			}
			return true
		})
	}
}
