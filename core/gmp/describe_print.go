package gmp

import "strconv"

// printWords tells of what the program prints: fmt.Println's line going
// out in its write.
var printWords = words{
	RulePrint: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v prints ", e.G)
		b = appendText(b, e)
		b = appendf(b, ": line %d of the output, written by %v in a write system call with %v attached", e.Line(), e.M, e.P)
		if e.FirstPrint() {
			b = append(b, "; the program's first print, slower: fmt's code and buffers are used for the first time"...)
		}
		return b
	},
}

// appendText appends the line a print event wrote, quoted as Go quotes
// it: the scenario's text, with anything that is not printable escaped.
func appendText(b []byte, e *Event) []byte {
	if e.Op == nil {
		return append(b, `""`...)
	}
	return strconv.AppendQuote(b, e.Op.Text)
}

// Text is the line a print event wrote (its action's text), or "".
func (e *Event) Text() string {
	if e.Kind != KindPrint || e.Op == nil {
		return ""
	}
	return e.Op.Text
}
