package tui

import (
	"reflect"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
)

func TestToASCIIKeepsColumns(t *testing.T) {
	for in, want := range map[string]string{
		"P0 │ G1 → M3 · 17µs…": "P0 | G1 > M3 . 17us~",
		"plain":                "plain",
		"漢x":                   "??x",
		"é":                    "?",
	} {
		got := toASCII(in)
		if got != want {
			t.Errorf("toASCII(%q) = %q, want %q", in, got, want)
		}
		if width(got) != width(in) {
			t.Errorf("toASCII(%q) takes %d columns, the original %d", in, width(got), width(in))
		}
	}
}

// asciiOnly fails if a drawn screen holds a character outside ASCII.
func asciiOnly(t *testing.T, what, screen string) {
	t.Helper()
	for _, r := range screen {
		if r >= 0x80 {
			t.Errorf("%s: the ASCII screen holds %q:\n%s", what, r, screen)
			return
		}
	}
}

func TestASCIIModeDrawsOnlyASCII(t *testing.T) {
	for _, name := range []string{"tour", "burst", "syscall-busy"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(sc, sc.Config(), Options{ASCII: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []string{"", "lllll", "]]", "?"} {
			keys(a, step)
			for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
				asciiOnly(t, name, draw(t, a, sz[0], sz[1]).text)
			}
		}
	}
	r := newTraceView(t)
	r.theme.ASCII = true
	press(r, tcell.KeyRune, 'l', 30)
	asciiOnly(t, "trace view", draw(t, r, 80, 24).text)
}

// The projector theme never uses the terminal's dim grey, which a
// projector washes out.
func TestProjectorThemeHasNoGrey(t *testing.T) {
	th := NewTheme(Options{Theme: "projector"})
	v := reflect.ValueOf(*th)
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		st, ok := v.Field(i).Interface().(tcell.Style)
		if !ok {
			continue
		}
		if fg, _, _ := st.Decompose(); fg == tcell.ColorGray {
			t.Errorf("the projector theme draws %s in grey", v.Type().Field(i).Name)
		}
	}
	if colour := NewTheme(Options{}); colour.Dim == th.Dim {
		t.Error("the projector theme's secondary text is the default theme's")
	}
}

func TestUTF8Locale(t *testing.T) {
	for _, c := range []struct {
		all, ctype, lang string
		want             bool
	}{
		{"", "", "en_GB.UTF-8", true},
		{"", "", "C", false},
		{"", "", "", false},
		{"C", "", "en_GB.UTF-8", false},
		{"", "en_US.utf8", "C", true},
		{"", "", "C.UTF-8", true},
	} {
		t.Setenv("LC_ALL", c.all)
		t.Setenv("LC_CTYPE", c.ctype)
		t.Setenv("LANG", c.lang)
		if got := UTF8Locale(); got != c.want {
			t.Errorf("LC_ALL=%q LC_CTYPE=%q LANG=%q: UTF8Locale() = %v", c.all, c.ctype, c.lang, got)
		}
	}
}
