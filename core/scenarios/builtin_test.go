package scenarios

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// builtinFiles lists the names (without .yaml) of the files in builtin/.
func builtinFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("builtin")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".yaml") {
			t.Errorf("builtin/%s is not a .yaml file, so it is not embedded", e.Name())
			continue
		}
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	if len(names) == 0 {
		t.Fatal("no built-in files")
	}
	return names
}

func TestBuiltinFilesParse(t *testing.T) {
	for _, name := range builtinFiles(t) {
		t.Run(name, func(t *testing.T) {
			file := "builtin/" + name + ".yaml"
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Parse(file, data)
			if err != nil {
				t.Fatalf("%v", err)
			}
			if sc.Name != name {
				t.Errorf("name: %q in %s; want the file's name %q", sc.Name, file, name)
			}
			if len(sc.Main) == 0 {
				t.Errorf("main is empty")
			}
		})
	}
}

func TestBuiltinsInOrder(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatalf("Builtins: %v", err)
	}
	var got []string
	for _, sc := range all {
		got = append(got, sc.Name)
	}
	if !slices.Equal(got, Order) {
		t.Errorf("Builtins() names = %v\nwant Order = %v", got, Order)
	}
	if names := BuiltinNames(); !slices.Equal(names, got) {
		t.Errorf("BuiltinNames() = %v, want %v", names, got)
	}

	files := builtinFiles(t)
	for _, n := range Order {
		if !slices.Contains(files, n) {
			t.Errorf("Order names %q but there is no builtin/%s.yaml", n, n)
		}
	}
	for _, n := range files {
		if !slices.Contains(Order, n) {
			t.Errorf("builtin/%s.yaml is not in Order", n)
		}
	}
	seen := map[string]bool{}
	for _, n := range Order {
		if seen[n] {
			t.Errorf("%q is twice in Order", n)
		}
		seen[n] = true
	}
	if !seen[DefaultName] {
		t.Errorf("DefaultName %q is not a built-in", DefaultName)
	}
}

func TestBuiltinsAreDocumented(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatalf("Builtins: %v", err)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			if sc.File != "builtin/"+sc.Name+".yaml" {
				t.Errorf("File = %q", sc.File)
			}
			if strings.TrimSpace(sc.Title) == "" {
				t.Errorf("no title")
			}
			if strings.TrimSpace(sc.Summary) == "" {
				t.Errorf("no summary")
			}
			for _, n := range sc.Notes {
				if n.Text == "" {
					t.Errorf("note at %v has no text", n.Pos)
				}
			}
			if len(sc.Notes) == 0 {
				t.Errorf("no notes")
			}
		})
	}
}

func TestLoad(t *testing.T) {
	t.Run("built-in by name", func(t *testing.T) {
		sc, err := Load("steal")
		if err != nil {
			t.Fatal(err)
		}
		if sc.Name != "steal" || sc.File != "builtin/steal.yaml" || sc.Procs != 2 {
			t.Errorf("Load(steal) = name %q file %q procs %d", sc.Name, sc.File, sc.Procs)
		}
	})

	t.Run("file by path", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mine.yaml")
		if err := os.WriteFile(path, []byte("procs: 3\nmain:\n  - cpu: 1ms\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		sc, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Name != "mine" || sc.File != path || sc.Procs != 3 || len(sc.Main) != 1 {
			t.Errorf("Load(%s) = name %q file %q procs %d main %d ops", path, sc.Name, sc.File, sc.Procs, len(sc.Main))
		}
	})

	t.Run("invalid file reports its path", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bad.yaml")
		if err := os.WriteFile(path, []byte("procs: 1\nmain:\n  - slep: 1ms\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		var e *Error
		if !errors.As(err, &e) || e.Pos.File != path || e.Pos.Line != 3 || e.Pos.Col != 5 {
			t.Errorf("Load(bad file) = %v, want an *Error at %s:3:5", err, path)
		}
	})

	t.Run("missing file", func(t *testing.T) {
		_, err := Load("x.yaml")
		if err == nil {
			t.Fatal("Load(x.yaml) succeeded")
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("error %v does not wrap fs.ErrNotExist", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "x.yaml") || !strings.Contains(msg, "cannot read scenario file") {
			t.Errorf("error %q does not say which file it could not read", msg)
		}
	})

	t.Run("empty argument", func(t *testing.T) {
		if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "no scenario given") {
			t.Errorf("Load(\"\") = %v", err)
		}
	})

	t.Run("unknown name with a suggestion", func(t *testing.T) {
		_, err := Load("steel")
		if err == nil {
			t.Fatal("Load(steel) succeeded")
		}
		msg := err.Error()
		for _, want := range []string{`no built-in scenario or file named "steel"`, "did you mean steal?", "tour, runnext"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not contain %q", msg, want)
			}
		}
	})

	t.Run("unknown name without a suggestion", func(t *testing.T) {
		_, err := Load("zzzzzz")
		if err == nil || strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), "built-ins: tour") {
			t.Errorf("Load(zzzzzz) = %v, want the list of built-ins and no suggestion", err)
		}
	})

	t.Run("swapped letters", func(t *testing.T) {
		_, err := Load("stael")
		if err == nil || !strings.Contains(err.Error(), `"stael"`) || !strings.Contains(err.Error(), "did you mean steal?") {
			t.Errorf("Load(stael) = %v, want a suggestion of steal", err)
		}
	})
}

// Each built-in's first note says why the rule it shows exists, not only
// what happens (issue 26: a student found the mechanism of runnext in ten
// minutes, its reason only by detective work).
func TestEveryBuiltinSaysWhyFirst(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		if len(sc.Notes) == 0 {
			t.Errorf("%s has no notes", sc.Name)
			continue
		}
		if !strings.Contains(sc.Notes[0].Text, "Why ") && !strings.Contains(sc.Notes[0].Text, "Why:") {
			t.Errorf("%s's first note does not say why: %q", sc.Name, sc.Notes[0].Text)
		}
	}
}
