package tui

import (
	"github.com/schedlab/schedlab/internal/palette"

	"os"

	"github.com/gdamore/tcell/v2"
)

// Theme is every style the UI uses. Meaning never rests on colour alone:
// the current event and the found goroutine are also reversed or bold, so
// the monochrome theme (NO_COLOR, --mono, a washed-out projector) loses
// nothing.
type Theme struct {
	Mono bool
	// Light is set for a theme made for a light background.
	Light bool
	// ASCII draws every character as ASCII (asciiScreen), for a terminal
	// whose locale is not UTF-8.
	ASCII    bool
	Base     tcell.Style // ordinary text
	Dim      tcell.Style // secondary text: times, counts, labels
	Title    tcell.Style // panel titles and the header
	Focus    tcell.Style // the title of the panel with focus
	Current  tcell.Style // the current event's line
	Found    tcell.Style // the goroutine being looked for
	Note     tcell.Style // scenario captions
	Key      tcell.Style // key names in the status bar and help
	Warn     tcell.Style // the end of a run that failed, a wrong answer
	Good     tcell.Style // a right answer
	Run      tcell.Style // a P running a G, in the timeline
	Syscall  tcell.Style // a P whose G is in a syscall
	Idle     tcell.Style // an idle P or M
	Spinning tcell.Style // a spinning M
	Slide    tcell.Style // a note shown large (presenting): the most contrast
	palette  []tcell.Color
}

// Themes lists the themes by name, for --theme. auto, the default, is
// the colour theme for the terminal's background: dark or light, as the
// terminal says (Background).
var Themes = []string{"auto", "default", "light", "projector", "mono"}

// NewTheme returns the theme o asks for: the monochrome one when o.Mono is
// set, o.Theme is "mono" or the NO_COLOR environment variable is not
// empty; the light one for "light", and for "auto" on a light background
// (o.Light); the projector one, where nothing is drawn in a washed-out
// grey, in its dark or light form by the background; the dark colour
// theme otherwise. o.ASCII draws it in ASCII.
func NewTheme(o Options) *Theme {
	var t *Theme
	switch {
	case o.Mono || o.Theme == "mono" || os.Getenv("NO_COLOR") != "":
		t = monoTheme()
	case o.Theme == "light", (o.Theme == "auto" || o.Theme == "") && o.Light:
		t = lightTheme()
	case o.Theme == "projector" && o.Light:
		t = projectorLightTheme()
	case o.Theme == "projector":
		t = projectorTheme()
	default:
		t = colourTheme()
	}
	t.ASCII = o.ASCII
	return t
}

// themeTable is every theme the UI can draw in, with the background each
// is made for: the contrast test holds each to it.
var themeTable = []struct {
	name  string
	light bool
	make  func() *Theme
}{
	{"default", false, colourTheme},
	{"light", true, lightTheme},
	{"projector", false, projectorTheme},
	{"projector on a light background", true, projectorLightTheme},
	{"mono", false, monoTheme},
	{"mono on a light background", true, monoTheme},
}

// projectorTheme is the colour theme with its greys made white and its
// secondary text plain: a class at the back of a room reads everything.
func projectorTheme() *Theme {
	t := colourTheme()
	base := tcell.StyleDefault
	t.Dim = base
	t.Idle = base.Foreground(tcell.ColorSilver)
	t.Title = base.Bold(true).Foreground(tcell.ColorYellow)
	t.Key = t.Title
	return t
}

// projectorLightTheme is the projector theme for a light background:
// every colour dark and strong, the secondary text plain black.
func projectorLightTheme() *Theme {
	t := lightTheme()
	base := tcell.StyleDefault
	t.Dim = base
	t.Idle = base
	t.Title = base.Bold(true).Foreground(tcell.ColorNavy)
	t.Focus = base.Bold(true).Foreground(tcell.ColorWhite).Background(tcell.ColorNavy)
	t.Key = t.Title
	return t
}

// colourTheme is for a dark background (assumed black): every colour at
// least 4.5 times as bright as it, WCAG's contrast for text
// (TestThemesAreReadableOnTheirBackground).
func colourTheme() *Theme {
	base := tcell.StyleDefault
	return &Theme{
		Base:     base,
		Dim:      base.Foreground(tcell.ColorGray),
		Title:    base.Bold(true).Foreground(tcell.ColorAqua),
		Focus:    base.Bold(true).Reverse(true).Foreground(tcell.ColorAqua),
		Current:  base.Reverse(true).Bold(true),
		Found:    base.Bold(true).Underline(true).Foreground(tcell.ColorYellow),
		Note:     base.Foreground(tcell.ColorYellow),
		Key:      base.Bold(true).Foreground(tcell.ColorAqua),
		Warn:     base.Bold(true).Foreground(tcell.ColorRed),
		Good:     base.Bold(true).Foreground(tcell.ColorLimeGreen),
		Run:      base.Foreground(tcell.ColorLimeGreen),
		Syscall:  base.Foreground(tcell.ColorFuchsia),
		Idle:     base.Foreground(tcell.ColorGray),
		Spinning: base.Foreground(tcell.ColorYellow),
		Slide:    base.Bold(true),
		// The exports draw goroutines in the same colours (palette),
		// made readable on black where one is too dark.
		palette: readableOn(gColors(), false),
	}
}

