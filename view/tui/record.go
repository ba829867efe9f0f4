package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Recordings (schedlab export --format cast|gif) walk a scenario note by
// note in the UI's own frames: the UI in presenter mode, drawn on a tcell
// simulation screen at its start, at each note (]) and at its end, each
// frame held long enough to read. The cast is asciicast v2 (a header line,
// then [time, "o", text] lines of ANSI text), for asciinema and the web
// players a course page embeds; the GIF draws each cell with a 7×13
// bitmap font, in ASCII as the UI's ASCII mode does.

// Recording is the frames of a walk through a scenario.
type Recording struct {
	Title  string
	W, H   int
	Light  bool // the theme is for a light background
	Frames []Frame
}

// Frame is one screen and how long it is held.
type Frame struct {
	Hold  time.Duration
	cells []recCell
}

type recCell struct {
	text string // the cell's grapheme, "" for the one a wide one spills into
	st   tcell.Style
}

// maxFrames bounds a recording: a scenario has at most a few dozen notes.
const maxFrames = 500

// Record walks sc, run with cfg, note by note in the UI drawn w×h with
// o's theme.
func Record(sc *scenarios.Scenario, cfg gmp.Config, o Options, w, h int) (*Recording, error) {
	if w < minWidth || h < minHeight || w > 1000 || h > 500 {
		return nil, fmt.Errorf("a recording is %d×%d to 1000×500 cells, not %d×%d", minWidth, minHeight, w, h)
	}
	a, err := New(sc, cfg, o)
	if err != nil {
		return nil, err
	}
	// Presenter mode's frames (the note large, no key hints), without its
	// questions: a recording asks nothing.
	a.opts.Present = true
	a.message = ""
	title := sc.Name
	if sc.Title != "" {
		title += " — " + sc.Title
	}
	rec := &Recording{Title: title, W: w, H: h, Light: a.theme.Light}
	finish := func() {
		for a.job != nil {
			a.stepJob()
		}
	}
	shot := func(hold time.Duration) {
		rec.Frames = append(rec.Frames, Frame{Hold: hold, cells: drawCells(a, w, h)})
	}
	shot(4 * time.Second)
	for len(rec.Frames) < maxFrames-1 {
		a.nextNote()
		finish()
		if a.message == "no later note" {
			break
		}
		hold := 3 * time.Second
		if ns := a.sess.CurrentNotes(); len(ns) > 0 {
			// Time to read it: 60ms a character past the first 50.
			hold += time.Duration(max(len(ns[0].Text)-50, 0)) * 60 * time.Millisecond
		}
		shot(min(hold, 15*time.Second))
	}
	a.last()
	finish()
	shot(5 * time.Second)
	return rec, nil
}

// drawCells draws a's screen at w×h and reads it back.
func drawCells(a *App, w, h int) []recCell {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		panic(err) // a simulation screen does not fail to start
	}
	defer scr.Fini()
	scr.SetSize(w, h)
	a.Root().SetRect(0, 0, w, h)
	a.Root().Draw(scr)
	scr.Show()
	cells, cw, ch := scr.GetContents()
	out := make([]recCell, w*h)
	for y := range min(ch, h) {
		for x := range min(cw, w) {
			c := cells[y*cw+x]
			out[y*w+x] = recCell{text: string(c.Runes), st: c.Style}
		}
	}
	return out
}

// WriteCast writes the recording as an asciicast v2 file.
func (r *Recording) WriteCast(w io.Writer) error {
	bw := bufio.NewWriter(w)
	header := map[string]any{"version": 2, "width": r.W, "height": r.H, "title": safetext.Term(r.Title),
		"env": map[string]string{"TERM": "xterm-256color"}}
	if err := writeJSONLine(bw, header); err != nil {
		return err
	}
	at := time.Duration(0)
	for i, f := range r.Frames {
		out := "\x1b[H\x1b[2J" + f.ansi(r.W, r.H)
		if i == 0 {
			out = "\x1b[?25l" + out // no cursor over the picture
		}
		if err := writeJSONLine(bw, []any{seconds(at), "o", out}); err != nil {
			return err
		}
		at += f.Hold
	}
	// The last frame is held too: an empty output at its end.
	if err := writeJSONLine(bw, []any{seconds(at), "o", ""}); err != nil {
		return err
	}
	return bw.Flush()
}

func writeJSONLine(w *bufio.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Write(data)
	return w.WriteByte('\n')
}

// seconds is d as asciicast writes times: seconds, to the microsecond.
func seconds(d time.Duration) json.Number {
	return json.Number(strconv.FormatFloat(d.Seconds(), 'f', 6, 64))
}

// ansi is the frame as ANSI text: rows separated by CR LF, a style
// change written as one SGR sequence. What the cells hold was made safe
// for the terminal where the UI drew it (canvas.text).
func (f Frame) ansi(w, h int) string {
	var b strings.Builder
	for y := range h {
		cur := tcell.StyleDefault
		b.WriteString("\x1b[0m")
		for x := range w {
			c := f.cells[y*w+x]
			if c.text == "" && x > 0 && width(f.cells[y*w+x-1].text) > 1 {
				continue // covered by the wide character before it
			}
			if c.st != cur {
				b.WriteString(sgr(c.st))
				cur = c.st
			}
			if c.text == "" {
				b.WriteByte(' ')
			} else {
				b.WriteString(c.text)
			}
		}
		b.WriteString("\x1b[0m")
		if y < h-1 {
			b.WriteString("\r\n")
		}
	}
	return b.String()
}

