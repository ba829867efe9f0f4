package tui

import (
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Every theme reads on the background it is made for (issue 26, defect 3:
// the projector theme drew bright yellow and silver, which vanish on a
// light background): every pair of colours a theme draws, text on its
// background, has a contrast ratio of at least 4.5:1, WCAG's figure for
// text. The terminal's own colours are taken as white on black for a
// dark theme and black on white for a light one.
func TestThemesAreReadableOnTheirBackground(t *testing.T) {
	for _, th := range themeTable {
		theme := th.make()
		fg, bg := tcell.ColorWhite, tcell.ColorBlack
		if th.light {
			fg, bg = bg, fg
		}
		if !theme.Mono && theme.Light != th.light {
			t.Errorf("%s: the theme says light %v, the table %v", th.name, theme.Light, th.light)
		}
		for name, st := range themeStyles(theme) {
			f, b := colours(st, fg, bg)
			if r := contrast(f, b); r < 4.5 {
				t.Errorf("%s: %s draws %s on %s, contrast %.2f:1, under 4.5:1", th.name, name, f.CSS(), b.CSS(), r)
			}
		}
	}
}

// The light theme and the projector's light form are what auto and
// projector choose on a light background, and the dark ones on a dark.
func TestThemeFollowsTheBackground(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		o     Options
		light bool
		want  tcell.Style
	}{
		{Options{}, false, colourTheme().Title},
		{Options{Theme: "auto"}, false, colourTheme().Title},
		{Options{Light: true}, true, lightTheme().Title},
		{Options{Theme: "auto", Light: true}, true, lightTheme().Title},
		{Options{Theme: "light"}, true, lightTheme().Title},
		{Options{Theme: "default", Light: true}, false, colourTheme().Title},
		{Options{Theme: "projector"}, false, projectorTheme().Title},
		{Options{Theme: "projector", Light: true}, true, projectorLightTheme().Title},
	} {
		th := NewTheme(c.o)
		if th.Light != c.light || th.Title != c.want {
			t.Errorf("%+v: light %v, title %v; want light %v, title %v", c.o, th.Light, th.Title, c.light, c.want)
		}
	}
}

// themeStyles are the styles a theme draws with, by name: its own, the
// split view's pane title (the title reversed), and each goroutine's
// colour.
func themeStyles(th *Theme) map[string]tcell.Style {
	out := map[string]tcell.Style{}
	v := reflect.ValueOf(*th)
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if st, ok := v.Field(i).Interface().(tcell.Style); ok {
			out[v.Type().Field(i).Name] = st
		}
	}
	out["Title reversed"] = th.Title.Reverse(true)
	for g := range max(len(th.palette), 1) {
		out[fmt.Sprintf("G colour %d", g)] = th.G(g + len(th.palette)) // g%len is g
	}
	return out
}

// colours is the text colour and the background of st, the terminal's
// own (fg, bg) where st leaves them, swapped when st is reversed.
func colours(st tcell.Style, fg, bg tcell.Color) (tcell.Color, tcell.Color) {
	f, b, attr := st.Decompose()
	if f == tcell.ColorDefault {
		f = fg
	}
	if b == tcell.ColorDefault {
		b = bg
	}
	if attr&tcell.AttrReverse != 0 {
		f, b = b, f
	}
	return f, b
}

// contrast is WCAG 2's contrast ratio of two colours: (L1+0.05)/(L2+0.05)
// of their relative luminances, the lighter's over the darker's.
func contrast(a, b tcell.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c tcell.Color) float64 {
	r, g, b := c.RGB()
	lin := func(v int32) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// The formula gives WCAG's known figures.
func TestContrastRatio(t *testing.T) {
	for _, c := range []struct {
		a, b tcell.Color
		want float64
	}{{tcell.ColorWhite, tcell.ColorBlack, 21}, {tcell.ColorBlack, tcell.ColorBlack, 1}, {tcell.ColorGray, tcell.ColorWhite, 3.95}} {
		if got := contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", c.a.CSS(), c.b.CSS(), got, c.want)
		}
	}
}

// The terminal's answer to OSC 11 decides light or dark; an answer that
// is not one, or none at all before DA1's, leaves it unknown.
func TestParseBackground(t *testing.T) {
	for _, c := range []struct {
		in           string
		light, known bool
	}{
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c", true, true},
		{"\x1b]11;rgb:0000/0000/0000\x07\x1b[?1;2c", false, true},
		{"\x1b]11;rgb:fdfd/f6f6/e3e3\x1b\\", true, true}, // solarized light
		{"\x1b]11;rgb:2828/2c2c/3434\x1b\\", false, true},
		{"\x1b]11;rgb:f/f/f\x07", true, true},
		{"\x1b[?62;22c", false, false},                   // DA1 only: no OSC 11
		{"\x1b]11;rgb:ffff/ffff\x07", false, false},      // two components
		{"\x1b]11;rgb:fffff/0/0\x07", false, false},      // five digits
		{"\x1b]11;rgb:gggg/0000/0000\x07", false, false}, // not hex
		{"\x1b]11;rgb:ffff/ffff/ffff", false, false},     // never ended
		{"", false, false},
	} {
		light, known := parseBackground([]byte(c.in))
		if light != c.light || known != c.known {
			t.Errorf("%q: light %v known %v, want %v %v", c.in, light, known, c.light, c.known)
		}
	}
	for _, c := range []struct {
		in           string
		light, known bool
	}{{"15;0", false, true}, {"0;15", true, true}, {"0;default;7", true, true}, {"7;8", false, true}, {"", false, false}, {"0;99", false, false}, {"x", false, false}} {
		if light, known := colorFGBG(c.in); light != c.light || known != c.known {
			t.Errorf("COLORFGBG=%q: light %v known %v, want %v %v", c.in, light, known, c.light, c.known)
		}
	}
}

// query asks the terminal (here a pipe standing for it) and reads its
// answer up to DA1's, so a terminal that answers at once is not waited
// for; the wait is long, as only a broken test would reach it.
func TestQueryBackground(t *testing.T) {
	for _, c := range []struct {
		answer       string
		light, known bool
	}{
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c", true, true},
		{"\x1b[?62;22c", false, false},
	} {
		fromTerm, toApp, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		fromApp, toTerm, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		asked := make(chan string, 1)
		go func() {
			buf := make([]byte, len(backgroundQuery))
			n, _ := io.ReadFull(fromApp, buf)
			asked <- string(buf[:n])
			io.WriteString(toApp, c.answer)
		}()
		light, known := query(pipeTTY{fromTerm, toTerm}, time.Minute)
		if q := <-asked; q != backgroundQuery {
			t.Errorf("the terminal was asked %q", q)
		}
		if light != c.light || known != c.known {
			t.Errorf("answer %q: light %v known %v, want %v %v", c.answer, light, known, c.light, c.known)
		}
		for _, f := range []*os.File{fromTerm, toApp, fromApp, toTerm} {
			f.Close()
		}
	}
}

// pipeTTY is a terminal made of two pipes: the app reads r, writes w.
type pipeTTY struct{ r, w *os.File }

func (p pipeTTY) Read(b []byte) (int, error)        { return p.r.Read(b) }
func (p pipeTTY) Write(b []byte) (int, error)       { return p.w.Write(b) }
func (p pipeTTY) SetReadDeadline(t time.Time) error { return p.r.SetReadDeadline(t) }
