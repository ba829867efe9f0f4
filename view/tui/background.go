package tui

import (
	"bytes"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// The terminal's background decides between the dark and the light
// themes (--theme auto). It is asked of the terminal itself, before the
// UI takes the screen: OSC 11 asks for the background colour, and a
// terminal that knows it answers "ESC ] 11 ; rgb:RRRR/GGGG/BBBB" (xterm,
// VTE, kitty, iTerm2, tmux…). The question is followed by a request for
// the terminal's attributes (DA1), which every terminal answers, so that
// one that ignores OSC 11 is known for it at once rather than after the
// timeout. Where nothing answers, COLORFGBG (set by rxvt and others) is
// read; where that is not set either, the background is taken as dark.

// Background reports whether the terminal's background is light, and
// whether the terminal (or COLORFGBG) said so; it asks /dev/tty, waiting
// at most backgroundWait for the answer.
func Background() (light, known bool) {
	if light, known = askBackground(backgroundWait); known {
		return light, true
	}
	return colorFGBG(os.Getenv("COLORFGBG"))
}

// backgroundWait bounds the wait for a terminal that answers nothing at
// all: the UI starts after it either way.
const backgroundWait = 150 * time.Millisecond

// backgroundQuery is OSC 11's question, then DA1's.
const backgroundQuery = "\x1b]11;?\x1b\\\x1b[c"

// maxAnswer bounds what is read of the answers: they are a few dozen
// bytes, and anything past this is not an answer to the question.
const maxAnswer = 512

// deadlineReader is a terminal the question can be asked of: /dev/tty,
// or a pipe in a test.
type deadlineReader interface {
	io.ReadWriter
	SetReadDeadline(time.Time) error
}

// query asks tty for its background and reads the answer, until the
// DA1 answer comes, maxAnswer bytes, or the deadline. The answer is the
// terminal's, not trusted: it is bounded and parsed strictly.
func query(tty deadlineReader, wait time.Duration) (light, known bool) {
	if _, err := io.WriteString(tty, backgroundQuery); err != nil {
		return false, false
	}
	_ = tty.SetReadDeadline(time.Now().Add(wait))
	var got []byte
	buf := make([]byte, 64)
	for len(got) < maxAnswer {
		n, err := tty.Read(buf[:min(len(buf), maxAnswer-len(got))])
		got = append(got, buf[:n]...)
		if da1Answered(got) || err != nil {
			break
		}
	}
	return parseBackground(got)
}

// da1Answered reports whether b holds the answer to DA1: ESC [ ? … c.
func da1Answered(b []byte) bool {
	i := bytes.Index(b, []byte("\x1b[?"))
	return i >= 0 && bytes.IndexByte(b[i:], 'c') >= 0
}

// parseBackground finds OSC 11's answer in b and says whether the colour
// is light: nearer white than black in contrast, its relative luminance
// above 0.179, where the contrast with black equals that with white.
func parseBackground(b []byte) (light, known bool) {
	i := bytes.Index(b, []byte("\x1b]11;rgb:"))
	if i < 0 {
		return false, false
	}
	rest := b[i+len("\x1b]11;rgb:"):]
	end := bytes.IndexAny(rest, "\x07\x1b")
	if end < 0 {
		return false, false
	}
	parts := strings.Split(string(rest[:end]), "/")
	if len(parts) != 3 {
		return false, false
	}
	var rgb [3]float64
	for k, p := range parts {
		// Each component is 1 to 4 hex digits, a fraction of its
		// largest value (xterm's XParseColor).
		if len(p) < 1 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		rgb[k] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	return relativeLuminance(rgb) > 0.179, true
}

// relativeLuminance is WCAG 2's relative luminance of sRGB components in
// [0, 1].
func relativeLuminance(rgb [3]float64) float64 {
	var lin [3]float64
	for k, v := range rgb {
		if v <= 0.03928 {
			lin[k] = v / 12.92
		} else {
			lin[k] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
}

// colorFGBG reads COLORFGBG, "fg;bg" (or "fg;default;bg"): the background
// is one of the terminal's 16 colours, light for 7 (white) and 9 to 15
// (the bright ones) but 8 (dark grey).
func colorFGBG(v string) (light, known bool) {
	if v == "" {
		return false, false
	}
	f := strings.Split(v, ";")
	bg, err := strconv.Atoi(f[len(f)-1])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg == 7 || bg >= 9, true
}