// sgr is the escape sequence that sets style st from scratch.
func sgr(st tcell.Style) string {
	fg, bg, attr := st.Decompose()
	codes := []string{"0"}
	if attr&tcell.AttrBold != 0 {
		codes = append(codes, "1")
	}
	if attr&tcell.AttrDim != 0 {
		codes = append(codes, "2")
	}
	if attr&tcell.AttrUnderline != 0 {
		codes = append(codes, "4")
	}
	if attr&tcell.AttrReverse != 0 {
		codes = append(codes, "7")
	}
	codes = append(codes, colourCode(fg, false)...)
	codes = append(codes, colourCode(bg, true)...)
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

// colourCode is a colour's SGR parameters: the 16 colours by their own
// codes, the 256 by index, others by RGB.
func colourCode(c tcell.Color, bg bool) []string {
	if c == tcell.ColorDefault || !c.Valid() {
		return nil
	}
	base, bright, ext := 30, 90, "38"
	if bg {
		base, bright, ext = 40, 100, "48"
	}
	if c.IsRGB() {
		r, g, b := c.RGB()
		return []string{ext, "2", strconv.Itoa(int(r)), strconv.Itoa(int(g)), strconv.Itoa(int(b))}
	}
	i := int(c - tcell.ColorValid)
	switch {
	case i < 8:
		return []string{strconv.Itoa(base + i)}
	case i < 16:
		return []string{strconv.Itoa(bright + i - 8)}
	}
	return []string{ext, "5", strconv.Itoa(i)}
}

// The GIF's cells are basicfont's 7×13 glyphs.
const (
	glyphW = 7
	glyphH = 13
)

// WriteGIF writes the recording as an animated GIF.
func (r *Recording) WriteGIF(w io.Writer) error {
	fg, bg := color.RGBA{0xe5, 0xe5, 0xe5, 0xff}, color.RGBA{0, 0, 0, 0xff}
	if r.Light {
		fg, bg = color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	pal := &gifPalette{index: map[color.RGBA]uint8{}}
	pal.add(bg)
	pal.add(fg)
	anim := &gif.GIF{}
	for _, f := range r.Frames {
		img := image.NewPaletted(image.Rect(0, 0, r.W*glyphW, r.H*glyphH), nil)
		for y := range r.H {
			x := 0
			for cx := 0; cx < r.W; cx++ {
				c := f.cells[y*r.W+cx]
				cf, cb, attr := c.st.Decompose()
				fc, bc := rgbOr(cf, fg), rgbOr(cb, bg)
				if attr&tcell.AttrReverse != 0 {
					fc, bc = bc, fc
				}
				text := toASCII(c.text)
				if c.text == "" {
					text = " "
				}
				for _, ch := range text {
					if x >= r.W {
						break
					}
					drawGlyph(img, pal, x, y, ch, pal.add(fc), pal.add(bc), attr)
					x++
				}
				if text != "" && width(c.text) > 1 {
					cx++ // the cell the wide character spilled into
				}
			}
			for ; x < r.W; x++ {
				drawGlyph(img, pal, x, y, ' ', pal.add(fg), pal.add(bg), 0)
			}
		}
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, int(f.Hold/(10*time.Millisecond)))
	}
	p := pal.palette()
	for _, img := range anim.Image {
		img.Palette = p
	}
	return gif.EncodeAll(w, anim)
}

// rgbOr is c in RGB, or def for the terminal's own colour.
func rgbOr(c tcell.Color, def color.RGBA) color.RGBA {
	if c == tcell.ColorDefault || !c.Valid() {
		return def
	}
	r, g, b := c.RGB()
	return color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
}

// gifPalette gathers the colours a recording uses, at most 256.
type gifPalette struct {
	colors []color.RGBA
	index  map[color.RGBA]uint8
}

func (p *gifPalette) add(c color.RGBA) uint8 {
	if i, ok := p.index[c]; ok {
		return i
	}
	if len(p.colors) == 256 {
		return 1 // past 256 colours, the text colour (no theme has so many)
	}
	p.index[c] = uint8(len(p.colors))
	p.colors = append(p.colors, c)
	return p.index[c]
}

func (p *gifPalette) palette() color.Palette {
	out := make(color.Palette, len(p.colors))
	for i, c := range p.colors {
		out[i] = c
	}
	return out
}

// drawGlyph paints cell (cx, cy) with ch in colour fg on bg, bold as a
// second stroke a pixel to the right, underline on the last row.
func drawGlyph(img *image.Paletted, pal *gifPalette, cx, cy int, ch rune, fg, bg uint8, attr tcell.AttrMask) {
	x0, y0 := cx*glyphW, cy*glyphH
	for y := range glyphH {
		row := img.Pix[(y0+y)*img.Stride+x0:]
		for x := range glyphW {
			row[x] = bg
		}
	}
	face := basicfont.Face7x13
	dot := fixed.P(x0, y0+face.Metrics().Ascent.Ceil())
	dr, mask, mp, _, ok := face.Glyph(dot, ch)
	if !ok {
		dr, mask, mp, _, _ = face.Glyph(dot, '?')
	}
	for y := dr.Min.Y; y < dr.Max.Y; y++ {
		for x := dr.Min.X; x < dr.Max.X; x++ {
			if _, _, _, a := mask.At(mp.X+x-dr.Min.X, mp.Y+y-dr.Min.Y).RGBA(); a < 0x8000 {
				continue
			}
			img.SetColorIndex(x, y, fg)
			if attr&tcell.AttrBold != 0 && x+1 < x0+glyphW {
				img.SetColorIndex(x+1, y, fg)
			}
		}
	}
	if attr&tcell.AttrUnderline != 0 {
		for x := range glyphW {
			img.SetColorIndex(x0+x, y0+glyphH-1, fg)
		}
	}
}