// lightTheme is for a light background (assumed white): the colour
// theme's roles in dark colours, and the header's bar a colour of its
// own rather than the terminal's reversed, which a light terminal makes
// white on cyan.
func lightTheme() *Theme {
	base := tcell.StyleDefault
	return &Theme{
		Light:    true,
		Base:     base,
		Dim:      base.Foreground(tcell.ColorDimGray),
		Title:    base.Bold(true).Foreground(tcell.ColorTeal),
		Focus:    base.Bold(true).Foreground(tcell.ColorWhite).Background(tcell.ColorTeal),
		Current:  base.Reverse(true).Bold(true),
		Found:    base.Bold(true).Underline(true).Foreground(tcell.ColorDarkMagenta),
		Note:     base.Foreground(tcell.ColorMediumBlue),
		Key:      base.Bold(true).Foreground(tcell.ColorTeal),
		Warn:     base.Bold(true).Foreground(tcell.ColorDarkRed),
		Good:     base.Bold(true).Foreground(tcell.ColorDarkGreen),
		Run:      base.Foreground(tcell.ColorDarkGreen),
		Syscall:  base.Foreground(tcell.ColorDarkMagenta),
		Idle:     base.Foreground(tcell.ColorDimGray),
		Spinning: base.Foreground(tcell.ColorSaddleBrown),
		Slide:    base.Bold(true),
		palette:  readableOn(gColors(), true),
	}
}

// darkerFor and lighterFor stand in for the palette's colours that are
// too light for a white background, or too dark for a black one: each
// a colour near it that reads.
var (
	darkerFor = map[tcell.Color]tcell.Color{
		tcell.ColorAqua: tcell.ColorTeal, tcell.ColorFuchsia: tcell.ColorDarkMagenta,
		tcell.ColorYellow: tcell.ColorSaddleBrown, tcell.ColorOrange: tcell.ColorFireBrick,
		tcell.ColorLime: tcell.ColorDarkOliveGreen, tcell.ColorDeepSkyBlue: tcell.ColorRoyalBlue,
		tcell.ColorHotPink: tcell.ColorMediumVioletRed,
	}
	lighterFor = map[tcell.Color]tcell.Color{tcell.ColorGreen: tcell.ColorLimeGreen}
)

// readableOn replaces the colours of cs that do not read on the
// background (white when light, else black) by their stand-ins.
func readableOn(cs []tcell.Color, light bool) []tcell.Color {
	out := make([]tcell.Color, len(cs))
	for i, c := range cs {
		out[i] = c
		if alt, ok := darkerFor[c]; light && ok {
			out[i] = alt
		} else if alt, ok := lighterFor[c]; !light && ok {
			out[i] = alt
		}
	}
	return out
}

func monoTheme() *Theme {
	base := tcell.StyleDefault
	return &Theme{
		Mono:     true,
		Base:     base,
		Dim:      base,
		Title:    base.Bold(true),
		Focus:    base.Bold(true).Reverse(true),
		Current:  base.Reverse(true),
		Found:    base.Bold(true).Underline(true),
		Note:     base.Bold(true),
		Key:      base.Bold(true),
		Warn:     base.Bold(true),
		Good:     base.Bold(true).Underline(true),
		Run:      base,
		Syscall:  base,
		Idle:     base,
		Spinning: base,
		Slide:    base.Bold(true),
	}
}

// gColors are the goroutines' colours as the terminal names them.
func gColors() []tcell.Color {
	out := make([]tcell.Color, len(palette.Gs))
	for i, c := range palette.Gs {
		out[i] = tcell.GetColor(c.Name)
	}
	return out
}

// G is the style of goroutine g: a colour of its own, so it can be
// followed from queue to queue.
func (t *Theme) G(g int) tcell.Style {
	if t.Mono || len(t.palette) == 0 || g <= 0 {
		return t.Base
	}
	return t.Base.Foreground(t.palette[g%len(t.palette)])
}
