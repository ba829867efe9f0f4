package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

// Golden screens of the presenter's states and the other new ones, at
// the smallest size and a large one: their text, and their styles in each
// theme (dark, light, projector dark and light, mono).
func TestGoldenPresenterScreens(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("TMPDIR", t.TempDir())
	themes := []struct {
		name string
		o    Options
	}{{"default", Options{Theme: "default"}}, {"light", Options{Theme: "light"}}, {"projector", Options{Theme: "projector"}},
		{"projector-light", Options{Theme: "projector", Light: true}}, {"mono", Options{Mono: true}}}
	// The watched file by a relative path, which the screen shows: the
	// test works in a folder of its own, the golden files by full path.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.Mkdir("watched", 0o755); err != nil {
		t.Fatal(err)
	}
	watched := filepath.Join("watched", "w.yaml")
	states := []struct {
		name string
		make func(t *testing.T, o Options) *App
	}{
		{"present-note", func(t *testing.T, o Options) *App {
			o.Session = "class"
			a := newPresenter(t, "tour", o)
			keys(a, "]]")
			return a
		}},
		{"present-blank", func(t *testing.T, o Options) *App {
			a := newPresenter(t, "tour", o)
			keys(a, "b")
			return a
		}},
		{"present-marks", func(t *testing.T, o Options) *App {
			a := newPresenter(t, "tour", o)
			keys(a, "'")
			return a
		}},
		{"picker", func(t *testing.T, o Options) *App {
			a := newPresenter(t, "tour", o)
			a.opts.Present = false
			keys(a, "ost")
			return a
		}},
		{"speaker-notes", func(t *testing.T, o Options) *App {
			p := newPresenter(t, "tour", Options{Session: "golden"})
			keys(p, "]]]")
			o.NotesFor = "golden"
			f := newPresenter(t, "tour", o)
			f.opts.Present = false
			for f.follow(); f.job != nil; {
				f.stepJob()
			}
			f.follow()
			return f
		}},
		{"watch-error", func(t *testing.T, o Options) *App {
			if err := os.WriteFile(watched, []byte("title: watched\nprocs: 1\nmain: [{cpu: 1ms}, gosched]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			reload := func() (*scenarios.Scenario, gmp.Config, error) {
				sc, err := scenarios.Load(watched)
				if err != nil {
					return nil, gmp.Config{}, err
				}
				return sc, sc.Config(), nil
			}
			sc, cfg, err := reload()
			if err != nil {
				t.Fatal(err)
			}
			a, err := New(sc, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			a.Watch(watched, reload)
			key(a, tcell.KeyRight, 0)
			if err := os.WriteFile(watched, []byte("title: watched\nprocs: 1\nmain: [{cpu: 1ms}, gosched, {slep: 1ms}]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			a.checkWatch()
			return a
		}},
	}
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		for _, st := range states {
			for i, th := range themes {
				name := fmt.Sprintf("%s-%dx%d", st.name, sz[0], sz[1])
				t.Run(name+"-"+th.name, func(t *testing.T) {
					got := draw(t, st.make(t, th.o), sz[0], sz[1])
					if i == 0 {
						golden.Check(t, filepath.Join(wd, "testdata", name+".txt"), []byte(got.text))
					}
					golden.Check(t, filepath.Join(wd, "testdata", name+"-"+th.name+".styles"), []byte(got.styles))
				})
			}
		}
	}
}
