package tui

import (
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// UTF8Locale reports whether the locale the environment names (LC_ALL,
// else LC_CTYPE, else LANG, as setlocale reads them) is UTF-8. Over SSH
// with LANG=C it is not, and the terminal would show the UI's box and
// arrow characters as question marks: the UI then draws in ASCII.
func UTF8Locale() bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := os.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// asciiFor is the ASCII stand-in for each character the UI draws that is
// not ASCII, one column for one column, so the layout does not move.
var asciiFor = map[rune]rune{
	'│': '|', '┃': '|', '║': '|',
	'─': '-', '═': '=', '━': '=',
	'┌': '+', '┐': '+', '└': '+', '┘': '+', '├': '+', '┤': '+', '┬': '+', '┴': '+', '┼': '+',
	'…': '~', '·': '.', '•': '*', '█': '#', '▁': '_', '≈': '~',
	'→': '>', '←': '<', '↑': '^', '↓': 'v', '▶': '>', '▸': '>', '▲': '^',
	'–': '-', '—': '-', '×': 'x', 'µ': 'u', '∞': '*', '✓': '+', '✗': 'x',
	'‘': '\'', '’': '\'', '“': '"', '”': '"',
}

// toASCII writes s in ASCII, a character for each of its columns: a
// character without a stand-in becomes '?', one per column it took.
func toASCII(s string) string {
	var b strings.Builder
	for s != "" {
		var cluster string
		var width int
		cluster, s, width, _ = uniseg.FirstGraphemeClusterInString(s, -1)
		r := []rune(cluster)[0]
		switch {
		case r < 0x80:
			b.WriteString(cluster)
		case asciiFor[r] != 0 && width == 1:
			b.WriteRune(asciiFor[r])
		default:
			b.WriteString(strings.Repeat("?", max(width, 1)))
		}
	}
	return b.String()
}

// asciiScreen is a screen that draws every character in ASCII.
type asciiScreen struct{ tcell.Screen }

func (s asciiScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	a := toASCII(str)
	if len(a) > 1 {
		// A wide character: fill its columns.
		for i, c := range a {
			s.Screen.SetContent(x+i, y, c, nil, style)
		}
		return "", len(a)
	}
	return s.Screen.Put(x, y, a, style)
}

func (s asciiScreen) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	if primary >= 0x80 {
		primary = []rune(toASCII(string(primary)))[0]
	}
	s.Screen.SetContent(x, y, primary, nil, style)
}

// screen returns scr, drawn in ASCII if the theme asks.
func (t *Theme) screen(scr tcell.Screen) tcell.Screen {
	if t.ASCII {
		return asciiScreen{scr}
	}
	return scr
}
