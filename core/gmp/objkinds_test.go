package gmp

import (
	"strings"
	"testing"
)

// Every registered kind of object (objkinds.go) carries each step of
// docs/extending.md's recipe "Add an action that parks on a declared
// object": its scenario key and noun, its Go type, a wait reason worded
// as Go's goroutine dump words it, a verb with its docs row and its real
// translation, a body or a function for each, sentences for its rules,
// its state for the deadlock report and the panel, and its checker.
// Register a kind and skip a step (leave words or a verb's Go out), and
// this fails naming the kind and the step.
func TestObjKindsAreComplete(t *testing.T) {
	if len(ObjKinds()) == 0 {
		t.Fatal("no kind is registered: the recipe's worked example (cond.go) is gone")
	}
	keys := map[string]bool{}
	for _, k := range ObjKinds() {
		name := k.Noun
		if k.Key == "" || k.Noun == "" || keys[k.Key] {
			t.Errorf("kind %q: its key %q is empty or taken", name, k.Key)
		}
		keys[k.Key] = true
		if pkg, typ, ok := strings.Cut(k.GoType, "."); !ok || pkg == "" || typ == "" {
			t.Errorf("%s: GoType %q is not package.Type (real/prog imports the package)", name, k.GoType)
		}
		if k.Ref != "" && (k.Ref != "mutex" || !strings.Contains(k.GoNew, "%s")) {
			t.Errorf("%s: names a %q, made by %q: the parser reads a mutex, and GoNew formats its identifier", name, k.Ref, k.GoNew)
		}
		if k.Reason == NoReason || k.Reason.String() == "reason?" || !strings.Contains(k.Reason.String(), ".") {
			t.Errorf("%s: wait reason %q is not a name Go's goroutine dump prints (sync.Cond.Wait): give it a Reason in events.go", name, k.Reason)
		}
		if k.state == nil || k.check == nil {
			t.Errorf("%s: no state (the deadlock report's and the panel's words) or no check", name)
		}
		named := 0
		for i, v := range k.Verbs {
			if (v.run == nil) == (v.body == nil) {
				t.Errorf("%s: verb %d (%q) needs exactly one of run and body", name, i, v.Name)
			}
			if v.Name == "" {
				continue
			}
			named++
			if !strings.HasPrefix(v.Doc, "`"+v.Name+": ") {
				t.Errorf("%s: verb %s's docs row %q does not start with `%s: …`", name, v.Name, v.Doc, v.Name)
			}
			if strings.Count(v.Go, "%s") != 1 {
				t.Errorf("%s: verb %s has no real translation (Go %q: a statement on the object's identifier, %%s)", name, v.Name, v.Go)
			}
			for _, a := range Actions() {
				if a.String() == v.Name {
					t.Errorf("%s: verb %s is also an action of the model: a scenario could not tell them apart", name, v.Name)
				}
			}
		}
		if named == 0 {
			t.Errorf("%s: no verb a scenario can write", name)
		}
		if len(k.words) == 0 {
			t.Errorf("%s: no sentences: its rules need words (and rows in ruletable.go)", name)
		}
		for r := range k.words {
			if r.Fn() == "" {
				t.Errorf("%s: rule %d has words but no row in the rule table", name, r)
			}
		}
	}
}
