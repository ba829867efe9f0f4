package scenarios

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
)

// Bounds on a scenario's text, checked before the YAML parser sees it:
// the parser's time and memory grow faster than the input for deep flow
// nesting and for long block mappings, so input of those shapes is refused
// with its line and column instead of being parsed for minutes. The
// largest built-in is 60 lines, 3 levels of flow and 10 columns of indent.
const (
	// MaxLines bounds a file's lines; loop: repeats actions.
	MaxLines = 10_000
	// MaxFlowDepth bounds the nesting of [ ] and { }.
	MaxFlowDepth = 64
	// MaxIndent bounds a line's indentation, in columns.
	MaxIndent = 256
	// MaxFlowItems bounds the items of one [ ] or { } list.
	MaxFlowItems = 10_000
)

// utf8BOM starts some files written on Windows; it is not part of the
// YAML.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// prescan strips a UTF-8 byte order mark and checks the bounds above, and
// that the file is text: UTF-8 without NUL bytes.
func prescan(file string, data []byte) ([]byte, *Error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	at := func(line, col int, msg, hint string) *Error {
		return &Error{Pos: gmp.Pos{File: file, Line: line, Col: col}, Msg: msg, Hint: hint}
	}
	line, col, depth := 1, 1, 0
	var items []int // the items of each open [ ] or { } so far
	indent, atIndent := 0, true
	var quote byte // the quote a scalar is open in, or 0
	comment := false
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 || r == 0 {
			return nil, at(line, col, fmt.Sprintf("the file is not UTF-8 text: byte 0x%02x at offset %d", data[i], i),
				"a scenario is a YAML text file; is this the right file?")
		}
		c := data[i]
		switch {
		case c == '\n':
			line, col, indent, atIndent, comment = line+1, 0, 0, true, false
			if quote == '\'' || quote == '"' {
				// A quoted scalar may span lines; its indentation is
				// not nesting.
				atIndent = false
			}
			if line > MaxLines {
				return nil, at(line, 1, fmt.Sprintf("the file has more than %d lines", MaxLines),
					"a scenario is a few lines of YAML; repeat actions with loop: or count:")
			}
		case atIndent && c == ' ':
			indent++
			if indent > MaxIndent {
				return nil, at(line, col, fmt.Sprintf("a line indented more than %d columns", MaxIndent),
					"nest less deeply; a loop: or a YAML alias can stand for a repeated list")
			}
		case comment:
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(data) && data[i+1] != '\n' {
				i, col = i+1, col+1 // an escaped character
			} else if c == quote {
				quote = 0
			}
		default:
			atIndent = false
			switch c {
			case '#':
				comment = i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'
			case '"', '\'':
				if i == 0 || bytes.IndexByte([]byte(" \t[{,:-\n"), data[i-1]) >= 0 {
					quote = c
				}
			case '[', '{':
				depth++
				if depth > MaxFlowDepth {
					return nil, at(line, col, fmt.Sprintf("[ and { nested more than %d deep", MaxFlowDepth),
						"write the nested lists out as blocks, or nest less deeply")
				}
				items = append(items, 1)
			case ']', '}':
				depth = max(depth-1, 0)
				if len(items) > 0 {
					items = items[:len(items)-1]
				}
			case ',':
				if n := len(items); n > 0 {
					items[n-1]++
					if items[n-1] > MaxFlowItems {
						return nil, at(line, col, fmt.Sprintf("a [ ] or { } list of more than %d items", MaxFlowItems),
							"repeat actions with loop: or count: instead of writing them out")
					}
				}
			}
		}
		i += size
		col++
	}
	return data, nil
}
