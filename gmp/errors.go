package gmp

import "strings"

// RunError is a problem the program itself caused while it ran (a
// deadlock, a panic), reported at the scenario line responsible.
type RunError struct {
	Pos  Pos
	Msg  string
	Hint string
}

func (e *RunError) Error() string {
	var b strings.Builder
	if p := e.Pos.String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString("\n\thint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}
