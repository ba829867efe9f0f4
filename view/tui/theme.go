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
	palette  []tcell.Color
}

// Themes lists the themes by name, for --theme.
var Themes = []string{"default", "projector", "mono"}

// NewTheme returns the theme o asks for: the monochrome one when o.Mono is
// set, o.Theme is "mono" or the NO_COLOR environment variable is not
// empty; the projector one, where nothing is drawn in the terminal's dim
// grey (bright black, which a projector washes out); the colour theme
// otherwise. o.ASCII draws it in ASCII.
func NewTheme(o Options) *Theme {
	var t *Theme
	switch {
	case o.Mono || o.Theme == "mono" || os.Getenv("NO_COLOR") != "":
		t = monoTheme()
	case o.Theme == "projector":
		t = projectorTheme()
	default:
		t = colourTheme()
	}
	t.ASCII = o.ASCII
	return t
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
		Good:     base.Bold(true).Foreground(tcell.ColorGreen),
		Run:      base.Foreground(tcell.ColorGreen),
		Syscall:  base.Foreground(tcell.ColorFuchsia),
		Idle:     base.Foreground(tcell.ColorGray),
		Spinning: base.Foreground(tcell.ColorYellow),
		// The exports draw goroutines in the same colours (palette).
		palette: gColors(),
	}
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
