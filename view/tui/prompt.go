package tui

import "github.com/gdamore/tcell/v2"

// prompt is a line of input in the status bar: find a goroutine (/), go
// to an event (:), open a scenario (o). enter hands its text over; esc
// drops it.
type prompt struct {
	label, hint string
	max         int // the longest text it takes
	text        string
	enter       func(a *App, text string)
}

// ask opens p in the status bar.
func (a *App) ask(p *prompt) { a.prompt = p }

// promptKey edits the open prompt.
func (a *App) promptKey(ev *tcell.EventKey) {
	p := a.prompt
	switch ev.Key() {
	case tcell.KeyEscape:
		a.prompt = nil
	case tcell.KeyEnter:
		a.prompt = nil
		p.enter(a, p.text)
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if r := []rune(p.text); len(r) > 0 {
			p.text = string(r[:len(r)-1])
		}
	case tcell.KeyRune:
		if len(p.text) < p.max {
			p.text += string(ev.Rune())
		}
	}
}

// drawPrompt writes the open prompt over the status bar.
func drawPrompt(c canvas, f frame) {
	t := f.theme
	p := f.prompt
	col := c.text(0, 0, p.label, t.Key)
	col = c.text(col, 0, p.text, t.Base)
	col = c.text(col, 0, "▁", t.Key)
	c.text(col+2, 0, p.hint, t.Dim)
}
