package tui

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// The mouse: a click on a goroutine's name anywhere on the screen finds
// it, as / does; a click on a P's name scrolls the Ps panel to it; the
// wheel scrolls the focused panel or the open list; a click answers the
// open question. --no-mouse leaves the mouse to the terminal, for
// selecting text.

// nameAt returns the G or P name under column col of a drawn row, such
// as "G12" or "P3", or "".
func nameAt(row string, col int) string {
	runes := []rune(row)
	if col < 0 || col >= len(runes) {
		return ""
	}
	isName := func(r rune) bool { return r >= '0' && r <= '9' || r == 'G' || r == 'P' }
	from, to := col, col
	for from > 0 && isName(runes[from-1]) {
		from--
	}
	for to < len(runes) && isName(runes[to]) {
		to++
	}
	// The word is ASCII, so its byte offsets are columns.
	word := string(runes[from:to])
	for _, loc := range namePattern.FindAllStringIndex(word, -1) {
		if col >= from+loc[0] && col < from+loc[1] {
			return word[loc[0]:loc[1]]
		}
	}
	return ""
}

var namePattern = regexp.MustCompile(`[GP][0-9]+`)

// rowText reads row y of the screen as it was last drawn.
func rowText(scr tcell.Screen, y int) string {
	w, _ := scr.Size()
	var b strings.Builder
	for x := 0; x < w; x++ {
		str, _, _ := scr.Get(x, y)
		if str == "" {
			str = " "
		}
		b.WriteString(str)
	}
	return b.String()
}

// click acts on a click at screen column x of a row reading row.
func (a *App) click(row string, x int) bool {
	name := nameAt(row, x)
	if name == "" {
		return false
	}
	n, _ := strconv.Atoi(name[1:])
	switch name[0] {
	case 'G':
		a.find(name)
	case 'P':
		if n >= a.sess.Config().Procs {
			return false
		}
		a.focus = focusProcs
		a.procs.top = 0
		a.procs.scroll(a.liveFrame(), n)
		a.message = "P" + strconv.Itoa(n) + ": the Ps panel shows it from here"
	}
	return true
}

// mouse is the full view's mouse handler (the split view has no panels
// to scroll or names to find).
func (a *App) mouse(action tview.MouseAction, event *tcell.EventMouse) bool {
	x, y := event.Position()
	// With --no-mouse the UI never asks for mouse reports, but a terminal
	// left in mouse mode by another program may still send them.
	if a.opts.NoMouse {
		return false
	}
	switch action {
	case tview.MouseLeftClick:
		if a.quiz != nil {
			return a.quizClick(y)
		}
		if a.screen == nil {
			return false
		}
		return a.click(rowText(a.screen, y), x)
	case tview.MouseScrollUp:
		a.scroll(-3)
		return true
	case tview.MouseScrollDown:
		a.scroll(3)
		return true
	}
	return false
}
